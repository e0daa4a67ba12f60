/** The tool surface chosen per HTTP connection (`?toolsets=…&read_only=1&surface=…`, `Mcp-*` headers). */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpServer, type McpServerOptions } from "../../runtime/src/server/server.js";
import { startHttp, type HttpHandle, type HttpOptions } from "../../runtime/src/transport/http.js";
import { readToolChoice } from "../../runtime/src/features/toolsets/connection-choice.js";
import { toolsets } from "../../runtime/src/features/toolsets/index.js";
import { httpSessions } from "../../runtime/src/features/sessions/index.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";
import { info, sampleTools } from "../support/runtime-fixture.js";
import { apiFeatures, featureSurfaces } from "../support/factories.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { clients } from "../../runtime/src/features/clients/index.js";
import type { FeaturePlugs } from "../../runtime/src/cli/features.js";
import { silentLogger } from "../../runtime/src/protocol/logger.js";
import { runtimeProfiles } from "../../generator/shared/profiles.js";

const TAGS: Record<string, string[]> = { getPet: ["pets"], listPets: ["Pets", "store"], createPet: ["store"] };

/** The sample tools (getPet, listPets, slow: GET; createPet: POST; one DELETE), tagged pets / store. */
function tools(): ToolDefinition[] {
  return sampleTools().map((tool) => (TAGS[tool.name] ? { ...tool, tags: TAGS[tool.name] } : tool));
}

/** The slot feature toolsets fills, as `main` plugs it (no process filter). */
const { connectionChoices } = await toolsets.plugs({ flags: {}, env: {}, info, http: true, logger: silentLogger });

const servers: HttpHandle[] = [];
async function serve(options: Partial<McpServerOptions> = {}, http: Partial<HttpOptions> = {}): Promise<HttpHandle> {
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: tools(),
    upstream: { baseUrl: "http://127.0.0.1:1", timeoutMs: 2000 },
    surfaces: featureSurfaces(),
    connectionChoices,
    ...options,
  });
  const handle = await startHttp(server, { host: "127.0.0.1", port: 0, ...http });
  servers.push(handle);
  return handle;
}
test.after(async () => {
  for (const handle of servers) await handle.close();
});

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function listed(url: string, headers: Record<string, string> = {}): Promise<string[]> {
  const { status, body } = await rpc(url, "tools/list", {}, headers);
  assert.is(status, 200, JSON.stringify(body));
  return (body.result.tools as { name: string }[]).map((tool) => tool.name);
}

test("two clients at once, each with its own choice, see different lists; a bare URL sees every tool", async () => {
  const http = await serve();
  const [pets, readOnly, both, header, all] = await Promise.all([
    listed(`${http.url}?toolsets=pets`),
    listed(`${http.url}?read_only=1`),
    listed(`${http.url}?toolsets=store&read_only=true`),
    listed(http.url, { "mcp-toolsets": "store" }),
    listed(http.url),
  ]);
  assert.equal(pets, ["getPet", "listPets"]);
  assert.equal(readOnly, ["getPet", "listPets", "slow"]);
  assert.equal(both, ["listPets"]);
  assert.equal(header, ["listPets", "createPet"]);
  assert.is(all.length, 5);
});

test("without feature toolsets a connection's query and headers choose nothing: every tool is listed and callable", async () => {
  const http = await serve({ connectionChoices: undefined });
  assert.is((await listed(`${http.url}?toolsets=pets&read_only=1`, { "mcp-surface": "nope" })).length, 5);
  const called = await rpc(`${http.url}?toolsets=pets`, "tools/call", { name: "createPet", arguments: { name: "x" } });
  assert.not.match(JSON.stringify(called.body), "outside the tools");
});

test("tools/call of an operation outside the choice is refused; inside it goes upstream", async () => {
  const http = await serve();
  const refused = await rpc(`${http.url}?toolsets=pets`, "tools/call", { name: "createPet", arguments: { name: "x" } });
  assert.is(refused.body.result.isError, true);
  assert.match(refused.body.result.content[0].text, "outside the tools this connection chose");
  const allowed = await rpc(`${http.url}?toolsets=pets`, "tools/call", { name: "getPet", arguments: { petId: 1 } });
  assert.not.match(JSON.stringify(allowed.body), "outside the tools");
});

test("surface=search lists the meta tools; search and call_operation keep to the choice", async () => {
  const http = await serve();
  const url = `${http.url}?surface=search&toolsets=pets`;
  assert.equal(await listed(url), ["search_operations", "describe_operation", "call_operation"]);
  const found = await rpc(url, "tools/call", { name: "search_operations", arguments: { query: "create a pet" } });
  const names = (found.body.result.structuredContent.results as { name: string }[]).map((r) => r.name);
  assert.ok(names.length > 0 && !names.includes("createPet"), JSON.stringify(names));
  const call = await rpc(url, "tools/call", {
    name: "call_operation",
    arguments: { name: "createPet", arguments: {} },
  });
  assert.is(call.body.result.isError, true, JSON.stringify(call.body));
  const code = await listed(`${http.url}?surface=code`);
  assert.ok(code.includes("execute_code") && !code.includes("getPet"), JSON.stringify(code));
});

test("a connection cannot widen: a toolset or surface the process does not serve is 400; read_only=0 keeps the ceiling", async () => {
  const readOnlyTools = tools().filter((tool) => tool.http.method === "get");
  const http = await serve({ tools: readOnlyTools, surface: "search" });
  const toolset = await rpc(`${http.url}?toolsets=store,admin`, "tools/list");
  assert.is(toolset.status, 400);
  assert.match(toolset.body.error.message, "unknown toolset 'admin': this server serves pets, store");
  const surface = await rpc(`${http.url}?surface=all`, "tools/list");
  assert.is(surface.status, 400);
  assert.match(surface.body.error.message, "surface must be one of search on this server (got 'all')");
  const call = await rpc(`${http.url}?read_only=0`, "tools/call", {
    name: "call_operation",
    arguments: { name: "createPet", arguments: { name: "x" } },
  });
  assert.match(call.body.result.content[0].text, "Unknown operation 'createPet'");
});

test("a malformed choice is 400 naming the valid values", async () => {
  const http = await serve();
  const cases: Array<[string, Record<string, string>, string]> = [
    ["?read_only=maybe", {}, "read_only must be one of 1, 0, true, false, yes, no (got 'maybe')"],
    ["?surface=everything", {}, "surface must be one of all, search, code on this server (got 'everything')"],
    ["?toolsets=nope", {}, "unknown toolset 'nope': this server serves pets, store"],
    ["?toolsets=,", {}, "toolsets must name at least one toolset"],
    ["", { "mcp-read-only": "2" }, "read_only must be one of"],
  ];
  for (const [query, headers, message] of cases) {
    const { status, body } = await rpc(`${http.url}${query}`, "tools/list", {}, headers);
    assert.is(status, 400, query);
    assert.match(body.error.message, message);
  }
});

test("2026-07-28: each request carries its choice; its list is private to it", async () => {
  const http = await serve();
  const modern = (query: string) =>
    rpc(
      `${http.url}${query}`,
      "tools/list",
      { _meta: MODERN_META },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
    );
  const chosen = await modern("?toolsets=pets");
  assert.is(chosen.status, 200, JSON.stringify(chosen.body));
  assert.equal(
    chosen.body.result.tools.map((tool: { name: string }) => tool.name),
    ["getPet", "listPets"],
  );
  assert.is(chosen.body.result.cacheScope, "private");
  const bare = await modern("");
  assert.is(bare.body.result.tools.length, 5);
  assert.is(bare.body.result.cacheScope, "public");
});

test("legacy sessions keep the choice of initialize, across two instances sharing the state store", async () => {
  const store = new MemoryStateStore();
  const first = await serve({}, { sessions: httpSessions(store) });
  const second = await serve({}, { sessions: httpSessions(store) });
  const init = await rpc(`${first.url}?read_only=1&toolsets=pets`, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  });
  const session = init.headers.get("mcp-session-id")!;
  assert.ok(session);
  const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
  assert.equal(await listed(first.url, headers), ["getPet", "listPets"]);
  assert.equal(await listed(second.url, headers), ["getPet", "listPets"]);
  // A later request's own query does not change the session's choice.
  assert.equal(await listed(`${second.url}?toolsets=store`, headers), ["getPet", "listPets"]);
  const bad = await rpc(`${first.url}?surface=nope`, "initialize", { protocolVersion: "2025-06-18", capabilities: {} });
  assert.is(bad.status, 400);
  assert.is(bad.headers.get("mcp-session-id"), null);
});

test("2026-07-28 tools/call on a chosen surface runs its meta tool; a client profile's view keeps to the choice", async () => {
  const profiles = JSON.stringify(runtimeProfiles());
  const plugs = (await clients.plugs({
    flags: { client: "cursor" },
    env: {},
    info,
    http: true,
    logger: silentLogger,
    readData: (file) => (file === "client-profiles.json" ? profiles : undefined),
  })) as FeaturePlugs;
  const http = await serve({ clientViews: plugs.clientViews });
  assert.equal(await listed(`${http.url}?toolsets=pets`), ["getPet", "listPets"]);
  const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_operations" };
  const params = { name: "search_operations", arguments: { query: "pets" }, _meta: MODERN_META };
  const found = await rpc(`${http.url}?surface=search&read_only=1`, "tools/call", params, headers);
  assert.is(found.status, 200, JSON.stringify(found.body));
  const names = (found.body.result.structuredContent.results as { name: string }[]).map((r) => r.name);
  assert.ok(names.includes("listPets") && !names.includes("createPet"), JSON.stringify(names));
});

test("readToolChoice: nothing chosen costs no parsing; query before headers; names lower-cased", () => {
  assert.is(readToolChoice("", {}), undefined);
  assert.is(readToolChoice("?other=1", {}), undefined);
  assert.equal(readToolChoice("?toolsets=Issues,%20Pulls", { "mcp-toolsets": "x" }), { toolsets: ["issues", "pulls"] });
  assert.equal(readToolChoice("", { "mcp-surface": "code", "mcp-read-only": "no" }), {
    readOnly: false,
    surface: "code",
  });
});

test.run();
