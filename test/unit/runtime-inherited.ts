/**
 * Issue 10, item 12: property names that are also Object.prototype members. Validation must read
 * own properties only, and a property named `__proto__` must survive the generator (tool schemas,
 * body mapping) and the runtime (request body). Tools come from specs/fixtures/inherited-names.yaml.
 */
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { generate } from "../../generator/pipeline/generate.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

const spec = fileURLToPath(new URL("../../../specs/fixtures/inherited-names.yaml", import.meta.url));
type Obj = Record<string, any>;
let tools: ToolDefinition[];
let upstream: Upstream;
let replyBody = '{"id":1}';

test.before(async () => {
  tools = (await generate({ spec })).plan.tools.map(toolDefinition);
  upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: replyBody,
  }));
});
test.after(async () => upstream.close());

type Result = { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Obj };
async function call(args: unknown): Promise<Result> {
  const server = new McpServer({
    ...apiFeatures,
    info: { name: "inherited", version: "1.0.0" },
    tools,
    upstream: { baseUrl: upstream.baseUrl },
  });
  // Through JSON, as a client's message arrives: `__proto__` is then an own property.
  const message = JSON.parse(
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "createThing" } }),
  );
  message.params.arguments = JSON.parse(typeof args === "string" ? args : JSON.stringify(args));
  const response = (await server.handle(message)) as unknown as { result: Result };
  return response.result;
}

test("a property named __proto__ keeps its place in the input and output schemas and the body mapping", () => {
  const tool = tools.find((t) => t.name === "createThing")!;
  const input = tool.inputSchema.properties as Obj;
  const protoArgument = Object.keys(input).find((k) => k.endsWith("__proto__"));
  assert.ok(protoArgument, `input properties: ${Object.keys(input).join(", ")}`);
  assert.equal(input[protoArgument!], { type: "string", description: "A property literally named __proto__." });
  assert.ok(Object.prototype.hasOwnProperty.call(input.meta.properties, "constructor"));
  const mapping = (tool.http.body as { properties: Record<string, string> }).properties;
  assert.is(mapping[protoArgument!], "__proto__");
  const json = JSON.stringify(tool.outputSchema);
  assert.match(json, /"__proto__":\{"type":"string"\}/);
  assert.match(json, /"constructor":\{"type":"string"\}/);
});

test("{ name, meta: {} } is valid although meta declares constructor and toString", async () => {
  const before = upstream.received.length;
  const result = await call({ name: "a", meta: {} });
  assert.not.ok(result.isError, result.content[0]!.text);
  assert.is(upstream.received.length, before + 1);
  assert.equal(JSON.parse(upstream.received.at(-1)!.body), { name: "a", meta: {} });
});

test("a declared constructor property is still checked when it is there", async () => {
  const result = await call({ name: "a", meta: { constructor: 5 } });
  assert.ok(result.isError);
  assert.match(result.content[0]!.text, /\/meta\/constructor must be string/);
});

test('the response {"id":1} is not flagged unexpected', async () => {
  replyBody = '{"id":1}';
  const result = await call({ name: "a" });
  assert.not.ok(result.isError);
  assert.equal(result.structuredContent, { id: 1 });
});

test("a __proto__ argument reaches the upstream body as a property", async () => {
  const tool = tools.find((t) => t.name === "createThing")!;
  const protoArgument = Object.keys(tool.inputSchema.properties as Obj).find((k) => k.endsWith("__proto__"))!;
  const result = await call(`{"name":"a",${JSON.stringify(protoArgument)}:"x"}`);
  assert.not.ok(result.isError, result.content[0]!.text);
  assert.is(upstream.received.at(-1)!.body, '{"name":"a","__proto__":"x"}');
});

test("absent arguments named constructor or toString send nothing (no inherited value on the wire)", async () => {
  const tool: ToolDefinition = {
    name: "search",
    description: "search",
    inputSchema: { type: "object", properties: { constructor: { type: "string" }, toString: { type: "string" } } },
    http: {
      method: "get",
      path: "/search",
      parameters: [
        { argument: "constructor", name: "constructor", in: "query", style: "form", explode: true, required: false },
        { argument: "toString", name: "X-To-String", in: "header", style: "simple", explode: false, required: false },
      ],
      response: { accept: ["application/json"] },
    },
  };
  const server = new McpServer({
    ...apiFeatures,
    info: { name: "inherited", version: "1.0.0" },
    tools: [tool],
    upstream: { baseUrl: upstream.baseUrl },
  });
  const response = (await server.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search", arguments: {} },
  })) as unknown as { result: Result };
  assert.not.ok(response.result.isError, response.result.content[0]!.text);
  assert.is(upstream.received.at(-1)!.url, "/api/v1/search");
  assert.is(upstream.received.at(-1)!.headers["x-to-string"], undefined);
});

test("ajv reads own properties only (required and properties)", () => {
  const validator = new SchemaValidator();
  const schema = { type: "object", required: ["toString"], properties: { constructor: { type: "string" } } };
  assert.equal(validator.validate(schema, {}, "t"), { ok: false, errors: ["missing required property 'toString'"] });
  assert.equal(validator.validate(schema, { toString: 1 }, "t"), { ok: true });
});

test.run();
