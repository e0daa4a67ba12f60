import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { dataToolSource, loadTools } from "../../runtime/src/data/tool-data.js";
import { rangedToolSource } from "../../runtime/src/features/large-data/ranged-tools.js";
import { jsonLines, storeTools, toolDataFiles, catalogOf } from "../../generator/pipeline/emit/data/data-files.js";
import { buildSearchIndex, searchDocument } from "../../runtime/src/features/search/search-build.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { info, sampleTools } from "../support/runtime-fixture.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { featureSurfaces, apiFeatures } from "../support/factories.js";

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
const TOOLS = [
  tool("one", { A, B }),
  tool("two", { A, B: B_BARE }),
  tool("three"),
  tool("four", { A: { ...A }, B: { ...B } }),
];

test("stored once per distinct body: a name with two bodies keeps both, each tool its own", () => {
  const { tools, definitions } = storeTools(TOOLS);
  assert.equal(definitions, [A, B, B_BARE]);
  assert.equal(
    tools.map((t) => t.defs),
    [{ A: 0, B: 1 }, { A: 0, B: 2 }, undefined, { A: 0, B: 1 }],
  );
  assert.ok(tools.every((t) => !("$defs" in t.inputSchema)));
  assert.equal(Object.keys(tools[0]!), ["name", "description", "inputSchema", "defs", "http"]);
  assert.ok("$defs" in TOOLS[0]!.inputSchema, "the tools given are left as they were");
});

test("loading gives back the planned definitions, byte for byte, with shared objects", () => {
  const stored = storeTools(TOOLS);
  const loaded = loadTools(JSON.parse(JSON.stringify(stored.tools)), JSON.parse(JSON.stringify(stored.definitions)));
  assert.is(JSON.stringify(loaded), JSON.stringify(TOOLS));
  const first = loaded[0]!.inputSchema as unknown as { $defs: Record<string, unknown> };
  const last = loaded[3]!.inputSchema as unknown as { $defs: Record<string, unknown> };
  assert.ok(first.$defs.A === last.$defs.A, "one object for one body");
  assert.equal(
    loadTools(JSON.parse(JSON.stringify(TOOLS.slice(2, 3)))),
    TOOLS.slice(2, 3),
    "a project without definitions",
  );
});

test("a tool that names a missing definition is an error naming the tool", () => {
  const { tools } = storeTools(TOOLS);
  assert.throws(() => loadTools(tools, [A]), /tool one: \$defs\/B names definition 1/);
});

test("a lazy server answers initialize and search_operations from names and index; the definitions load once, on describe", async () => {
  const tools = sampleTools();
  let loads = 0;
  const index = JSON.stringify(buildSearchIndex(tools.map(searchDocument)));
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: { names: tools.map((tool) => tool.name), load: () => (loads++, tools) },
    upstream: { baseUrl: "http://127.0.0.1:9" },
    surface: "search",
    surfaces: featureSurfaces(),
    readData: (file) => (file === "search-index.json" ? index : undefined),
  });
  const call = (id: number, name: string, args: Record<string, unknown>) =>
    server.dispatch({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
  await server.dispatch({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  const listed = (await server.dispatch({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} })) as unknown as {
    result: { tools: Array<{ name: string; description: string }> };
  };
  assert.match(listed.result.tools[0]!.description, `(${tools.length} operations)`);
  const found = (await call(3, "search_operations", { query: "pet" })) as unknown as {
    result: { structuredContent: { results: Array<{ name: string }> } };
  };
  assert.ok(found.result.structuredContent.results.length > 0);
  assert.is(loads, 0, "nothing loaded before a schema is needed");
  const described = (await call(4, "describe_operation", {
    name: found.result.structuredContent.results[0]!.name,
  })) as unknown as { result: { structuredContent: { inputSchema: unknown } } };
  assert.ok(described.result.structuredContent.inputSchema);
  await call(5, "describe_operation", { name: tools[0]!.name });
  assert.is(loads, 1, "loaded once");
  // With a reader of single definitions, describing reads that one and loads nothing else.
  const got: string[] = [];
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const single = new McpServer({
    ...apiFeatures,
    info,
    tools: {
      names: tools.map((tool) => tool.name),
      load: () => (loads++, tools),
      get: (name) => (got.push(name), byName.get(name)),
    },
    upstream: { baseUrl: "http://127.0.0.1:9" },
    surface: "search",
    surfaces: featureSurfaces(),
    readData: (file) => (file === "search-index.json" ? index : undefined),
  });
  const described2 = (await single.dispatch({
    jsonrpc: "2.0",
    id: 6,
    method: "tools/call",
    params: { name: "describe_operation", arguments: { name: tools[1]!.name } },
  })) as unknown as { result: { structuredContent: { name: string } } };
  assert.is(described2.result.structuredContent.name, tools[1]!.name);
  assert.equal(got, [tools[1]!.name]);
  assert.is(loads, 1, "nothing more loaded");
});

test("the core's data tool source reads the names at start and the other files whole when first needed, without offsets files", () => {
  const wide = [...TOOLS, { ...tool("five", { B }), description: "Grüße, 世界" } as ToolDefinition];
  const files = toolDataFiles(storeTools(wide));
  const dir = mkdtempSync(join(tmpdir(), "tool-data-"));
  writeFileSync(join(dir, "tool-names.json"), JSON.stringify(wide.map((t) => t.name)));
  const source = dataToolSource(pathToFileURL(dir));
  assert.equal([source.indexOf("four"), source.indexOf("nine")], [3, -1]);
  assert.throws(() => source.get("one"), /data\/tools.json is missing \(regenerate the server\)/);
  writeFileSync(join(dir, "catalog.json"), JSON.stringify(catalogOf(wide)));
  writeFileSync(join(dir, "tools.json"), files.tools);
  writeFileSync(join(dir, "definitions.json"), files.definitions);
  assert.is(source.catalog().length, 5);
  assert.is(JSON.stringify(source.get("five")), JSON.stringify(wide[4]));
  assert.is(source.get("two"), source.load()[1], "one parse serves single tools and the whole list");
  assert.is(source.get("nine"), undefined);
  rmSync(dir, { recursive: true, force: true });
});

test("a ranged tool source (feature large-data) reads the names at start, one tool and its definitions by their byte ranges, all of them on load; offsets that disagree are an error", async () => {
  const wide = [...TOOLS, { ...tool("five", { B }), description: "Grüße, 世界" } as ToolDefinition];
  const stored = storeTools(wide);
  const files = toolDataFiles(stored);
  assert.equal(
    JSON.parse(files.tools),
    JSON.parse(JSON.stringify(stored.tools)),
    "non-ASCII written as escapes, same value",
  );
  assert.equal(JSON.parse(files.definitions), stored.definitions);
  assert.is(files.toolOffsets.split("\n").length, wide.length + 1, "one fixed-width line per tool");
  const dir = mkdtempSync(join(tmpdir(), "tool-data-"));
  writeFileSync(join(dir, "tool-names.json"), JSON.stringify(wide.map((t) => t.name)));
  // Only the names are read at start: the other files may not even exist yet.
  const source = rangedToolSource(dir);
  assert.equal(source.names, ["one", "two", "three", "four", "five"]);
  assert.equal([source.indexOf("four"), source.indexOf("nine")], [3, -1]);
  writeFileSync(join(dir, "catalog.json"), JSON.stringify(catalogOf(wide)));
  writeFileSync(join(dir, "tool-offsets.txt"), files.toolOffsets);
  writeFileSync(join(dir, "definition-offsets.txt"), files.definitionOffsets);
  writeFileSync(join(dir, "tools.json"), files.tools);
  writeFileSync(join(dir, "definitions.json"), files.definitions);
  assert.equal(
    source.catalog().map(([name, method, path]) => `${name} ${method} ${path}`),
    ["one get /one", "two get /two", "three get /three", "four get /four", "five get /five"],
  );
  // Single tools come back without the whole files: they are not even readable now.
  writeFileSync(join(dir, "tools.json"), files.tools.replace(/^\[/, "!"));
  writeFileSync(join(dir, "definitions.json"), files.definitions.replace(/^\[/, "!"));
  assert.is(JSON.stringify(source.get("five")), JSON.stringify(wide[4]));
  assert.is(JSON.stringify(source.get("two")), JSON.stringify(wide[1]));
  assert.is(JSON.stringify(source.get("one")), JSON.stringify(wide[0]));
  const defsOf = (name: string) =>
    (source.get(name)!.inputSchema as unknown as { $defs: Record<string, unknown> }).$defs;
  assert.is(defsOf("one").A, defsOf("two").A, "a definition read once is shared");
  assert.is(source.get("two"), source.get("two"), "kept once read");
  assert.is(source.get("nine"), undefined);
  for (let i = 0; i < 70; i++) assert.is(source.get(`missing${i}`), undefined);
  assert.is(
    JSON.stringify(source.get("four")),
    JSON.stringify(wide[3]),
    "found through the map of names built after many look-ups",
  );
  writeFileSync(join(dir, "tools.json"), files.tools);
  writeFileSync(join(dir, "definitions.json"), files.definitions);
  assert.is(JSON.stringify(source.load()), JSON.stringify(wide));
  const lines = files.toolOffsets.split("\n");
  writeFileSync(join(dir, "tool-offsets.txt"), [lines[1], ...lines.slice(1)].join("\n"));
  assert.throws(
    () => rangedToolSource(pathToFileURL(dir)).get("one"),
    /does not hold tool one where data\/tool-offsets.txt says/,
  );
  writeFileSync(join(dir, "tool-offsets.txt"), lines.slice(0, 2).join("\n") + "\n");
  assert.throws(() => rangedToolSource(dir).get("four"), /no line for tool four/);
  writeFileSync(join(dir, "tool-offsets.txt"), files.toolOffsets.replace(/^0/, "x"));
  assert.throws(() => rangedToolSource(dir).get("one"), /record 0 of an offsets file is damaged/);
  assert.equal(jsonLines([]).text, "[\n]\n");
  rmSync(dir, { recursive: true, force: true });
  const logged: string[] = [];
  const log = (message: string, fields?: Record<string, unknown>) =>
    void logged.push(`${message} ${JSON.stringify(fields ?? {})}`);
  const logger = { debug: log, info: log, warn: log, error: log };
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: { names: ["one", "other"], load: () => wide.slice(0, 2) },
    upstream: {},
    logger,
  });
  const answer = (await server.dispatch({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })) as unknown as {
    error?: { code: number };
  };
  assert.is(answer.error?.code, -32603, "a local fault, not the client's");
  assert.match(logged.join("\n"), /do not match the catalog \(other\)/);
});

test.run();
