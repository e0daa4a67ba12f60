/**
 * data/declarations.json (generator/pipeline/emit/typescript/declarations.ts): one standalone TypeScript declaration per
 * operation. Every entry of every example, and of a plan with awkward names, must compile under strict
 * with the TypeScript compiler; the same plan must give the same text.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { apiMethodTexts, DECLARATIONS_DATA_PATH } from "../../generator/pipeline/emit/typescript/declarations.js";
import { SchemaTypes } from "../../generator/pipeline/emit/typescript/schema-types.js";
import { toolTypeBlocks, toolTypeSource } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { operationDeclarations, printToolTypes } from "../../generator/pipeline/emit/typescript/tool-types.js";
import { loadTsMorph } from "../../generator/pipeline/emit/typescript/ts-morph.js";
import { planProject } from "../../generator/pipeline/plan/plan-project.js";
import { DECLARATIONS_URI, ResourceCatalog } from "../../runtime/src/server/resources.js";
import { api, jsonBody, jsonResponse, operation, parameter, schemas } from "../support/factories.js";

const root = new URL("../../../", import.meta.url).pathname;

/**
 * Type-checks each declaration as its own module (so the entries' names do not meet), together with a
 * use of it: `declare const api: Api` and a call whose result must be assignable to the declared output.
 * Returns the diagnostics as text, one line each (empty when all compile).
 */
function typeCheck(declarations: Record<string, string>): string[] {
  const files = new Map<string, string>();
  Object.entries(declarations).forEach(([name, text], index) => {
    const call = `api[${JSON.stringify(name)}]`;
    files.set(
      `/decl/${index}.ts`,
      `${text}\ndeclare const api: Api;\nexport const use: ReturnType<typeof ${call}> = ${call}({} as Parameters<typeof ${call}>[0] as never);\n`,
    );
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    lib: ["lib.es2023.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => files.get(file) ?? readFile(file);
  host.fileExists = (file) => files.has(file) || fileExists(file);
  host.getSourceFile = (file, language, onError) => {
    const text = files.get(file);
    return text === undefined ? getSourceFile(file, language, onError) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}\n${d.file ? files.get(d.file.fileName) : ""}`,
    );
}

/** A plan with the names that break naive printing: a tool name that is no identifier, a schema named Api, `*\/` in prose. */
function awkwardPlan() {
  const defs = schemas({
    Api: {
      type: "object",
      description: "A schema called Api. */ not the end of the comment",
      properties: { id: { type: "integer" } },
      required: ["id"],
    },
    "node-info": { type: "object", properties: { child: { $ref: "#/$defs/node-info" }, api: { $ref: "#/$defs/Api" } } },
  });
  return planProject(
    api(
      [
        operation({
          operationId: "odd-name.v2",
          method: "post",
          path: "/odd/{id}",
          summary: "Odd one */ with a comment end",
          parameters: [
            parameter({ name: "id", in: "path", schema: { type: "integer" } }),
            parameter({ name: "X-Trace Id", in: "header" }),
          ],
          requestBody: jsonBody({ $ref: "#/$defs/node-info" }),
          responses: [jsonResponse("200", { type: "array", items: { $ref: "#/$defs/Api" } })],
        }),
        operation({ operationId: "ping", method: "get", path: "/ping", responses: [jsonResponse("204")] }),
      ],
      defs,
    ),
    {},
    new DiagnosticBag(),
  );
}

test("the examples' declarations type-check under strict, each entry alone", () => {
  const examples = readdirSync(join(root, "generated"));
  assert.ok(examples.length >= 5);
  let count = 0;
  for (const example of examples) {
    const declarations = JSON.parse(
      readFileSync(join(root, "generated", example, DECLARATIONS_DATA_PATH), "utf8"),
    ) as Record<string, string>;
    const tools = JSON.parse(readFileSync(join(root, "generated", example, "data", "tools.json"), "utf8")) as Array<{
      name: string;
    }>;
    assert.equal(
      Object.keys(declarations),
      tools.map((t) => t.name),
      `${example}: one declaration per tool, in tool order`,
    );
    assert.equal(typeCheck(declarations), [], example);
    count += tools.length;
  }
  assert.ok(count > 20, `${count} declarations checked`);
});

test("a declaration: named types, input, output and the api method with its doc comment", () => {
  const text = JSON.parse(readFileSync(join(root, "generated", "petstore", DECLARATIONS_DATA_PATH), "utf8"))
    .listPets as string;
  assert.match(text, /^export type PetStatus = "available" \| "pending" \| "adopted";/);
  assert.match(
    text,
    /\/\*\* Arguments of the `listPets` tool \(GET \/pets\)\. \*\/\nexport interface ListPetsInput \{\n  \/\*\* How many pets to return at most\. \*\/\n  limit\?: number;/,
  );
  assert.match(text, /export type ListPetsOutput = /);
  assert.match(
    text,
    /interface Api \{\n  \/\*\*\n   \* List pets\n[\s\S]*   \* GET \/pets\n   \*\/\n  listPets\(args\?: ListPetsInput\): Promise<ListPetsOutput>;\n\}\n$/,
  );
});

test("a declaration describes the wire (structuredContent as code mode gets it); the project's types the full spec", () => {
  const plan = awkwardPlan();
  const tools = plan.tools.map(toolTypeSource);
  const printed = printToolTypes(tools, plan.types, loadTsMorph());
  const odd = printed.declarations[tools[0]!.name]!;
  assert.equal(printed.declarations, operationDeclarations(plan), "the same declarations as printed alone");
  assert.match(odd, /export type OddNameV2Output =[\s\S]*result: Array</, "the wire's { result } wrapper");
  assert.match(odd, /export type Api_2 = /, "the declarations keep Api free for the Api interface");
  const module = printed.modules.get(tools[0]!.fileName)!;
  assert.match(module, /export type OddNameV2Output = Api\[\];/, "the project's output type: the array, by name");
  const schemas = printed.schemas.map((file) => file.content).join("");
  assert.match(schemas, /export interface NodeInfo \{\n  child\?: NodeInfo;\n  api\?: Api;\n\}/, "recursion by name");
});

test("awkward names and comment ends still compile; the output is deterministic", () => {
  const first = operationDeclarations(awkwardPlan());
  const second = operationDeclarations(awkwardPlan());
  assert.equal(first, second);
  const names = Object.keys(first);
  assert.is(names.length, 2);
  const odd = first[names[0]!]!;
  assert.match(odd, new RegExp(`${JSON.stringify(names[0]).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\(args: `));
  assert.match(odd, /type Api_2 = /, "the schema named Api does not clash with the Api interface");
  assert.not.match(odd.replace(/\*\\\//g, ""), /\*\/ (not the end|with a comment end)/, "*/ in prose is escaped");
  assert.match(first[names[1]!]!, /ping\(args\?: PingInput\): Promise<unknown>;/);
  assert.equal(typeCheck(first), []);
});

test("a line break in a path stays inside the doc comments of the Api method and the tool types", () => {
  const plan = awkwardPlan();
  // The only line of a method's doc that is not the one-line brief: method and path (a hostile spec's path may hold a newline).
  plan.tools[1]!.http.path = "/ping\n// not code\n";
  const tools = plan.tools.map(toolTypeSource);
  const methods = apiMethodTexts(tools);
  assert.is(methods.length, 2);
  assert.ok(methods.every((text) => text.startsWith("interface Api {\n") && text.endsWith("}\n")));
  assert.ok(methods[1]!.includes("   * GET /ping\n   * // not code\n   *\n   */\n"), methods[1]);
  const blocks = toolTypeBlocks(tools, new SchemaTypes(tools));
  assert.ok(
    blocks.every((block) => block.text.startsWith("/**") && block.text.endsWith("\n") && !block.text.endsWith("\n\n")),
  );
  assert.ok(blocks[1]!.text.includes(" * // not code\n"), blocks[1]!.text);
  assert.equal(typeCheck(operationDeclarations(tools)), []);
});

test("the runtime serves openapi://declarations when given, and lists it", () => {
  const catalog = new ResourceCatalog([], undefined, () => '{"a":"interface Api {}"}');
  assert.equal(
    catalog.list().map((r) => r.uri),
    [DECLARATIONS_URI],
  );
  assert.equal(catalog.read(DECLARATIONS_URI), [
    { uri: DECLARATIONS_URI, mimeType: "application/json", text: '{"a":"interface Api {}"}' },
  ]);
  assert.equal(new ResourceCatalog([]).read(DECLARATIONS_URI), undefined);
});

test.run();
