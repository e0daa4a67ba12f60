import { PassThrough } from "node:stream";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ErrorCode, type JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import { DEFAULT_PAGE_SIZE, MAX_LIST_PAGES, MAX_PAGE_BYTES } from "../../runtime/src/server/list-pages.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startStdio } from "../../runtime/src/transport/stdio.js";
import {
  info,
  sampleTools,
  startUpstream,
  within,
  type Recorded,
  type Reply,
  type Upstream,
} from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

let upstream: Upstream;

function route(r: Recorded): Reply {
  const json = { "content-type": "application/json" };
  if (r.url.startsWith("/api/v1/pets/42"))
    return { status: 200, headers: json, body: JSON.stringify({ id: 42, name: "Rex" }) };
  if (r.url.startsWith("/api/v1/pets/7"))
    return { status: 200, headers: json, body: JSON.stringify({ name: "no id" }) };
  if (r.url.startsWith("/api/v1/pets/404"))
    return { status: 404, headers: json, body: JSON.stringify({ message: "pet not found" }) };
  if (r.url.startsWith("/api/v1/pets/1") && r.method === "DELETE") return { status: 204 };
  if (r.url.startsWith("/api/v1/pets") && r.method === "GET")
    return { status: 200, headers: json, body: JSON.stringify([{ id: 1 }, { id: 2 }]) };
  if (r.url.startsWith("/api/v1/pets") && r.method === "POST") return { status: 201, headers: json, body: r.body };
  if (r.url.startsWith("/api/v1/slow")) return "hang";
  return { status: 500, body: "unexpected" };
}

test.before(async () => {
  upstream = await startUpstream(route);
});
test.after(async () => {
  await upstream.close();
});

function makeServer(pageSize?: number): McpServer {
  return new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    pageSize,
  });
}

function result(response: JsonRpcResponse | undefined): Record<string, any> {
  assert.ok(response, "expected a response");
  if ("error" in response!) throw new Error(`unexpected error ${JSON.stringify(response.error)}`);
  return response!.result as Record<string, any>;
}

function error(response: JsonRpcResponse | undefined): { code: number; message: string } {
  assert.ok(response && "error" in response, `expected an error, got ${JSON.stringify(response)}`);
  return (response as { error: { code: number; message: string } }).error;
}

const call = (server: McpServer, id: number, name: string, args?: unknown) =>
  server.handle({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

test("initialize echoes a supported version and declares capabilities", async () => {
  const server = makeServer();
  const res = result(
    await server.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    }),
  );
  assert.is(res.protocolVersion, "2025-06-18");
  assert.equal(res.capabilities, {
    tools: { listChanged: false },
    resources: { subscribe: true, listChanged: false },
    prompts: { listChanged: false },
    completions: {},
    logging: {},
  });
  assert.equal(res.serverInfo, { name: "petstore-mcp", version: "1.2.3", title: "Petstore" });
  assert.is(res.instructions, "Pets API.");
  assert.is(server.protocolVersion, "2025-06-18");
});

test("initialize with an unknown version answers the latest", async () => {
  const res = result(
    await makeServer().handle({
      jsonrpc: "2.0",
      id: "a",
      method: "initialize",
      params: { protocolVersion: "1999-01-01" },
    }),
  );
  assert.is(res.protocolVersion, "2025-11-25");
});

test("ping, notifications, unknown methods, bad envelopes", async () => {
  const server = makeServer();
  assert.equal(result(await server.handle({ jsonrpc: "2.0", id: 2, method: "ping" })), {});
  assert.is(await server.handle({ jsonrpc: "2.0", method: "notifications/initialized" }), undefined);
  assert.is(
    error(await server.handle({ jsonrpc: "2.0", id: 3, method: "resources/unknown" })).code,
    ErrorCode.MethodNotFound,
  );
  assert.is(
    error(await server.handle({ jsonrpc: "2.0", id: 3, method: "constructor" })).code,
    ErrorCode.MethodNotFound,
  );
  const bad = await server.handle({ jsonrpc: "1.0", id: 4, method: "ping" });
  assert.is(error(bad).code, ErrorCode.InvalidRequest);
  assert.is((bad as { id: unknown }).id, 4);
  assert.is(error(await server.handle({ jsonrpc: "2.0", id: null, method: "ping" })).code, ErrorCode.InvalidRequest);
  assert.is(error(await server.handle("nope")).code, ErrorCode.InvalidRequest);
});

test("batches only under 2025-03-26", async () => {
  const server = makeServer();
  const batch = [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "ping" },
  ];
  const ok = await server.dispatch(batch, { protocolVersion: "2025-03-26" });
  assert.ok(Array.isArray(ok));
  assert.equal(
    (ok as JsonRpcResponse[]).map((r) => r.id),
    [1, 2],
  );
  const rejected = await server.dispatch(batch, { protocolVersion: "2025-06-18" });
  assert.is(error(rejected as JsonRpcResponse).code, ErrorCode.InvalidRequest);
  assert.is(
    error((await server.dispatch([], { protocolVersion: "2025-03-26" })) as JsonRpcResponse).code,
    ErrorCode.InvalidRequest,
  );
});

test("a long tools/list gets larger pages: at most MAX_LIST_PAGES of them, unless the page size was set", async () => {
  const [template] = sampleTools();
  const many = Array.from({ length: 5_000 }, (_, i) => ({ ...template!, name: `op${i}` }));
  const pagesOf = async (server: McpServer) => {
    let cursor: string | undefined;
    let pages = 0;
    let tools = 0;
    do {
      const res = result(
        await server.handle({ jsonrpc: "2.0", id: pages, method: "tools/list", params: cursor ? { cursor } : {} }),
      );
      tools += res.tools.length;
      cursor = res.nextCursor;
      pages++;
    } while (cursor !== undefined);
    return { pages, tools };
  };
  const adaptive = await pagesOf(
    new McpServer({ ...apiFeatures, info, tools: many, upstream: { baseUrl: upstream.baseUrl } }),
  );
  assert.equal(adaptive, { pages: MAX_LIST_PAGES, tools: 5_000 }, "157 tools a page: 32 pages, not 50");
  assert.equal(
    await pagesOf(
      new McpServer({
        ...apiFeatures,
        info,
        tools: many,
        upstream: { baseUrl: upstream.baseUrl },
        pageSize: DEFAULT_PAGE_SIZE,
      }),
    ),
    { pages: 50, tools: 5_000 },
  );
  // Enlarged pages of big tools end at MAX_PAGE_BYTES (104 tools of 100 KB would make 10.4 MB).
  const description = "x".repeat(100_000);
  const big = Array.from({ length: 3_300 }, (_, i) => ({ ...template!, name: `big${i}`, description }));
  const server = new McpServer({ ...apiFeatures, info, tools: big, upstream: { baseUrl: upstream.baseUrl } });
  const first = result(await server.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
  assert.ok(JSON.stringify(first.tools).length <= MAX_PAGE_BYTES, "under the byte limit");
  assert.ok(first.tools.length > 1 && first.tools.length < 104, `${first.tools.length} tools`);
  const second = result(
    await server.handle({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { cursor: first.nextCursor } }),
  );
  assert.is(second.tools[0].name, `big${first.tools.length}`, "the next page starts where the short one ended");
});

test("tools/list pages with an opaque cursor and hides http bindings", async () => {
  const server = makeServer(2);
  const names: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const res = result(
      await server.handle({ jsonrpc: "2.0", id: 10 + pages, method: "tools/list", params: cursor ? { cursor } : {} }),
    );
    for (const tool of res.tools) {
      assert.is(tool.http, undefined);
      assert.ok(tool.inputSchema);
      names.push(tool.name);
    }
    cursor = res.nextCursor;
    pages++;
  } while (cursor !== undefined);
  assert.is(pages, 3);
  assert.equal(names, ["getPet", "listPets", "createPet", "slow", "deletePet"]);

  const first = result(await makeServer().handle({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  assert.is(first.tools.length, 5);
  assert.is(first.nextCursor, undefined);
  assert.is(first.tools[1].title, "List pets");
  assert.equal(first.tools[0].annotations, { readOnlyHint: true });
});

test("tools/list rejects invalid cursors with -32602", async () => {
  const server = makeServer(2);
  for (const cursor of [
    "garbage!",
    Buffer.from('{"o":99}').toString("base64url"),
    Buffer.from("[1]").toString("base64url"),
    5,
  ]) {
    assert.is(
      error(await server.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor } })).code,
      ErrorCode.InvalidParams,
    );
  }
});

test("unknown tool is -32602 naming the tool", async () => {
  const err = error(await call(makeServer(), 1, "nope", {}));
  assert.is(err.code, ErrorCode.InvalidParams);
  assert.match(err.message, "nope");
});

test("invalid arguments give isError before any upstream request", async () => {
  const before = upstream.received.length;
  const res = result(await call(makeServer(), 1, "listPets", { limit: 1000, bogus: 1 }));
  assert.is(res.isError, true);
  assert.match(res.content[0].text, "Invalid arguments for tool listPets:");
  assert.match(res.content[0].text, "/limit must be <= 100");
  assert.match(res.content[0].text, "unexpected property 'bogus'");
  const missing = result(await call(makeServer(), 2, "createPet", { requestId: "not-a-uuid" }));
  assert.match(missing.content[0].text, "missing required property 'name'");
  assert.match(missing.content[0].text, '/requestId must match format "uuid"');
  assert.is(upstream.received.length, before);
});

test("tools/call GET hits the upstream and returns structured content", async () => {
  const res = result(await call(makeServer(), 1, "getPet", { petId: 42, verbose: true }));
  const seen = upstream.received.at(-1)!;
  assert.is(seen.method, "GET");
  assert.is(seen.url, "/api/v1/pets/42?verbose=true");
  assert.is(seen.headers.accept, "application/json");
  assert.is(seen.headers["user-agent"], "petstore-mcp/1.2.3 (mcp-gen)");
  assert.is(res.isError, undefined);
  assert.equal(res.structuredContent, { id: 42, name: "Rex" });
  assert.equal(JSON.parse(res.content[0].text), { id: 42, name: "Rex" });
});

test("tools/call POST sends the JSON body and headers", async () => {
  const uuid = "123e4567-e89b-12d3-a456-426614174000";
  const res = result(await call(makeServer(), 1, "createPet", { name: "Rex", requestId: uuid }));
  const seen = upstream.received.at(-1)!;
  assert.is(seen.method, "POST");
  assert.is(seen.url, "/api/v1/pets");
  assert.is(seen.headers["content-type"], "application/json");
  assert.is(seen.headers["x-request-id"], uuid);
  assert.equal(JSON.parse(seen.body), { name: "Rex" });
  assert.equal(res.structuredContent, { name: "Rex" }); // no outputSchema: plain object still included
});

test("wrapKey wraps an array body; query arrays are comma-joined", async () => {
  const res = result(await call(makeServer(), 1, "listPets", { tags: ["a b", "c"], limit: 5 }));
  assert.is(upstream.received.at(-1)!.url, "/api/v1/pets?limit=5&tags=a%20b,c");
  assert.equal(res.structuredContent, { items: [{ id: 1 }, { id: 2 }] });
});

test("a body violating the output schema drops structuredContent with a note", async () => {
  const res = result(await call(makeServer(), 1, "getPet", { petId: 7 }));
  assert.is(res.structuredContent, undefined);
  assert.equal(JSON.parse(res.content[0].text), { name: "no id" });
  assert.match(res.content[1].text, "missing required property 'id'");
});

test("upstream 404 is an isError result with status, path and excerpt, no query values", async () => {
  const res = result(await call(makeServer(), 1, "getPet", { petId: 404, verbose: false }));
  assert.is(res.isError, true);
  assert.is(res.content[0].text, 'Upstream HTTP 404 Not Found for GET /pets/404: {"message":"pet not found"}');
  const secret = result(await call(makeServer(), 2, "listPets", { apiKey: "s3cret" }));
  assert.not.match(JSON.stringify(secret), "s3cret");
});

test("204 gives a success note", async () => {
  const res = result(await call(makeServer(), 1, "deletePet", {}));
  assert.equal(res, {
    content: [{ type: "text", text: "Success: HTTP 204 No Content for DELETE /pets/1 (no response body)" }],
  });
});

test("network errors and missing base URL are isError results", async () => {
  const down = new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: "http://127.0.0.1:1/api" },
  });
  const res = result(await call(down, 1, "getPet", { petId: 42 }));
  assert.is(res.isError, true);
  assert.match(res.content[0].text, "Upstream request failed for GET http://127.0.0.1:1/api/pets/42: ECONNREFUSED");
  const none = new McpServer({ ...apiFeatures, info, tools: sampleTools(), upstream: {} });
  const missing = result(await call(none, 2, "getPet", { petId: 42 }));
  assert.is(missing.isError, true);
  assert.match(missing.content[0].text, "--base-url");
});

test("timeouts are isError results", async () => {
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 200 },
  });
  const res = result(await call(server, 1, "slow", {}));
  assert.is(res.isError, true);
  assert.match(res.content[0].text, "timed out after 200 ms");
});

test("notifications/cancelled aborts the upstream request and suppresses the response", async () => {
  const server = makeServer();
  const arrived = upstream.arrival("/slow");
  const pending = call(server, 77, "slow", {});
  const seen = await arrived;
  let closedEarly = false;
  void seen.closed.then(() => (closedEarly = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(closedEarly, false, "upstream request still open before cancellation");
  await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 77, reason: "user" } });
  // Settled and closed by the cancellation, long before the call's 5 s deadline would end both.
  assert.is(await within(pending, 1000, "the cancelled call settles"), undefined);
  await within(seen.closed, 1000, "the cancelled call's upstream request is closed");
});

test("stdio: one message per line, parse errors, EOF settles in-flight work", async () => {
  const server = makeServer();
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  output.on("data", (chunk: Buffer) => lines.push(...chunk.toString("utf8").split("\n").filter(Boolean)));
  const handle = startStdio(server, { input, output });
  input.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}\n');
  input.write("{not json\n");
  input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  input.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"getPet","arguments":{"petId":42}}}\n');
  input.end();
  await handle.closed;
  const messages = lines.map((l) => JSON.parse(l));
  assert.is(messages.length, 3);
  const byId = new Map(messages.map((m) => [m.id, m]));
  assert.is(byId.get(1).result.protocolVersion, "2025-03-26");
  assert.is(byId.get(null).error.code, ErrorCode.ParseError);
  assert.equal(byId.get(2).result.structuredContent, { id: 42, name: "Rex" });
});

test("stdio: modern probe with server/discover, listen acknowledged, EOF ends the subscription", async () => {
  const server = makeServer();
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  output.on("data", (chunk: Buffer) => lines.push(...chunk.toString("utf8").split("\n").filter(Boolean)));
  const handle = startStdio(server, { input, output });
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  input.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } }) + "\n");
  input.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "subscriptions/listen",
      params: { notifications: {}, _meta: meta },
    }) + "\n",
  );
  input.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "getPet", arguments: { petId: 42 }, _meta: { ...meta, progressToken: 9 } },
    }) + "\n",
  );
  // EOF only once the listen stream is open and the call answered: EOF must then end the stream.
  const answered = (): boolean =>
    lines.some((l) => l.includes('"notifications/subscriptions/acknowledged"')) &&
    lines.some((l) => /"id":3\b/.test(l) && l.includes('"result"'));
  await within(
    new Promise<void>((resolve) => {
      const check = (): void => {
        if (!answered()) return;
        output.off("data", check);
        resolve();
      };
      output.on("data", check);
      check();
    }),
    5_000,
    "the acknowledgement and the tools/call answer are written",
  );
  input.end();
  await handle.closed;
  const messages = lines.map((l) => JSON.parse(l));
  assert.equal(messages.find((m) => m.id === 1).result.supportedVersions[0], "2026-07-28");
  const ackIndex = messages.findIndex((m) => m.method === "notifications/subscriptions/acknowledged");
  assert.ok(ackIndex >= 0);
  assert.is(messages.filter((m) => m.method === "notifications/progress").length, 2);
  assert.is(messages.find((m) => m.id === 3).result.resultType, "complete");
  const closing = messages.findIndex((m) => m.id === 2);
  assert.ok(closing > ackIndex, "the listen result comes last, after its acknowledgement");
  assert.is(messages[closing].result._meta["io.modelcontextprotocol/subscriptionId"], 2);
});

test.run();
