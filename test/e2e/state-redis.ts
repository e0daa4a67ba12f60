/**
 * Shared state in a real Redis (redis-server from Debian, started here on a free loopback port):
 * three instances of one server, each with its own TaskStore, HTTP transport and Redis
 * connections, sharing nothing but Redis. A task created on one instance is read, answered and
 * cancelled through the others; a cancellation through another instance closes the upstream
 * connection on the first; legacy sessions and their `notifications/cancelled` reach every
 * instance; a dead instance's task is reported failed; Redis down gives clear errors while plain
 * calls keep working, and everything recovers when it returns; no secret ever reaches Redis, and
 * what does is encrypted (no result, session or task id readable there; a tampered record is
 * ignored); a client's answer to a server→client request counts only from the session asked.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs redis-server (scripts/setup-scale.js installs it with apt-get).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { CustomTool } from "../../runtime/src/api/extensions.js";
import type { JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { StateStore } from "../../runtime/src/state/state.js";
import { openState } from "../../runtime/src/features/redis/index.js";
import { StoreCluster } from "../../runtime/src/features/redis/redis-cluster.js";
import { makeTasks } from "../../runtime/src/features/tasks/index.js";
import { TASKS_EXTENSION } from "../../runtime/src/server/tasks-slot.js";
import { startHttp, type HttpHandle } from "../../runtime/src/transport/http.js";
import type { ServerInfo, ToolDefinition } from "../../runtime/src/api/types.js";
import { info as baseInfo, sampleTools, startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { scaleBinaries, startRedis, waitFor, type RedisHandle } from "../support/redis-fixture.js";
import { upstreamCredentials } from "../../runtime/src/features/auth/index.js";
import { apiFeatures } from "../support/factories.js";
import type { Logger } from "../../runtime/src/protocol/logger.js";
import { httpSessions } from "../../runtime/src/features/sessions/index.js";
import { toolsets } from "../../runtime/src/features/toolsets/index.js";

const API_KEY = "env-secret-7f3a9c";
/** MCP_STATE_SECRET of the instances: what they store in Redis is encrypted with it. */
const STATE_SECRET = "state-secret-for-the-redis-tests-0123456789";
const PASSED_KEY = "header-secret-51d2e8";
const info: ServerInfo = {
  ...baseInfo,
  securitySchemes: [
    { key: "api_key", type: "apiKey", in: "header", name: "X-Api-Key", env: { token: "PETSTORE_API_KEY" } },
  ],
};
const TASKS_CAPS = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Instance {
  name: string;
  store: StateStore;
  server: McpServer;
  http: HttpHandle;
  /** What the instance logged at warn (refused answers, records that failed their check). */
  warnings: string[];
}

let redis: RedisHandle;
let upstream: Upstream;
let monitor: { text(): string; close(): void };
const instances: Instance[] = [];

/** A custom tool that works 200 ms, asks one question as a task, then answers with the reply. */
const asks: CustomTool<any> = {
  name: "asks",
  description: "asks",
  inputSchema: { type: "object", properties: {} },
  taskSupport: "optional",
  handler: async (_args, tools) => {
    const answer = tools.inputResponses.colour;
    if (!answer) {
      await pause(200);
      return tools.inputRequired(
        {
          colour: {
            method: "elicitation/create",
            params: { message: "colour?", requestedSchema: { type: "object", properties: { v: { type: "string" } } } },
          },
        },
        { asked: true },
      );
    }
    return { content: [{ type: "text", text: `colour ${JSON.stringify(answer.content)}` }] };
  },
};

/** A custom tool that asks the legacy client (elicitation/create over the call's SSE stream). */
const confirm: CustomTool<any> = {
  name: "confirm",
  description: "confirm",
  inputSchema: { type: "object", properties: {} },
  handler: async (_args, tools) => {
    const answer = await tools.clientRequest("elicitation/create", {
      message: "Sure?",
      requestedSchema: { type: "object", properties: { v: { type: "string" } } },
    });
    return { content: [{ type: "text", text: `answered ${JSON.stringify(answer)}` }] };
  },
};

function tools(): ToolDefinition[] {
  // getPet sends an API key: from the environment, or from the caller's X-Upstream-Key header.
  return sampleTools().map((tool) =>
    tool.name === "getPet" ? { ...tool, http: { ...tool.http, security: [{ api_key: [] }] } } : tool,
  );
}

async function startInstance(name: string): Promise<Instance> {
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, error() {}, warn: (message) => warnings.push(message) };
  const store = await openState(redis.url, {
    prefix: "mcp:test:",
    secret: STATE_SECRET,
    onInvalid: (what) => warnings.push(`invalid: ${what}`),
  });
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: tools(),
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 30_000 },
    tasks: makeTasks({ afterMs: 100 }),
    state: store,
    cluster: (store, logger) => new StoreCluster(store, logger),
    env: { PETSTORE_API_KEY: API_KEY },
    credentials: upstreamCredentials([{ header: "X-Upstream-Key", scheme: "api_key" }]),
    // The per-connection tool choice (`?read_only=1`) is feature toolsets' slot.
    connectionChoices: (await toolsets.plugs({ flags: {}, env: {}, info, http: true, logger })).connectionChoices,
    extension: { tools: [asks, confirm] },
    logger,
  });
  await server.ready;
  const http = await startHttp(server, { host: "127.0.0.1", port: 0, sessions: httpSessions(store) });
  return { name, store, server, http, warnings };
}

test.before(async () => {
  const { redis: binary } = await scaleBinaries();
  redis = await startRedis(binary);
  monitor = await redis.monitor();
  upstream = await startUpstream((r) => {
    if (r.url.startsWith("/api/v1/pets/1"))
      return { status: 200, headers: { "content-type": "application/json" }, body: '{"id":1,"name":"Quick"}' };
    if (r.url.startsWith("/api/v1/pets/2"))
      return {
        status: 200,
        headers: { "content-type": "application/json" },
        body: '{"id":2,"name":"Slow"}',
        delayMs: 300,
      };
    return "hang";
  });
  for (const name of ["A", "B", "C"]) instances.push(await startInstance(name));
});

test.after(async () => {
  for (const instance of instances) {
    await instance.http.close();
    await instance.server.leaveCluster();
    await instance.store.close();
  }
  monitor?.close();
  await upstream?.close();
  await redis?.stop();
});

/** A plain Redis connection, as someone with access to Redis but not to the secret would have. */
async function openRawRedis(): Promise<import("ioredis").Redis> {
  const { Redis } = await import("ioredis");
  const client = new Redis(redis.url, { lazyConnect: true });
  await client.connect();
  return client;
}

let nextId = 1;
/** A modern request (2026-07-28) dispatched by one instance. */
async function modern(
  instance: Instance,
  method: string,
  params: Record<string, unknown> = {},
): Promise<JsonRpcResponse | undefined> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": TASKS_CAPS,
  };
  return instance.server.handle({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } });
}
function result(response: JsonRpcResponse | undefined): Record<string, any> {
  assert.ok(response && "result" in response, `expected a result, got ${JSON.stringify(response)}`);
  return (response as { result: Record<string, any> }).result;
}
const [A, B, C] = [0, 1, 2].map((i) => () => instances[i]!);

/** POSTs a legacy message through an instance's HTTP endpoint. */
async function legacy(
  instance: Instance,
  message: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(instance.http.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
  });
}

async function openSession(instance: Instance): Promise<string> {
  const init = await legacy(instance, {
    id: nextId++,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: { elicitation: {} },
      clientInfo: { name: "t", version: "1" },
    },
  });
  assert.is(init.status, 200);
  const session = init.headers.get("mcp-session-id");
  assert.ok(session);
  await init.text();
  return session!;
}

test("a task created on A is read through B, answered through C, and completes as seen through B", async () => {
  const created = result(await modern(A(), "tools/call", { name: "asks", arguments: {} }));
  assert.is(created.resultType, "task");
  const taskId = created.taskId as string;
  // B and C hold no live task: they read A's snapshot from Redis.
  let seen: Record<string, any> = {};
  await waitFor(async () => (seen = result(await modern(B(), "tasks/get", { taskId }))).status === "input_required");
  assert.equal(Object.keys(seen.inputRequests), ["colour"]);
  assert.is(result(await modern(C(), "tasks/get", { taskId })).status, "input_required");
  assert.is(
    result(
      await modern(C(), "tasks/update", {
        taskId,
        inputResponses: { colour: { action: "accept", content: { v: "teal" } } },
      }),
    ).resultType,
    "complete",
  );
  await waitFor(async () => (seen = result(await modern(B(), "tasks/get", { taskId }))).status === "completed");
  assert.is(seen.result.content[0].text, 'colour {"v":"teal"}');
  // Unknown ids are -32602 on every instance, as on one.
  const unknown = await modern(C(), "tasks/get", { taskId: "no-such-task" });
  assert.is((unknown as { error: { code: number } }).error.code, -32602);
});

test("tasks/cancel through B closes the upstream connection of the call running on A", async () => {
  const arrived = upstream.arrival("/pets/3");
  const created = result(await modern(A(), "tools/call", { name: "getPet", arguments: { petId: 3 } }));
  assert.is(created.resultType, "task");
  const request = await arrived;
  assert.is(request.headers["x-api-key"], API_KEY); // the credential went upstream (and, below, never to Redis)
  assert.is(result(await modern(B(), "tasks/cancel", { taskId: created.taskId })).resultType, "complete");
  const closed = await Promise.race([request.closed.then(() => true), pause(1_500).then(() => false)]);
  assert.ok(closed, "the upstream request on A was not aborted by the cancellation through B");
  await waitFor(async () => result(await modern(C(), "tasks/get", { taskId: created.taskId })).status === "cancelled");
  // Idempotent through yet another instance.
  assert.is(result(await modern(C(), "tasks/cancel", { taskId: created.taskId })).resultType, "complete");
});

test("legacy sessions: initialized on A, served by B and C (log level kept), deleted through C", async () => {
  const session = await openSession(A());
  const headers = { "mcp-session-id": session };
  const listed = await legacy(B(), { id: nextId++, method: "tools/list" }, headers);
  assert.is(listed.status, 200);
  assert.ok(((await listed.json()) as { result: { tools: unknown[] } }).result.tools.length > 0);
  assert.is(
    (await legacy(B(), { id: nextId++, method: "logging/setLevel", params: { level: "info" } }, headers)).status,
    200,
  );
  // The level set through B makes C send the call's log message (over SSE).
  const called = await legacy(
    C(),
    { id: nextId++, method: "tools/call", params: { name: "getPet", arguments: { petId: 1 } } },
    { ...headers, "x-upstream-key": PASSED_KEY },
  );
  const stream = await called.text();
  assert.match(stream, /notifications\/message/);
  assert.match(stream, /"level":"info"/);
  assert.is(upstream.received.at(-1)!.headers["x-api-key"], PASSED_KEY);
  assert.is((await fetch(C().http.url, { method: "DELETE", headers })).status, 204);
  assert.is((await legacy(A(), { id: nextId++, method: "tools/list" }, headers)).status, 404);
});

test("legacy sessions keep the tool choice of initialize's URL on every instance (read_only=1 on A, listed by B and C)", async () => {
  const init = await fetch(`${A().http.url}?read_only=1`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  const headers = { "mcp-session-id": init.headers.get("mcp-session-id")! };
  await init.text();
  const names = async (instance: Instance, extra: Record<string, string>) =>
    ((await (await legacy(instance, { id: nextId++, method: "tools/list" }, extra)).json()) as any).result.tools.map(
      (tool: { name: string }) => tool.name,
    ) as string[];
  const all = await names(B(), { "mcp-session-id": await openSession(A()) });
  assert.ok(all.includes("createPet"));
  for (const instance of [B(), C()]) {
    const listed = await names(instance, headers);
    assert.ok(listed.includes("getPet") && !listed.includes("createPet"), JSON.stringify(listed));
  }
});

test("legacy notifications/cancelled through B aborts the session's request running on A", async () => {
  const session = await openSession(A());
  const headers = { "mcp-session-id": session };
  const arrived = upstream.arrival("/pets/4");
  const id = nextId++;
  const pending = legacy(
    A(),
    { id, method: "tools/call", params: { name: "getPet", arguments: { petId: 4 } } },
    headers,
  ).catch(() => undefined);
  const request = await arrived;
  const sent = await legacy(
    B(),
    { method: "notifications/cancelled", params: { requestId: id, reason: "user stopped it" } },
    headers,
  );
  assert.is(sent.status, 202);
  const closed = await Promise.race([request.closed.then(() => true), pause(1_500).then(() => false)]);
  assert.ok(closed, "the upstream request on A was not aborted by the cancellation through B");
  assert.is((await pending)?.status, 202); // cancelled: no answer
});

test("legacy elicitation: asked over A's stream, answered through B, the call on A completes", async () => {
  const session = await openSession(A());
  const headers = { "mcp-session-id": session };
  const call = await legacy(
    A(),
    { id: nextId++, method: "tools/call", params: { name: "confirm", arguments: {} } },
    headers,
  );
  const reader = call.body!.getReader();
  let stream = "";
  while (!/elicitation\/create/.test(stream)) {
    const { value, done } = await reader.read();
    if (done) break;
    stream += Buffer.from(value).toString("utf8");
  }
  const asked = JSON.parse(/data: (.*elicitation\/create.*)/.exec(stream)![1]!) as { id: string };
  const answered = await legacy(B(), { id: asked.id, result: { action: "accept", content: { v: "yes" } } }, headers);
  assert.is(answered.status, 202);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    stream += Buffer.from(value).toString("utf8");
  }
  assert.match(stream, /answered \{\\"action\\":\\"accept\\",\\"content\\":\{\\"v\\":\\"yes\\"\}\}/);
});

test("legacy elicitation across instances: another session's answer through B is refused and logged on A; the asker's answer through B completes the call", async () => {
  // Issue 30, finding 1: answers were settled by id alone, on whichever instance held the request.
  const victim = await openSession(A());
  const attacker = await openSession(C());
  const call = await legacy(
    A(),
    { id: nextId++, method: "tools/call", params: { name: "confirm", arguments: {} } },
    { "mcp-session-id": victim },
  );
  const reader = call.body!.getReader();
  let stream = "";
  while (!/elicitation\/create/.test(stream)) {
    const { value, done } = await reader.read();
    if (done) break;
    stream += Buffer.from(value).toString("utf8");
  }
  const asked = JSON.parse(/data: (.*elicitation\/create.*)/.exec(stream)![1]!) as { id: string };
  const refusedBefore = A().warnings.filter((w) => /refused a client's answer/.test(w)).length;
  const forged = await legacy(
    B(),
    { id: asked.id, result: { action: "accept", content: { v: "attacker" } } },
    { "mcp-session-id": attacker },
  );
  assert.is(forged.status, 202);
  await waitFor(() => A().warnings.filter((w) => /refused a client's answer/.test(w)).length > refusedBefore);
  const answered = await legacy(
    B(),
    { id: asked.id, result: { action: "accept", content: { v: "victim" } } },
    { "mcp-session-id": victim },
  );
  assert.is(answered.status, 202);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    stream += Buffer.from(value).toString("utf8");
  }
  assert.match(stream, /answered \{\\"action\\":\\"accept\\",\\"content\\":\{\\"v\\":\\"victim\\"\}\}/);
  assert.not.match(stream, /attacker/);
});

test("a record tampered with in Redis is not served: the task reads as unknown on every instance, which logs it", async () => {
  // Issue 30, finding 6: tampered Redis records were served as they were.
  const created = result(await modern(A(), "tools/call", { name: "getPet", arguments: { petId: 2 } }));
  assert.is(created.resultType, "task");
  const taskId = created.taskId as string;
  await waitFor(async () => result(await modern(B(), "tasks/get", { taskId })).status === "completed");
  const forged = JSON.stringify({
    instance: "x",
    owner: null,
    expiresAt: Date.now() + 60_000,
    task: { taskId, status: "completed", result: { content: [{ type: "text", text: "forged" }] } },
  });
  // With read and write access to Redis but not the secret: overwrite every task record.
  const raw = await openRawRedis();
  try {
    const keys = await raw.keys("mcp:test:task:*");
    assert.ok(keys.length > 0, "task records are in Redis");
    for (const key of keys) assert.not.ok(key.includes(taskId), "the task id is not the key");
    for (const key of keys) await raw.set(key, forged, "PX", 60_000);
  } finally {
    raw.disconnect();
  }
  const seen = await modern(C(), "tasks/get", { taskId });
  assert.is((seen as { error: { code: number } }).error.code, -32602, JSON.stringify(seen));
  assert.ok(C().warnings.includes("invalid: a stored task record"), C().warnings.join(" | "));
});

test("a task whose instance stopped is reported failed by the others", async () => {
  const extra = await startInstance("D");
  try {
    const created = result(await modern(extra, "tools/call", { name: "getPet", arguments: { petId: 5 } }));
    assert.is(created.resultType, "task");
    assert.is(result(await modern(B(), "tasks/get", { taskId: created.taskId })).status, "working");
    await extra.server.leaveCluster(); // as a killed instance: its heartbeat is gone
    const task = result(await modern(B(), "tasks/get", { taskId: created.taskId }));
    assert.is(task.status, "failed");
    assert.match(task.error.message, /instance running this task stopped/);
    assert.is(result(await modern(C(), "tasks/get", { taskId: created.taskId })).status, "failed");
  } finally {
    await extra.http.close();
    await extra.store.close();
  }
});

test("Redis down: task and session calls fail clearly (503), plain calls work, slow calls stay synchronous; all recovers", async () => {
  const session = await openSession(A());
  const before = result(await modern(A(), "tools/call", { name: "asks", arguments: {} }));
  await redis.stop();
  await waitFor(() => !A().store.available() && !B().store.available());
  const get = await modern(B(), "tasks/get", { taskId: before.taskId });
  const failure = (get as { error: { code: number; message: string } }).error;
  assert.is(failure.code, -32603);
  assert.match(failure.message, /Task state unavailable: the state store \(Redis\)/);
  const legacyCall = await legacy(B(), { id: nextId++, method: "tools/list" }, { "mcp-session-id": session });
  assert.is(legacyCall.status, 503);
  assert.match(await legacyCall.text(), /Service Unavailable: legacy sessions are kept in the state store/);
  // Stateless calls need no Redis; a slow one is answered in line instead of becoming a task.
  assert.is(
    result(await modern(B(), "tools/call", { name: "getPet", arguments: { petId: 1 } })).structuredContent.name,
    "Quick",
  );
  const slow = result(await modern(C(), "tools/call", { name: "getPet", arguments: { petId: 2 } }));
  assert.is(slow.resultType, "complete");
  assert.is(slow.structuredContent.name, "Slow");

  await redis.start();
  monitor = await redis.monitor();
  await waitFor(() => instances.every((instance) => instance.store.available()), 10_000);
  await pause(200); // the subscriber connections renew their subscriptions
  const created = result(await modern(C(), "tools/call", { name: "getPet", arguments: { petId: 2 } }));
  assert.is(created.resultType, "task");
  await waitFor(async () => result(await modern(A(), "tasks/get", { taskId: created.taskId })).status === "completed");
  const reopened = await openSession(B());
  assert.is((await legacy(C(), { id: nextId++, method: "ping" }, { "mcp-session-id": reopened })).status, 200);
});

test("no secret reaches Redis: neither the environment's API key nor a passed-through header, in any command or stored value", async () => {
  // Both credentials were sent upstream by the tests above, on calls that were tasks and sessions.
  const sent = upstream.received.map((r) => r.headers["x-api-key"]);
  assert.ok(sent.includes(API_KEY) && sent.includes(PASSED_KEY), "the credentials were not exercised");
  // Once more, now that the monitor watches the restarted Redis: a task and a session call with both.
  const created = result(await modern(A(), "tools/call", { name: "getPet", arguments: { petId: 2 } }));
  await waitFor(async () => result(await modern(B(), "tasks/get", { taskId: created.taskId })).status === "completed");
  const session = await openSession(C());
  await (
    await legacy(
      A(),
      { id: nextId++, method: "tools/call", params: { name: "getPet", arguments: { petId: 1 } } },
      { "mcp-session-id": session, "x-upstream-key": PASSED_KEY },
    )
  ).text();
  await pause(100);
  const commands = monitor.text();
  assert.match(commands, /mcp:test:task:/); // the monitor saw the task writes
  assert.match(commands, /session:/);
  assert.not.match(commands, new RegExp(API_KEY));
  assert.not.match(commands, new RegExp(PASSED_KEY));
  assert.not.match(commands, /x-upstream-key|x-api-key/i);
  // Encrypted at rest, keys derived: neither the task's result nor its id, nor the session id, is readable there.
  assert.not.match(commands, /Slow|Quick|"status"|structuredContent/);
  assert.not.match(commands, created.taskId as string);
  assert.not.match(commands, session);
});

test.run();
