import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  ErrorCode,
  httpStatusOf,
  type JsonRpcNotification,
  type JsonRpcResponse,
} from "../../runtime/src/protocol/jsonrpc.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { info, sampleTools, startUpstream, within, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

let upstream: Upstream;
test.before(async () => {
  upstream = await startUpstream((r) =>
    r.url.startsWith("/api/v1/pets/42")
      ? { status: 200, headers: { "content-type": "application/json" }, body: '{"id":42,"name":"Rex"}' }
      : "hang",
  );
});
test.after(async () => {
  await upstream.close();
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const make = (apiDocument?: string, pageSize?: number) =>
  new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    apiDocument,
    pageSize,
  });
const req = (
  id: number,
  method: string,
  params: Record<string, unknown> = {},
  meta: Record<string, unknown> = META,
) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: meta },
});

function result(response: JsonRpcResponse | undefined): Record<string, any> {
  assert.ok(response && "result" in response, `expected a result, got ${JSON.stringify(response)}`);
  return (response as { result: Record<string, any> }).result;
}
function error(response: JsonRpcResponse | undefined): { code: number; message: string; data?: any } {
  assert.ok(response && "error" in response, `expected an error, got ${JSON.stringify(response)}`);
  return (response as { error: { code: number; message: string } }).error;
}

test("server/discover lists every served version, capabilities, identity and cache hints", async () => {
  const res = result(await make().handle(req(1, "server/discover")));
  assert.equal(res.supportedVersions, ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
  assert.ok(
    res.capabilities.tools && res.capabilities.resources && res.capabilities.prompts && res.capabilities.completions,
  );
  assert.is(res.resultType, "complete");
  assert.is(res.cacheScope, "public");
  assert.ok(Number.isInteger(res.ttlMs) && res.ttlMs >= 0);
  assert.equal(res._meta["io.modelcontextprotocol/serverInfo"], {
    name: "petstore-mcp",
    version: "1.2.3",
    title: "Petstore",
  });
  assert.is(res.instructions, "Pets API.");
});

test("modern lists carry resultType and caching hints on every page; legacy ones do not", async () => {
  const server = make(undefined, 2);
  const first = result(await server.handle(req(1, "tools/list")));
  assert.is(first.tools.length, 2);
  assert.is(first.resultType, "complete");
  assert.is(first.cacheScope, "public");
  const second = result(await server.handle(req(2, "tools/list", { cursor: first.nextCursor })));
  assert.is(second.cacheScope, "public");
  for (const method of ["prompts/list", "resources/list", "resources/templates/list"]) {
    const res = result(await server.handle(req(3, method)));
    assert.is(res.resultType, "complete", method);
    assert.ok("ttlMs" in res && "cacheScope" in res, method);
  }
  const legacy = result(await server.handle({ jsonrpc: "2.0", id: 4, method: "tools/list" }));
  assert.not.ok("resultType" in legacy);
  assert.not.ok("ttlMs" in legacy);
});

test("tools/call results have resultType complete; unknown tool stays -32602 with HTTP 200", async () => {
  const server = make();
  const res = result(await server.handle(req(1, "tools/call", { name: "getPet", arguments: { petId: 42 } })));
  assert.is(res.resultType, "complete");
  assert.equal(res.structuredContent, { id: 42, name: "Rex" });
  assert.not.ok("ttlMs" in res);
  const unknown = await server.handle(req(2, "tools/call", { name: "nope" }));
  assert.is(error(unknown).code, ErrorCode.InvalidParams);
  assert.is(httpStatusOf(unknown!), undefined);
});

test("unsupported version → -32022 with data.supported and requested, HTTP 400", async () => {
  const res = await make().handle(
    req(1, "tools/list", {}, { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" }),
  );
  const err = error(res);
  assert.is(err.code, -32022);
  assert.is(err.data.requested, "2099-01-01");
  assert.ok(err.data.supported.includes("2026-07-28") && err.data.supported.includes("2025-11-25"));
  assert.is(httpStatusOf(res!), 400);
  assert.is(
    error(
      await make().handle(
        req(2, "tools/list", {}, { ...META, "io.modelcontextprotocol/protocolVersion": "2025-11-25" }),
      ),
    ).code,
    -32022,
  );
});

test("missing clientCapabilities, bad logLevel, or a modern header without _meta → -32602 HTTP 400", async () => {
  const server = make();
  const missing = await server.handle(
    req(1, "tools/list", {}, { "io.modelcontextprotocol/protocolVersion": "2026-07-28" }),
  );
  assert.is(error(missing).code, ErrorCode.InvalidParams);
  assert.is(httpStatusOf(missing!), 400);
  assert.is(
    error(await server.handle(req(2, "tools/list", {}, { ...META, "io.modelcontextprotocol/logLevel": "loud" }))).code,
    ErrorCode.InvalidParams,
  );
  const noMeta = await server.handle(
    { jsonrpc: "2.0", id: 3, method: "tools/list" },
    { protocolVersion: "2026-07-28" },
  );
  assert.is(error(noMeta).code, ErrorCode.InvalidParams);
  assert.is(
    result(
      await server.handle(
        req(4, "tools/list", {}, { ...META, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } }),
      ),
    ).resultType,
    "complete",
  );
});

test("legacy-only methods are -32601 (HTTP 404) in the modern era; initialize still selects legacy", async () => {
  const server = make();
  for (const method of ["ping", "logging/setLevel", "resources/subscribe", "initialize", "nope/nothing"]) {
    const res = await server.handle(req(1, method));
    assert.is(error(res).code, ErrorCode.MethodNotFound, method);
    assert.is(httpStatusOf(res!), 404);
  }
  const init = result(
    await server.handle(
      { jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {} } },
      { protocolVersion: "2026-07-28" },
    ),
  );
  assert.is(init.protocolVersion, "2025-11-25");
  assert.is(
    error(await server.handle({ jsonrpc: "2.0", id: 3, method: "server/discover" })).code,
    ErrorCode.MethodNotFound,
  );
});

test("resources: operation docs, API document, templates, not-found per era, completion", async () => {
  const server = make('{"openapi":"3.1.0"}');
  const list = result(await server.handle(req(1, "resources/list")));
  assert.is(list.resources[0].uri, "openapi://document");
  assert.is(list.resources[1].uri, "openapi://operations/getPet");
  const doc = result(await server.handle(req(2, "resources/read", { uri: "openapi://document" })));
  assert.equal(doc.contents, [
    { uri: "openapi://document", mimeType: "application/json", text: '{"openapi":"3.1.0"}' },
  ]);
  assert.is(doc.cacheScope, "public");
  const op = result(await server.handle(req(3, "resources/read", { uri: "openapi://operations/getPet" })));
  assert.match(op.contents[0].text, "`GET /pets/{petId}`");
  const templates = result(await server.handle(req(4, "resources/templates/list")));
  assert.is(templates.resourceTemplates[0].uriTemplate, "openapi://operations/{operation}");
  const modern = error(await server.handle(req(5, "resources/read", { uri: "openapi://operations/nope" })));
  assert.is(modern.code, ErrorCode.InvalidParams);
  assert.equal(modern.data, { uri: "openapi://operations/nope" });
  const legacy = error(
    await server.handle({ jsonrpc: "2.0", id: 6, method: "resources/read", params: { uri: "x://y" } }),
  );
  assert.is(legacy.code, -32002);
  const completion = result(
    await server.handle(
      req(7, "completion/complete", {
        ref: { type: "ref/resource", uri: "openapi://operations/{operation}" },
        argument: { name: "operation", value: "get" },
      }),
    ),
  );
  assert.equal(completion.completion, { values: ["getPet"], total: 1, hasMore: false });
  assert.equal(result(await server.handle(req(8, "prompts/list"))).prompts, []);
  assert.is(error(await server.handle(req(9, "prompts/get", { name: "x" }))).code, ErrorCode.InvalidParams);
});

test("progress and log notifications only when asked, never with argument values", async () => {
  const server = make();
  const seen: JsonRpcNotification[] = [];
  const notify = (n: JsonRpcNotification) => seen.push(n);
  await server.handle(req(1, "tools/call", { name: "getPet", arguments: { petId: 42 } }), { notify });
  assert.is(seen.length, 0, "no progressToken and no logLevel: nothing");
  await server.handle(
    req(
      2,
      "tools/call",
      { name: "getPet", arguments: { petId: 42 } },
      { ...META, progressToken: "p1", "io.modelcontextprotocol/logLevel": "debug" },
    ),
    { notify },
  );
  const progress = seen.filter((n) => n.method === "notifications/progress").map((n) => (n.params as any).progress);
  assert.equal(progress, [0, 1]);
  const logs = seen.filter((n) => n.method === "notifications/message");
  assert.is(logs.length, 2);
  assert.not.match(JSON.stringify(logs), "/pets/42");
  seen.length = 0;
  await server.handle(
    req(
      3,
      "tools/call",
      { name: "getPet", arguments: { petId: 42 } },
      { ...META, "io.modelcontextprotocol/logLevel": "error" },
    ),
    { notify },
  );
  assert.is(seen.length, 0, "below the requested level");
});

test("subscriptions/listen acknowledges first with subscriptionId, ends on cancel or shutdown", async () => {
  const server = make();
  const seen: JsonRpcNotification[] = [];
  let acknowledged!: () => void;
  const firstNotification = new Promise<void>((resolve) => (acknowledged = resolve));
  const pending = server.handle(req(7, "subscriptions/listen", { notifications: { toolsListChanged: true } }), {
    notify: (n) => {
      seen.push(n as JsonRpcNotification);
      acknowledged();
    },
    scope: "s",
  });
  await within(firstNotification, 5_000, "the listen request is acknowledged");
  assert.is(seen[0]!.method, "notifications/subscriptions/acknowledged");
  assert.equal((seen[0]!.params as any)._meta, { "io.modelcontextprotocol/subscriptionId": 7 });
  assert.equal((seen[0]!.params as any).notifications, {}, "nothing in this static catalog ever changes");
  await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }, { scope: "s" });
  assert.is(await pending, undefined);
  let listening!: () => void;
  const gracefulAck = new Promise<void>((resolve) => (listening = resolve));
  const graceful = server.handle(req(8, "subscriptions/listen", { notifications: {} }), { notify: () => listening() });
  // Acknowledged means the stream is open and closeSubscriptions() will end it.
  await within(gracefulAck, 5_000, "the second listen request is acknowledged");
  server.closeSubscriptions();
  const closing = result(await graceful);
  assert.equal(closing._meta["io.modelcontextprotocol/subscriptionId"], 8);
  assert.is(
    error(await server.handle(req(9, "subscriptions/listen", { notifications: {} }))).code,
    ErrorCode.InvalidRequest,
  );
});

test.run();
