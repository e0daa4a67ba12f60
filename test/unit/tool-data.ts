import { test } from "uvu";
import * as assert from "uvu/assert";
import { loadTools, parseTools, storeTools } from "../../runtime/src/tool-data.js";
import type { ToolDefinition } from "../../runtime/src/types.js";

const tool = (name: string, $defs?: Record<string, unknown>): ToolDefinition =>
  ({
    name,
    description: `${name} things`,
    inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/A" } }, ...($defs ? { $defs } : {}) },
    http: { method: "get", path: `/${name}`, parameters: [], response: { accept: [] } },
  }) as unknown as ToolDefinition;

const A = { type: "object", properties: { b: { $ref: "#/$defs/B" } } };
const B = { type: "string", description: "a B" };
const B_BARE = { type: "string" };
const TOOLS = [tool("one", { A, B }), tool("two", { A, B: B_BARE }), tool("three"), tool("four", { A: { ...A }, B: { ...B } })];

test("stored once per distinct body: a name with two bodies keeps both, each tool its own", () => {
  const { tools, definitions } = storeTools(TOOLS);
  assert.equal(definitions, [A, B, B_BARE]);
  assert.equal(tools.map((t) => t.defs), [{ A: 0, B: 1 }, { A: 0, B: 2 }, undefined, { A: 0, B: 1 }]);
  assert.ok(tools.every((t) => !("$defs" in t.inputSchema)));
  assert.equal(Object.keys(tools[0]!), ["name", "description", "inputSchema", "defs", "http"]);
  assert.ok("$defs" in TOOLS[0]!.inputSchema, "the tools given are left as they were");
});

test("loading gives back the planned definitions, byte for byte, with shared objects", () => {
  const stored = storeTools(TOOLS);
  const text = JSON.stringify(stored.tools);
  const loaded = parseTools(text, JSON.stringify(stored.definitions));
  assert.is(JSON.stringify(loaded), JSON.stringify(TOOLS));
  const first = loaded[0]!.inputSchema as unknown as { $defs: Record<string, unknown> };
  const last = loaded[3]!.inputSchema as unknown as { $defs: Record<string, unknown> };
  assert.ok(first.$defs.A === last.$defs.A, "one object for one body");
  assert.equal(parseTools(JSON.stringify(TOOLS.slice(2, 3))), TOOLS.slice(2, 3), "a project without definitions");
});

test("a tool that names a missing definition is an error naming the tool", () => {
  const { tools } = storeTools(TOOLS);
  assert.throws(() => loadTools(tools, [A]), /tool one: \$defs\/B names definition 1/);
});

test.run();
