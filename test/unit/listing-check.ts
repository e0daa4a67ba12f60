/**
 * The generator's listing check (generator/pipeline/plan/listing-check.ts) against the official SDK 1.x: for
 * every tool here, hand-written and mutated, the check finds a problem exactly when the SDK client
 * refuses a tools/list holding that tool (its zod `ListToolsResultSchema`, then ajv compiling each
 * `outputSchema`, as `Client.listTools` does). And the refusal is of the whole list: shown once with
 * the real client over an in-memory transport.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { ListingCheck } from "../../generator/pipeline/plan/listing-check.js";
import { listable, planProject } from "../../generator/pipeline/plan/plan-project.js";
import { api, jsonResponse, operation } from "../support/factories.js";
import { Prng } from "../fuzz/prng.js";

type Obj = Record<string, unknown>;

/** Whether the SDK client accepts a tools/list holding `tool`, as `Client.listTools` decides. */
function sdkAccepts(tool: unknown): boolean {
  const parsed = ListToolsResultSchema.safeParse({ tools: [tool] });
  if (!parsed.success) return false;
  const output = (parsed.data.tools[0] as { outputSchema?: Obj }).outputSchema;
  if (!output) return true;
  // The SDK's ajv warns on the console about unknown formats; the verdict is whether it throws.
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    new AjvJsonSchemaValidator().getValidator(output);
    return true;
  } catch {
    return false;
  } finally {
    console.warn = warn;
  }
}

const base = (): Obj => ({
  name: "getThing",
  title: "Get a thing",
  description: "Returns a thing.",
  inputSchema: {
    type: "object",
    properties: { id: { type: "string", minLength: 1 }, body: { $ref: "#/$defs/Body" } },
    required: ["id"],
    $defs: { Body: { type: "object", properties: { a: { type: "integer" } } } },
  },
  outputSchema: {
    type: "object",
    anyOf: [
      { properties: { id: { type: "integer" }, tags: { type: "array", items: { type: "string" } } }, required: ["id"] },
      { properties: { unexpectedResponse: {} }, required: ["unexpectedResponse"] },
    ],
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});

/** Tools that differ from `base` in one place each (the place a planner bug or a spec could reach). */
const CASES: Array<[string, (tool: Obj) => void]> = [
  ["as planned", () => undefined],
  ["input property false (the class of issue 36)", (t) => ((t.inputSchema as Obj).properties = { x: false })],
  ["input property true", (t) => ((t.inputSchema as Obj).properties = { x: true })],
  ["input property null", (t) => ((t.inputSchema as Obj).properties = { x: null })],
  ["input property a string", (t) => ((t.inputSchema as Obj).properties = { x: "string" })],
  ["input property an array", (t) => ((t.inputSchema as Obj).properties = { x: [] })],
  ["input properties an array", (t) => ((t.inputSchema as Obj).properties = [])],
  ["input properties null", (t) => ((t.inputSchema as Obj).properties = null)],
  ["input type array", (t) => ((t.inputSchema as Obj).type = "array")],
  ["input type list", (t) => ((t.inputSchema as Obj).type = ["object"])],
  ["input without type", (t) => delete (t.inputSchema as Obj).type],
  ["input required with a number", (t) => ((t.inputSchema as Obj).required = ["id", 1])],
  ["input required a string", (t) => ((t.inputSchema as Obj).required = "id")],
  ["input required empty", (t) => ((t.inputSchema as Obj).required = [])],
  ["input nested boolean", (t) => ((t.inputSchema as Obj).properties = { x: { type: "array", items: false } })],
  ["input pattern that does not compile", (t) => ((t.inputSchema as Obj).properties = { x: { pattern: "(" } })],
  ["output property false", (t) => ((t.outputSchema as Obj).properties = { x: false })],
  ["output type object missing", (t) => delete (t.outputSchema as Obj).type],
  ["output nested false", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.properties = { x: false })],
  ["output unknown type", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.type = "file")],
  ["output type list", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.type = ["object", "null"])],
  ["output bad pattern", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.pattern = "(")],
  ["output good pattern", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.pattern = "^a+$")],
  ["output unknown format", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.format = "int32")],
  ["output dangling ref", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.$ref = "#/$defs/Nowhere")],
  ["output empty enum", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.enum = [])],
  ["output enum", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.enum = [{ id: 1 }])],
  ["output enum not a list", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.enum = "a")],
  ["output empty anyOf", (t) => ((t.outputSchema as Obj).anyOf = [])],
  ["output required with null", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.required = [null])],
  ["output minimum a string", (t) => (((t.outputSchema as Obj).anyOf as Obj[])[0]!.minimum = "1")],
  ["output null", (t) => ((t as Obj).outputSchema = null)],
  ["title null", (t) => (t.title = null)],
  ["title a number", (t) => (t.title = 1)],
  ["description null", (t) => (t.description = null)],
  ["no description", (t) => delete t.description],
  ["annotations hint a string", (t) => ((t.annotations as Obj).readOnlyHint = "yes")],
  ["annotations title a number", (t) => ((t.annotations as Obj).title = 2)],
  ["annotations null", (t) => (t.annotations = null)],
];

test("the check refuses exactly the tools the SDK client refuses (one change at a time)", () => {
  const check = new ListingCheck();
  let refused = 0;
  for (const [label, change] of CASES) {
    const tool = structuredClone(base());
    change(tool);
    const sdk = sdkAccepts(tool);
    if (!sdk) refused++;
    const ours = check.problems(tool as never);
    assert.is(
      ours.length === 0,
      sdk,
      `${label}: SDK ${sdk ? "accepts" : "refuses"}, the check says ${JSON.stringify(ours)}`,
    );
  }
  // The cases cover both verdicts.
  assert.ok(refused > 10 && refused < CASES.length - 10, `${refused} of ${CASES.length} refused`);
});

/** Values a mutation puts somewhere in a tool (schemas, non-schemas, wrong types). */
const VALUES: unknown[] = [
  true,
  false,
  null,
  0,
  "object",
  "string",
  "array",
  "file",
  [],
  ["a"],
  [1],
  {},
  { type: "string" },
  { type: "integer", minimum: 1 },
  { pattern: "[" },
  { pattern: "^x$" },
  { format: "uuid" },
  { format: "nonsense" },
  { $ref: "#/nope" },
  { enum: [] },
  { enum: [1, "a"] },
  { type: "array", items: [{ type: "string" }] },
  { anyOf: [] },
  { anyOf: [{ type: "null" }, false] },
  { required: ["x", "x"] },
  { additionalProperties: false },
  { properties: { x: false } },
];

/** Every object inside a value, with a path to it (for picking a place to mutate). */
function places(node: unknown, at: string[] = []): Array<{ at: string[]; node: Obj }> {
  if (node === null || typeof node !== "object") return [];
  const here = Array.isArray(node) ? [] : [{ at, node: node as Obj }];
  return [...here, ...Object.entries(node as Obj).flatMap(([key, value]) => places(value, [...at, key]))];
}

test("the check agrees with the SDK on 600 seeded mutations of a planned tool", () => {
  const prng = new Prng(36);
  const check = new ListingCheck();
  let refused = 0;
  for (let round = 0; round < 600; round++) {
    const tool = structuredClone(base());
    for (let n = prng.int(1, 3); n > 0; n--) {
      const target = prng.pick(places(tool));
      const key = prng.chance(0.5)
        ? prng.pick([
            "type",
            "properties",
            "required",
            "items",
            "anyOf",
            "enum",
            "pattern",
            "x",
            "title",
            "readOnlyHint",
          ])
        : prng.pick(Object.keys(target.node).concat("extra"));
      target.node[key] = structuredClone(prng.pick(VALUES));
    }
    const sdk = sdkAccepts(tool);
    if (!sdk) refused++;
    const ours = check.problems(tool as never);
    assert.is(
      ours.length === 0,
      sdk,
      `round ${round}: SDK ${sdk ? "accepts" : "refuses"} ${JSON.stringify(tool)}; the check says ${JSON.stringify(ours)}`,
    );
  }
  // Both verdicts occur often enough for the agreement to mean something.
  assert.ok(refused > 100 && refused < 500, `${refused} of 600 refused`);
});

test("one tool with a boolean argument schema makes the SDK client refuse the whole list", async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const good = base();
  const bad = {
    ...base(),
    name: "postThing",
    inputSchema: { type: "object", properties: { additionalProperties: false } },
  };
  serverSide.onmessage = (message: JSONRPCMessage) => {
    const request = message as { id?: number; method?: string };
    if (request.id === undefined) return;
    const result =
      request.method === "initialize"
        ? { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } }
        : { tools: [good, bad] };
    void serverSide.send({ jsonrpc: "2.0", id: request.id, result } as JSONRPCMessage);
  };
  await serverSide.start();
  const client = new Client({ name: "c", version: "1" });
  await client.connect(clientSide);
  let error: unknown;
  await client.listTools().catch((e: unknown) => (error = e));
  assert.ok(error, "the SDK client refused the list");
  assert.equal(new ListingCheck().problems(bad as never), [
    'inputSchema.properties["additionalProperties"] is false, not a schema object',
  ]);
  assert.equal(new ListingCheck().problems(good as never), []);
  await client.close();
});

test("planning: a tool the SDK would refuse keeps its call without the output schema, or is left out (MG117)", () => {
  // An invalid type (`int`) survives into the compacted output schema, which ajv cannot compile.
  const bad = operation({
    operationId: "getCount",
    responses: [jsonResponse("200", { type: "object", properties: { n: { type: "int" } } })],
  });
  const good = operation({
    pointer: "#/paths/~1ok/get",
    path: "/ok",
    operationId: "getOk",
    responses: [jsonResponse("200", { type: "object", properties: { n: { type: "integer" } } })],
  });
  const bag = new DiagnosticBag();
  const plan = planProject(api([bad, good]), {}, bag);
  assert.equal(
    plan.tools.map((tool) => [tool.name, tool.outputSchema !== undefined]),
    [
      ["getCount", false],
      ["getOk", true],
    ],
  );
  const count = plan.tools[0]!;
  assert.is(count.outputDetail, undefined);
  assert.equal(count.http.response, { accept: ["application/json"] });
  const warning = bag.items.find((d) => d.code === "MG117")!;
  assert.is(warning.severity, "warning");
  assert.is(warning.pointer, bad.pointer);
  assert.match(warning.message, /listed without its output schema.*does not compile/);
  // Any other problem leaves the tool out.
  const left = new DiagnosticBag();
  const kept = listable([{ ...plan.tools[1]!, title: 7 as never }, plan.tools[1]!], left);
  assert.is(kept.length, 1);
  assert.match(left.items[0]!.message, /Tool "getOk" is left out: .*title is not a string/);
});

test.run();
