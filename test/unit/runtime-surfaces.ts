import { test } from "uvu";
import * as assert from "uvu/assert";
import type { JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import { McpServer, type McpServerOptions } from "../../runtime/src/server/server.js";
import { parseSurface } from "../../runtime/src/server/surfaces.js";
import { AUTO_BUDGET, chooseSurface } from "../../runtime/src/features/search/auto.js";
import { toolsets } from "../../runtime/src/features/toolsets/index.js";
import { defineExtension } from "../../runtime/src/features/custom/define-extension.js";
import { textResult } from "../../runtime/src/api/tool-outcome.js";
import type { ListedTool } from "../../runtime/src/api/mcp-types.js";
import {
  info,
  sampleTools,
  startUpstream,
  type Recorded,
  type Reply,
  type Upstream,
} from "../support/runtime-fixture.js";
import { featureSurfaces, apiFeatures } from "../support/factories.js";
import { MAX_QUERY_CHARS } from "../../runtime/src/features/search/search-index.js";
import { MAX_CODE_CHARS } from "../../runtime/src/features/code/code-mode.js";
import { main } from "../../runtime/src/cli/main.js";
import type { HttpHandle } from "../../runtime/src/transport/http.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { MAX_NAME_CHARS } from "../../runtime/src/features/search/meta-tools.js";
import { MAX_CONCURRENT_CODE_RUNS } from "../../runtime/src/features/code/code-host.js";
import { confirmDestructive } from "../../runtime/src/features/confirm/confirm-gate.js";

let upstream: Upstream;
function route(r: Recorded): Reply {
  const json = { "content-type": "application/json" };
  if (r.url.includes("/pets/42")) return { status: 200, headers: json, body: JSON.stringify({ id: 42, name: "Rex" }) };
  if (r.url.includes("/pets/1") && r.method === "DELETE") return { status: 204 };
  if (r.url.includes("/pets") && r.method === "GET")
    return { status: 200, headers: json, body: JSON.stringify([{ id: 1 }, { id: 2 }]) };
  if (r.url.includes("/pets") && r.method === "POST") return { status: 201, headers: json, body: r.body };
  return { status: 500, body: "unexpected" };
}
test.before(async () => {
  upstream = await startUpstream(route);
});
test.after(async () => {
  await upstream.close();
});

const extension = defineExtension({
  tools: [
    {
      name: "hello",
      description: "Says hello",
      inputSchema: { type: "object" },
      handler: async () => textResult("hi"),
    },
  ],
});

function make(options: Partial<McpServerOptions> = {}): McpServer {
  return new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    extension,
    surfaces: featureSurfaces({
      "code-timeout": "10000",
      "code-memory": "32",
      "code-max-calls": "3",
      "code-max-result": "10000",
    }),
    ...options,
  });
}
function result(response: JsonRpcResponse | undefined): Record<string, any> {
  assert.ok(response && "result" in response, JSON.stringify(response));
  return (response as { result: Record<string, any> }).result;
}
const call = (server: McpServer, name: string, args: unknown, extra: Record<string, unknown> = {}, ctx = {}) =>
  server.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, ...extra } }, ctx);
const names = async (server: McpServer) =>
  (result(await server.handle({ jsonrpc: "2.0", id: 1, method: "tools/list" })).tools as ListedTool[]).map(
    (t) => t.name,
  );

test("search surface lists exactly the three meta tools and the custom tools, in under 10 KB", async () => {
  const server = make({ surface: "search" });
  assert.equal(await names(server), ["search_operations", "describe_operation", "call_operation", "hello"]);
  const listed = result(await server.handle({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  assert.ok(JSON.stringify(listed).length < 10_000);
  assert.equal(
    await names(make()),
    ["getPet", "listPets", "createPet", "slow", "deletePet", "hello"],
    "surface all is unchanged",
  );
});

test("search_operations finds, best first, with the documented result shape; tag and limit apply", async () => {
  const server = make({ surface: "search" });
  // Built from the tools (no data/search-index.json, so no lexicon): the API's own words.
  const found = result(await call(server, "search_operations", { query: "create a pet" }));
  assert.not.ok(found.isError);
  assert.is(found.structuredContent.results[0].name, "createPet");
  assert.equal(Object.keys(found.structuredContent.results[0]).sort(), [
    "method",
    "name",
    "path",
    "required",
    "summary",
  ]);
  assert.equal(JSON.parse(found.content[0].text), found.structuredContent);
  assert.is(
    result(await call(server, "search_operations", { query: "pets", limit: 1 })).structuredContent.results.length,
    1,
  );
  assert.equal(
    result(await call(server, "search_operations", { query: "pets", tag: "nope" })).structuredContent.results,
    [],
  );
  const invalid = result(await call(server, "search_operations", { query: "pets", limit: 501 }));
  assert.ok(invalid.isError, "limit above 500 is refused by validation");
});

test("search_operations returns 10 results by default", async () => {
  const [base] = sampleTools();
  const tools = Array.from({ length: 14 }, (_, i) => ({ ...base!, name: `listPets${i}`, title: `List pets ${i}` }));
  const server = make({ surface: "search", tools });
  const found = result(await call(server, "search_operations", { query: "list pets" })).structuredContent.results;
  assert.is(found.length, 10);
});

test("search_operations browses: without a query the tags with their counts, with only a tag its operations", async () => {
  const tools = sampleTools().map((t) => ({ ...t, tags: [t.http.method === "get" ? "reading" : "writing"] }));
  const server = make({ surface: "search", tools });
  const tags = result(await call(server, "search_operations", {})).structuredContent;
  assert.equal(tags.results, []);
  assert.equal(tags.tags.map((t: { tag: string }) => t.tag).sort(), ["reading", "writing"]);
  for (const { tag, operations } of tags.tags) {
    const listed = result(await call(server, "search_operations", { tag })).structuredContent.results;
    assert.is(listed.length, operations);
    assert.equal(
      listed.map((hit: { name: string }) => hit.name),
      tools.filter((t) => t.tags.includes(tag)).map((t) => t.name),
    );
  }
});

test("browsing a tag lists all its operations in one call, for tags as large as real APIs have (300)", async () => {
  const [base] = sampleTools();
  const tools = Array.from({ length: 300 }, (_, i) => ({ ...base!, name: `getPet${i}`, tags: ["pets"] }));
  const server = make({ surface: "search", tools });
  const [pets] = result(await call(server, "search_operations", {})).structuredContent.tags;
  assert.equal(pets, { tag: "pets", operations: 300 });
  const listed = result(await call(server, "search_operations", { tag: "pets" })).structuredContent.results;
  assert.equal(
    listed.map((hit: { name: string }) => hit.name),
    tools.map((t) => t.name),
  );
});

test("search_operations reads data/search-index.json when the server has it, ahead of the first search", async () => {
  const read: string[] = [];
  const index = JSON.stringify({
    format: 5,
    k1: 1.2,
    docs: [JSON.stringify(["getPet", "GET", "/pets/{petId}", "From the file", [], ["petId"], ["pet"]])],
    // Doc 0, weighted tf 300, in base 36 (postings.ts).
    terms: { zebra: "0,8c" },
  });
  const server = make({
    surface: "search",
    readData: (file) => (read.push(file), file === "search-index.json" ? index : undefined),
  });
  assert.equal(read, [], "nothing is read while the server is made");
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(read, ["search-index.json"], "read once the server is up, before the first search");
  const hits = result(await call(server, "search_operations", { query: "zebra" })).structuredContent.results;
  assert.equal(
    hits.map((h: { name: string; summary: string }) => [h.name, h.summary]),
    [["getPet", "From the file"]],
  );
  await call(server, "search_operations", { query: "zebra" });
  assert.equal(read, ["search-index.json"], "read once");
});

test("describe_operation: method, path, schemas; signature only when declarations.json has one", async () => {
  const plain = result(await call(make({ surface: "search" }), "describe_operation", { name: "getPet" }));
  assert.equal(plain.structuredContent, {
    name: "getPet",
    method: "GET",
    path: "/pets/{petId}",
    description: "Get a pet",
    inputSchema: sampleTools()[0]!.inputSchema,
    outputSchema: sampleTools()[0]!.outputSchema,
  });
  const declarations = JSON.stringify({
    getPet: "/** Get a pet */\ngetPet(args: GetPetInput): Promise<GetPetOutput>;",
  });
  const typed = result(
    await call(
      make({ surface: "search", readData: (f) => (f === "declarations.json" ? declarations : undefined) }),
      "describe_operation",
      { name: "getPet" },
    ),
  );
  assert.match(typed.structuredContent.signature, "getPet(args: GetPetInput)");
  const unknown = result(await call(make({ surface: "search" }), "describe_operation", { name: "nope" }));
  assert.ok(unknown.isError);
  assert.match(unknown.content[0].text, "search_operations");
});

test("call_operation returns exactly what the operation's own tool returns (success, upstream error, invalid arguments)", async () => {
  const direct = make();
  const meta = make({ surface: "search" });
  const outcomes: string[] = [];
  for (const [name, args] of [
    ["getPet", { petId: 42 }],
    ["listPets", {}],
    ["getPet", { petId: "not a number" }],
    ["createPet", { name: "Tom" }],
  ] as const) {
    const expected = result(await call(direct, name, args));
    const viaMeta = result(await call(meta, "call_operation", { name, arguments: args }));
    assert.equal(viaMeta, expected, `${name} ${JSON.stringify(args)}`);
    outcomes.push(expected.isError ? `error: ${expected.content[0].text.slice(0, 30)}` : "ok");
  }
  assert.equal(
    outcomes.map((o) => o.slice(0, 5)),
    ["ok", "ok", "error", "ok"],
    outcomes.join(" | "),
  );
  assert.is(
    result(await call(meta, "call_operation", { name: "getPet", arguments: { petId: 42 } })).structuredContent.name,
    "Rex",
  );
});

test("call_operation: unknown names are refused; operation tools are not callable directly on the search surface", async () => {
  const server = make({ surface: "search" });
  const unknown = result(await call(server, "call_operation", { name: "nope", arguments: {} }));
  assert.ok(unknown.isError);
  const missingArgs = result(await call(server, "call_operation", { name: "getPet" }));
  assert.ok(missingArgs.isError, "arguments is required");
  const direct = await call(server, "getPet", { petId: 42 });
  assert.is((direct as { error: { code: number } }).error.code, -32602);
  assert.is(result(await call(server, "hello", {})).content[0].text, "hi", "custom tools stay callable");
});

test("filtered operations: search never finds them, describe and call refuse them", async () => {
  const server = make({ surface: "search", tools: sampleTools().filter((t) => t.name !== "deletePet") });
  const hits = result(
    await call(server, "search_operations", { query: "delete remove pet" }),
  ).structuredContent.results.map((h: { name: string }) => h.name);
  assert.not.ok(hits.includes("deletePet"));
  assert.ok(result(await call(server, "describe_operation", { name: "deletePet" })).isError);
  const before = upstream.received.length;
  assert.ok(result(await call(server, "call_operation", { name: "deletePet", arguments: {} })).isError);
  assert.is(upstream.received.length, before, "nothing reached the upstream");
});

test("call_operation goes through confirmation of destructive operations (modern MRTR round trip)", async () => {
  const tools = sampleTools();
  tools.find((t) => t.name === "deletePet")!.annotations = { destructiveHint: true };
  const server = make({ surface: "search", tools, gate: confirmDestructive });
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  };
  const deletes = () => upstream.received.filter((r) => r.method === "DELETE").length;
  const before = deletes();
  const first = result(await call(server, "call_operation", { name: "deletePet", arguments: {} }, { _meta: meta }));
  assert.is(first.resultType, "input_required");
  assert.is(deletes(), before);
  const done = result(
    await call(
      server,
      "call_operation",
      { name: "deletePet", arguments: {} },
      {
        _meta: meta,
        requestState: first.requestState,
        inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
      },
    ),
  );
  assert.is(done.resultType, "complete");
  assert.not.ok(done.isError);
  assert.is(deletes(), before + 1);
});

test("call_operation sends the operation's progress notifications", async () => {
  const server = make({ surface: "search" });
  await server.handle({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {} },
  });
  const sent: Array<Record<string, any>> = [];
  await call(
    server,
    "call_operation",
    { name: "getPet", arguments: { petId: 42 } },
    { _meta: { progressToken: "p1" } },
    { notify: (m: unknown) => sent.push(m as Record<string, any>) },
  );
  const progress = sent.filter((m) => m.method === "notifications/progress");
  assert.equal(
    progress.map((m) => m.params.progress),
    [0, 1],
  );
  assert.match(progress[0]!.params.message, "GET /pets/{petId}");
});

test("auto: all within the budget, search above it; code when asked; names are checked", () => {
  const tool = (i: number, size = 10): ListedTool => ({
    name: `t${i}`,
    description: "x".repeat(size),
    inputSchema: { type: "object" },
  });
  const small = Array.from({ length: AUTO_BUDGET.tools }, (_, i) => tool(i));
  const choose = (requested: Parameters<typeof chooseSurface>[0], tools: ListedTool[]) =>
    chooseSurface(requested, tools.length, () => tools);
  assert.is(choose("auto", small).surface, "all");
  assert.is(choose("auto", [...small, tool(99)]).surface, "search");
  const heavy = choose("auto", [tool(1, AUTO_BUDGET.tokens * 4 + 1)]);
  assert.is(heavy.surface, "search");
  assert.match(heavy.reason, "tokens");
  assert.is(choose("search", small).surface, "search");
  assert.is(choose("all", [...small, tool(99)]).surface, "all");
  assert.is(choose("code", small).surface, "code");
  // Above the tool budget the listing is not needed, so a large API's schemas are not loaded to decide.
  assert.is(
    chooseSurface("auto", AUTO_BUDGET.tools + 1, () => assert.unreachable("listed") as never).surface,
    "search",
  );
  assert.is(parseSurface("search", "--surface"), "search");
  assert.throws(() => parseSurface("everything", "--surface"), /all, search, code, auto/);
});

test("code surface: execute_code runs a script whose api calls take the operation path (filters, confirmation included)", async () => {
  const tools = sampleTools();
  tools.find((t) => t.name === "deletePet")!.annotations = { destructiveHint: true };
  const server = make({
    surface: "code",
    tools: tools.filter((t) => t.name !== "createPet"),
    gate: confirmDestructive,
  });
  assert.equal(await names(server), ["search_operations", "describe_operation", "execute_code", "hello"]);
  const before = upstream.received.length;
  const ran = result(
    await call(server, "execute_code", {
      code: "const pet = await api.getPet({ petId: 42 }); const list = await api.listPets({}); return { name: pet.name, count: list.items.length };",
    }),
  );
  assert.not.ok(ran.isError, JSON.stringify(ran));
  assert.equal(ran.structuredContent.result, { name: "Rex", count: 2 });
  assert.is(upstream.received.length, before + 2);
  // A filtered-out operation does not exist inside the sandbox; a destructive one is not run without confirmation.
  const guarded = result(
    await call(server, "execute_code", {
      code: "const out = []; for (const f of [() => api.createPet({ name: 'x' }), () => api.deletePet({})]) { try { await f(); out.push('ran'); } catch (e) { out.push(e.message); } } return out;",
    }),
  );
  assert.not.ok(guarded.isError, JSON.stringify(guarded));
  const [created, deleted] = guarded.structuredContent.result as string[];
  assert.not.match(created!, /^ran$/);
  assert.match(deleted!, "confirmation");
  assert.is(upstream.received.length, before + 2, "neither reached the upstream");
  // The calls limit from the server's options ends the run as an error result.
  const many = result(
    await call(server, "execute_code", {
      code: "for (let i = 0; i < 10; i++) await api.getPet({ petId: 42 }); return 1;",
    }),
  );
  assert.ok(many.isError);
  assert.match(many.content[0].text, "(calls)");
});

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};
const initializeLegacy = (server: McpServer) =>
  server.handle({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: { elicitation: {} } },
  });

test("meta tool inputs are bounded: query, tag and names in their schemas, code size, list cursors and resource URIs", async () => {
  // Issue 30, finding 2: none of these had a limit.
  const search = make({ surface: "search" });
  const long = (n: number) => "a".repeat(n);
  for (const [name, args] of [
    ["search_operations", { query: long(MAX_QUERY_CHARS + 1) }],
    ["search_operations", { query: "pets", tag: long(MAX_NAME_CHARS + 1) }],
    ["describe_operation", { name: long(MAX_NAME_CHARS + 1) }],
    ["call_operation", { name: long(MAX_NAME_CHARS + 1), arguments: {} }],
  ] as const) {
    const answer = result(await call(search, name, args));
    assert.ok(answer.isError, name);
    assert.match(answer.content[0].text, /Invalid arguments/, name);
  }
  assert.not.ok(
    result(await call(search, "search_operations", { query: "pets ".repeat(200) })).isError,
    "at the limit",
  );
  const code = result(await call(make({ surface: "code" }), "execute_code", { code: `//${long(MAX_CODE_CHARS)}` }));
  assert.ok(code.isError);
  assert.match(code.content[0].text, /Invalid arguments/);
  const cursor = await search.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: long(65) } });
  assert.is((cursor as { error: { code: number } }).error.code, -32602);
  const uri = await search.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "resources/read",
    params: { uri: `openapi://operations/${long(9_000)}` },
  });
  assert.match((uri as { error: { message: string } }).error.message, /the limit is 8192/);
});

test("at most MAX_CONCURRENT_CODE_RUNS execute_code runs at once (each is a worker with its own sandbox memory); the others wait their turn", async () => {
  const arrivals: number[] = [];
  const slow = await startUpstream((r) => {
    arrivals.push(Date.now());
    return { status: 200, headers: { "content-type": "application/json" }, body: '{"id":7}', delayMs: 1_500 };
  });
  try {
    const server = make({ surface: "code", upstream: { baseUrl: slow.baseUrl, timeoutMs: 10_000 } });
    const runs = Array.from({ length: MAX_CONCURRENT_CODE_RUNS * 2 }, () =>
      call(server, "execute_code", { code: "return (await api.getPet({ petId: 7 })).id;" }),
    );
    for (const run of await Promise.all(runs)) assert.is(result(run).structuredContent.result, 7);
    // The most upstream calls (one per run) in flight at one moment.
    const overlap = Math.max(
      ...arrivals.map((at) => arrivals.filter((other) => other <= at && other + 1_500 > at).length),
    );
    assert.ok(overlap <= MAX_CONCURRENT_CODE_RUNS, `${overlap} runs at once`);
  } finally {
    await slow.close();
  }
});

test("--confirm-destructive: code mode refuses a destructive operation in every era, without a prompt and without reaching the upstream", async () => {
  // Issue 30, finding 5: in 2025-06-18 each api.deletePet() in a script sent a prompt, and once accepted the DELETE ran.
  const tools = sampleTools();
  tools.find((t) => t.name === "deletePet")!.annotations = { destructiveHint: true };
  const server = make({ surface: "code", tools, gate: confirmDestructive });
  await initializeLegacy(server);
  const prompts: unknown[] = [];
  // A client that accepts every prompt it is sent.
  const accepting = {
    notify: (message: unknown) => {
      const request = message as { id?: string; method?: string };
      if (request.method !== "elicitation/create") return;
      prompts.push(request);
      void server.handle({ jsonrpc: "2.0", id: request.id, result: { action: "accept", content: { confirm: true } } });
    },
  };
  const deletes = () => upstream.received.filter((r) => r.method === "DELETE").length;
  const before = deletes();
  const code =
    "try { await api.deletePet({}); await api.deletePet({}); return 'deleted'; } catch (e) { return e.message; }";
  const legacy = result(await call(server, "execute_code", { code }, {}, accepting));
  assert.match(legacy.structuredContent.result, /not run from execute_code/);
  const modern = result(await call(server, "execute_code", { code }, { _meta: MODERN_META }));
  assert.match(modern.structuredContent.result, /not run from execute_code/);
  assert.equal(prompts, [], "no prompt was sent");
  assert.is(deletes(), before, "no DELETE reached the upstream");
  // Outside code, the same operation still asks (call_operation on the search surface: see above).
  const direct = make({ tools, gate: confirmDestructive });
  assert.is(result(await call(direct, "deletePet", {}, { _meta: MODERN_META })).resultType, "input_required");
});

test("every confirmation prompt shows the method, the filled path and the arguments: credential-like values hidden, non-ASCII escaped, long values cut", async () => {
  // Issue 30, finding 5: the prompt said "with the given arguments", so the user could not see what would be deleted.
  const tool: ToolDefinition = {
    name: "deleteOwnerPet",
    description: "Delete",
    annotations: { destructiveHint: true },
    inputSchema: {
      type: "object",
      properties: {
        owner: { type: "string" },
        petId: { type: "integer" },
        apiKey: { type: "string" },
        reason: { type: "string" },
      },
      required: ["owner", "petId"],
      additionalProperties: false,
    },
    http: {
      method: "delete",
      path: "/owners/{owner}/pets/{petId}",
      parameters: [
        { argument: "owner", name: "owner", in: "path", style: "simple", explode: false, required: true },
        { argument: "petId", name: "petId", in: "path", style: "simple", explode: false, required: true },
        { argument: "apiKey", name: "X-Api-Key", in: "header", style: "simple", explode: false, required: false },
        { argument: "reason", name: "reason", in: "query", style: "form", explode: true, required: false },
      ],
      response: { accept: [] },
    },
  };
  const server = make({ tools: [tool], gate: confirmDestructive });
  const args = { owner: "al ice", petId: 42, apiKey: "s3cret-key", reason: `moving\u202eabroad ${"x".repeat(3_000)}` };
  const modern = result(await call(server, "deleteOwnerPet", args, { _meta: MODERN_META }));
  await initializeLegacy(server);
  const asked: string[] = [];
  const declining = {
    notify: (message: unknown) => {
      const request = message as { id: string; params: { message: string } };
      asked.push(request.params.message);
      void server.handle({ jsonrpc: "2.0", id: request.id, result: { action: "decline" } });
    },
  };
  assert.ok(result(await call(server, "deleteOwnerPet", args, {}, declining)).isError, "declined");
  const prompts = [modern.inputRequests.confirm.params.message as string, asked[0]!];
  for (const text of prompts) {
    assert.match(text, "DELETE /owners/al%20ice/pets/42 with arguments {");
    assert.match(text, '"petId":42');
    assert.match(text, '"apiKey":"***"');
    assert.not.match(text, /s3cret/);
    assert.match(text, "moving\\u202eabroad");
    assert.not.match(text, /\u202e/);
    assert.ok(text.length < 1_200, `${text.length} characters`);
  }
});

test("filters apply to openapi://document and openapi://declarations too: with --read-only they show no write operation", async () => {
  // Issue 30, finding 6: both resources still showed the operations --read-only or tag filters removed.
  const document = {
    openapi: "3.0.3",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets/{petId}": { parameters: [{ name: "petId", in: "path", required: true }], get: { operationId: "getPet" } },
      "/pets": { get: { operationId: "listPets" }, post: { operationId: "createPet" } },
      "/slow": { get: { operationId: "slow" } },
      "/pets/1": { delete: { operationId: "deletePet" } },
    },
    components: { schemas: { Pet: { type: "object" } } },
  };
  const declarations = Object.fromEntries(sampleTools().map((t) => [t.name, `${t.name}(args): Promise<unknown>;`]));
  const stderr = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  let handle: HttpHandle;
  try {
    handle = (await main(
      info,
      sampleTools(),
      ["--http", "--port", "0", "--read-only", "--base-url", upstream.baseUrl],
      {
        apiDocument: JSON.stringify(document),
        readData: (file) => (file === "declarations.json" ? JSON.stringify(declarations) : undefined),
        features: [toolsets],
      },
    )) as HttpHandle;
  } finally {
    process.stderr.write = stderr;
  }
  try {
    const read = async (uri: string): Promise<any> => {
      const response = await fetch(handle.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } }),
      });
      return JSON.parse(
        ((await response.json()) as { result: { contents: Array<{ text: string }> } }).result.contents[0]!.text,
      );
    };
    const served = await read("openapi://document");
    assert.equal(served.paths, {
      "/pets/{petId}": document.paths["/pets/{petId}"],
      "/pets": { get: { operationId: "listPets" } },
      "/slow": document.paths["/slow"],
    });
    assert.equal(served.components, document.components);
    assert.equal(Object.keys(await read("openapi://declarations")), ["getPet", "listPets", "slow"]);
  } finally {
    await handle.close();
  }
});

test.run();
