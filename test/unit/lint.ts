import { test } from "uvu";
import * as assert from "uvu/assert";
import { hasBlockingFindings, lintServer, type ServerTools } from "../../generator/commands/lint/lint-server.js";
import { lintTools } from "../../generator/commands/lint/lint-tools.js";
import { clientProfiles, selectProfiles, type ClientProfile } from "../../generator/shared/profiles.js";
import { schemaShape } from "../../generator/commands/lint/schema-shape.js";
import type { ListedTool } from "../../runtime/src/api/mcp-types.js";

const tool = (
  name: string,
  inputSchema: ListedTool["inputSchema"] = {
    type: "object",
    properties: { id: { type: "string" } },
    required: ["id"],
    additionalProperties: false,
  },
): ListedTool => ({ name, description: `Does ${name}.`, inputSchema });
const tools = (count: number): ListedTool[] =>
  Array.from({ length: count }, (_, i) => tool(`op_${String(i).padStart(4, "0")}`));
const profile = (id: string): ClientProfile => selectProfiles(id)[0]!;
const rules = (server: { serverName: string; tools: ListedTool[] }, id: string, strictSchemas = false) =>
  lintTools(server, profile(id), { strictSchemas }).map((f) => `${f.effect}:${f.rule}:${f.tools.length}`);

test("profiles: one data file per client, each with sources", () => {
  const ids = clientProfiles().map((p) => p.id);
  assert.equal(ids, ["claude-code", "claude-desktop", "cursor", "gemini", "openai", "vscode"]);
  for (const p of clientProfiles()) assert.ok(p.sources.length > 0 && p.checked, p.id);
  assert.is(selectProfiles("all").length, 6);
  assert.throws(() => selectProfiles("netscape"), /--client must be all or one of claude-code, claude-desktop/);
});

test("tool count: Cursor drops what follows the first 40; VS Code, OpenAI and Gemini refuse the request", () => {
  assert.equal(rules({ serverName: "s", tools: tools(40) }, "cursor"), []);
  const cursor = lintTools({ serverName: "s", tools: tools(41) }, profile("cursor"));
  assert.equal(
    cursor.map((f) => f.rule),
    ["max-tools"],
  );
  assert.equal(cursor[0]!.tools, ["op_0040"], "the 41st tool is the one dropped");
  assert.equal(rules({ serverName: "s", tools: tools(128) }, "vscode"), []);
  assert.equal(rules({ serverName: "s", tools: tools(129) }, "vscode"), ["reject:max-tools:129"]);
  assert.equal(rules({ serverName: "s", tools: tools(129) }, "openai"), ["reject:max-tools:129"]);
  assert.equal(rules({ serverName: "s", tools: tools(512) }, "gemini"), []);
  assert.equal(rules({ serverName: "s", tools: tools(513) }, "gemini"), ["reject:max-tools:513"]);
});

test("names: server + separator + tool within the client's limit; each client's name pattern", () => {
  const name = "x".repeat(49);
  // 10 + 1 + 49 = 60: within Cursor's 60; one more character is not.
  assert.equal(rules({ serverName: "s".repeat(10), tools: [tool(name)] }, "cursor"), []);
  assert.equal(rules({ serverName: "s".repeat(11), tools: [tool(name)] }, "cursor"), ["drop:qualified-name:1"]);
  assert.equal(
    rules({ serverName: "s", tools: [tool("547636a6f9")] }, "gemini"),
    ["reject:name-pattern:1"],
    "Gemini names start with a letter or _",
  );
  assert.equal(rules({ serverName: "s", tools: [tool("547636a6f9")] }, "openai"), [], "OpenAI takes a leading digit");
  assert.equal(rules({ serverName: "s", tools: [tool("repos.get")] }, "openai"), ["reject:name-pattern:1"]);
  assert.equal(rules({ serverName: "s", tools: [tool("repos.get")] }, "gemini"), [], "Gemini takes dots");
});

test("token footprint: Claude Code defers a list over 10% of its context (not a failure)", () => {
  const big = tool("big", { type: "object", properties: { q: { type: "string", description: "x".repeat(90_000) } } });
  const findings = lintTools({ serverName: "s", tools: [big] }, profile("claude-code"));
  assert.equal(
    findings.map((f) => `${f.effect}:${f.rule}`),
    ["defer:list-tokens"],
  );
  assert.match(findings[0]!.message, /~22,5\d\d tokens \(over 20,000\)/);
});

test("schemas: depth for Gemini; strict mode's shape for OpenAI only when asked", () => {
  let nested: ListedTool["inputSchema"] = {
    type: "object",
    properties: { leaf: { type: "string" } },
    required: ["leaf"],
    additionalProperties: false,
  };
  for (let i = 0; i < 10; i++)
    nested = { type: "object", properties: { child: nested }, required: ["child"], additionalProperties: false };
  assert.is(schemaShape(nested).depth, 12);
  assert.equal(rules({ serverName: "s", tools: [tool("deep", nested)] }, "gemini"), ["reject:schema-depth:1"]);
  assert.equal(rules({ serverName: "s", tools: [tool("flat")] }, "gemini"), []);
  const loose = tool("loose", {
    type: "object",
    properties: { a: { type: "string" }, b: { allOf: [{ type: "string" }] } },
    required: ["a"],
  });
  assert.equal(rules({ serverName: "s", tools: [loose] }, "openai"), [], "strict mode is opt-in");
  const strict = lintTools({ serverName: "s", tools: [loose, tool("closed")] }, profile("openai"), {
    strictSchemas: true,
  });
  assert.equal(
    strict.map((f) => f.tools),
    [["loose"]],
  );
  assert.match(
    strict[0]!.message,
    /uses allOf \(1\), optional properties \(1\), objects without additionalProperties: false \(1\)/,
  );
  const shape = schemaShape({
    type: "object",
    properties: { e: { enum: [1, 2, 3] } },
    $defs: { D: { type: "object", properties: { f: { type: "string" } } } },
  });
  assert.equal([shape.properties, shape.enumValues, shape.depth], [2, 3, 2]);
});

test("surfaces: a large API on auto lists the three search tools, which every client takes", () => {
  const server: ServerTools = {
    packageName: "@acme/big-api-mcp",
    title: "Big",
    operations: tools(300),
    features: ["clients", "search"],
  };
  const all = lintServer(server, "all", clientProfiles());
  assert.is(all.server, "big-api-mcp", "the key --print-config writes");
  assert.is(all.tools, 300);
  assert.ok(hasBlockingFindings(all));
  const auto = lintServer(server, "auto", clientProfiles());
  assert.is(auto.surface, "search");
  assert.is(auto.tools, 3);
  assert.not.ok(hasBlockingFindings(auto));
  assert.equal(
    auto.profiles.flatMap((p) => p.findings.filter((f) => f.effect !== "adapted")),
    [],
  );
  // Each client's own auto budget, as the generated server decides it: Gemini takes 512 tools.
  assert.equal(Object.fromEntries(auto.profiles.map((p) => [p.id, `${p.surface}:${p.tools}`])), {
    "claude-code": "search:3",
    "claude-desktop": "search:3",
    cursor: "search:3",
    gemini: "all:300",
    openai: "search:3",
    vscode: "search:3",
  });
  // A long configuration key costs even the three tools on Cursor, as listed...
  const listed = lintServer(server, "auto", selectProfiles("cursor"), { serverName: "k".repeat(45), adapt: false });
  assert.equal(
    listed.profiles[0]!.findings.map((f) => `${f.effect}:${f.tools.join(",")}`),
    ["drop:search_operations,describe_operation"],
  );
  assert.ok(hasBlockingFindings(listed));
  // ...but the generated server serves Cursor those two names rewritten within its 60 characters.
  const served = lintServer(server, "auto", selectProfiles("cursor"), { serverName: "k".repeat(45) });
  assert.equal(
    served.profiles[0]!.findings.map((f) => `${f.effect}:${f.rule}:${f.tools.join(",")}`),
    ["adapted:served-names:search_operations,describe_operation"],
  );
  assert.not.ok(hasBlockingFindings(served));
});

test("features: without clients every client is served what the server lists; without search, auto serves all", () => {
  const server: ServerTools = { packageName: "big-mcp", title: "Big", operations: tools(300), features: ["search"] };
  const auto = lintServer(server, "auto", clientProfiles());
  assert.not.ok(auto.adapts);
  assert.equal(
    auto.profiles.map((p) => `${p.id}:${p.surface}`),
    auto.profiles.map((p) => `${p.id}:search`),
    "gemini too: no client profile applies",
  );
  const noSearch = lintServer({ ...server, features: [] }, "auto", clientProfiles());
  assert.is(noSearch.surface, "all");
  assert.match(noSearch.reason, /no search feature/);
});

test.run();
