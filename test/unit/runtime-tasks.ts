/**
 * The tasks extension (SEP-2663) through the dispatcher: negotiation, server-directed task
 * creation with the immediate-result shortcut, tasks/get|update|cancel, input rounds, error
 * semantics, cancellation of the upstream HTTP call, expiry and the store's bound.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { CustomTool } from "../../runtime/src/api/extensions.js";
import { ErrorCode, RpcError, httpStatusOf, type JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import { McpServer, type McpServerOptions } from "../../runtime/src/server/server.js";
import { TASKS_EXTENSION } from "../../runtime/src/server/tasks-slot.js";
import { TaskStore } from "../../runtime/src/features/tasks/task-store.js";
import { makeTasks } from "../../runtime/src/features/tasks/index.js";
import { startHttp } from "../../runtime/src/transport/http.js";
import { info, sampleTools, startUpstream, within, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

let upstream: Upstream;
test.before(async () => {
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
});
test.after(async () => {
  await upstream.close();
});

const TASKS_CAPS = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} };
const meta = (capabilities: Record<string, unknown>) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});
let nextId = 1;
const req = (
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = TASKS_CAPS,
) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method,
  params: { ...params, _meta: { ...meta(capabilities), ...(params._meta as object | undefined) } },
});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function result(response: JsonRpcResponse | undefined): Record<string, any> {
  assert.ok(response && "result" in response, `expected a result, got ${JSON.stringify(response)}`);
  return (response as { result: Record<string, any> }).result;
}
function error(response: JsonRpcResponse | undefined): { code: number; message: string; data?: any } {
  assert.ok(response && "error" in response, `expected an error, got ${JSON.stringify(response)}`);
  return (response as { error: { code: number; message: string; data?: any } }).error;
}

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const NO_ARGS = { type: "object" as const, properties: {} };

/** A custom tool that waits `ms` (stopping early on abort) and records whether it saw the abort. */
function waiter(name: string, ms: number, seen: { aborted?: boolean } = {}): CustomTool<any> {
  return {
    name,
    description: name,
    inputSchema: NO_ARGS,
    taskSupport: "optional",
    handler: async (_args, tools) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        tools.signal.addEventListener("abort", () => {
          seen.aborted = true;
          clearTimeout(timer);
          resolve();
        });
      });
      return text(`${name} done`);
    },
  };
}

const make = (extra: Partial<McpServerOptions> = {}) =>
  new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    tasks: makeTasks({ afterMs: 100 }),
    ...extra,
  });

async function untilStatus(server: McpServer, taskId: string, wanted: string[]): Promise<Record<string, any>> {
  for (let i = 0; i < 100; i++) {
    const task = result(await server.handle(req("tasks/get", { taskId })));
    if (wanted.includes(task.status)) return task;
    await pause(20);
  }
  throw new Error(`task ${taskId} never reached ${wanted.join("/")}`);
}

test("server/discover advertises the extension under capabilities.extensions (never capabilities.tasks); off without the tasks feature", async () => {
  const caps = result(await make().handle(req("server/discover"))).capabilities;
  assert.equal(caps.extensions, { [TASKS_EXTENSION]: {} });
  assert.not.ok("tasks" in caps);
  const off = make({ tasks: undefined });
  assert.not.ok("extensions" in result(await off.handle(req("server/discover"))).capabilities);
  assert.is(error(await off.handle(req("tasks/get", { taskId: "x" }))).code, ErrorCode.MethodNotFound);
});

test("a generated tool answering within the deadline stays synchronous; a slower one becomes a task that completes with the upstream result", async () => {
  // A process's first upstream call also loads and compiles the HTTP client (over 100 ms on a busy
  // 2-core machine): made first without tasks, so that the deadline below measures a call.
  await make({ tasks: undefined }).handle(req("tools/call", { name: "getPet", arguments: { petId: 1 } }));
  const server = make();
  const quick = result(await server.handle(req("tools/call", { name: "getPet", arguments: { petId: 1 } })));
  assert.is(quick.resultType, "complete");
  assert.equal(quick.structuredContent, { id: 1, name: "Quick" });

  const created = result(await server.handle(req("tools/call", { name: "getPet", arguments: { petId: 2 } })));
  assert.is(created.resultType, "task");
  assert.type(created.taskId, "string");
  assert.is(created.status, "working");
  assert.ok(Number.isInteger(created.ttlMs) && created.ttlMs > 0 && Number.isInteger(created.pollIntervalMs));
  assert.ok(!Number.isNaN(Date.parse(created.createdAt)) && !Number.isNaN(Date.parse(created.lastUpdatedAt)));
  for (const key of ["result", "error", "inputRequests", "requestState", "task", "ttl", "pollInterval"])
    assert.not.ok(key in created, key);

  // Durable create: an immediate tasks/get resolves.
  const working = result(await server.handle(req("tasks/get", { taskId: created.taskId })));
  assert.is(working.taskId, created.taskId);
  assert.is(working.resultType, "complete");
  const done = await untilStatus(server, created.taskId, ["completed", "failed", "cancelled"]);
  assert.is(done.status, "completed");
  assert.equal(done.result.structuredContent, { id: 2, name: "Slow" });
  assert.not.ok(done.result._meta?.["io.modelcontextprotocol/related-task"]);
  assert.ok(Date.parse(done.lastUpdatedAt) >= Date.parse(done.createdAt));
});

test("without the extension on the request: slow calls stay synchronous, required-task tools get -32021 with requiredCapabilities, tasks/* get -32021", async () => {
  const required: CustomTool<any> = { ...waiter("needs_task", 10), taskSupport: "required" };
  const server = make({ extension: { tools: [required] } });
  const slow = result(await server.handle(req("tools/call", { name: "getPet", arguments: { petId: 2 } }, {})));
  assert.is(slow.resultType, "complete");
  assert.equal(slow.structuredContent, { id: 2, name: "Slow" });

  const refused = await server.handle(req("tools/call", { name: "needs_task", arguments: {} }, {}));
  assert.is(error(refused).code, ErrorCode.MissingRequiredClientCapability);
  assert.equal(error(refused).data, { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  assert.is(httpStatusOf(refused!), 400);
  for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
    assert.is(
      error(await server.handle(req(method, { taskId: "t", inputResponses: {} }, {}))).code,
      ErrorCode.MissingRequiredClientCapability,
      method,
    );
  }
  // Legacy era: no extension negotiation, the call runs in line and tasks/* do not exist.
  await server.handle({
    jsonrpc: "2.0",
    id: 900,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  const legacy = result(
    await server.handle({
      jsonrpc: "2.0",
      id: 901,
      method: "tools/call",
      params: { name: "needs_task", arguments: {} },
    }),
  );
  assert.equal(legacy.content, [{ type: "text", text: "needs_task done" }]);
  assert.is(
    error(await server.handle({ jsonrpc: "2.0", id: 902, method: "tasks/get", params: { taskId: "t" } })).code,
    ErrorCode.MethodNotFound,
  );
});

test("unknown task ids are -32602; removed v1 methods tasks/result and tasks/list are -32601; a legacy task param never creates a task", async () => {
  const server = make({
    extension: {
      tools: [
        {
          name: "sync_only",
          description: "s",
          inputSchema: NO_ARGS,
          handler: async () => (await pause(150), text("sync")),
        },
      ],
    },
  });
  for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
    assert.is(
      error(await server.handle(req(method, { taskId: "no-such-task", inputResponses: {} }))).code,
      ErrorCode.InvalidParams,
      method,
    );
  }
  for (const method of ["tasks/result", "tasks/list"])
    assert.is(error(await server.handle(req(method, { taskId: "x" }))).code, ErrorCode.MethodNotFound, method);
  const res = result(
    await server.handle(
      req("tools/call", { name: "sync_only", arguments: {}, task: { ttl: 60000, pollInterval: 100 } }),
    ),
  );
  assert.is(res.resultType, "complete");
  assert.not.ok("taskId" in res);
});

test("tasks/cancel aborts the upstream HTTP request, settles to cancelled, and is an idempotent empty ack", async () => {
  const server = make({ upstream: { baseUrl: upstream.baseUrl, timeoutMs: 30_000 } });
  const arrived = upstream.arrival("/pets/3");
  const created = result(await server.handle(req("tools/call", { name: "getPet", arguments: { petId: 3 } })));
  assert.is(created.resultType, "task");
  const upstreamRequest = await arrived;
  const ack = result(await server.handle(req("tasks/cancel", { taskId: created.taskId })));
  assert.equal(Object.keys(ack).sort(), ["_meta", "resultType"]);
  assert.is(ack.resultType, "complete");
  // The upstream connection is torn down at once (the upstream timeout is 30 s).
  const closedInTime = await Promise.race([upstreamRequest.closed.then(() => true), pause(1000).then(() => false)]);
  assert.ok(closedInTime, "tasks/cancel did not abort the upstream request");
  const task = result(await server.handle(req("tasks/get", { taskId: created.taskId })));
  assert.is(task.status, "cancelled");
  assert.not.ok("result" in task);
  assert.is(result(await server.handle(req("tasks/cancel", { taskId: created.taskId }))).resultType, "complete");
  await pause(50);
  assert.is(result(await server.handle(req("tasks/get", { taskId: created.taskId }))).status, "cancelled");
});

test("tool errors complete with result.isError; protocol errors fail with the JSON-RPC error and no result", async () => {
  const toolError: CustomTool<any> = {
    name: "tool_error",
    description: "e",
    inputSchema: NO_ARGS,
    taskSupport: "optional",
    handler: async () => (await pause(30), { ...text("nope"), isError: true }),
  };
  const protocolError: CustomTool<any> = {
    name: "protocol_error",
    description: "p",
    inputSchema: NO_ARGS,
    taskSupport: "optional",
    handler: async () => {
      await pause(30);
      throw new RpcError(ErrorCode.InternalError, "boom", { why: "test" });
    },
  };
  const server = make({ extension: { tools: [toolError, protocolError] } });
  const a = result(await server.handle(req("tools/call", { name: "tool_error", arguments: {} })));
  const completed = await untilStatus(server, a.taskId, ["completed", "failed"]);
  assert.is(completed.status, "completed");
  assert.is(completed.result.isError, true);
  const b = result(await server.handle(req("tools/call", { name: "protocol_error", arguments: {} })));
  const failed = await untilStatus(server, b.taskId, ["completed", "failed"]);
  assert.is(failed.status, "failed");
  assert.equal(failed.error, { code: ErrorCode.InternalError, message: "boom", data: { why: "test" } });
  assert.not.ok("result" in failed);
});

test("input rounds: MRTR stays synchronous before the task, then input_required inside it, partial tasks/update, unique keys, resumed result", async () => {
  const asks: CustomTool<any> = {
    name: "asks",
    description: "asks",
    inputSchema: NO_ARGS,
    taskSupport: "required",
    handler: async (_args, tools) => {
      const ask = (message: string) => ({
        method: "elicitation/create" as const,
        params: { message, requestedSchema: { type: "object", properties: { v: { type: "string" } } } },
      });
      const state = tools.state as { round: number; name: unknown } | undefined;
      const { name, a, b } = tools.inputResponses;
      if (!state && !name) return tools.inputRequired({ name: ask("name?") }); // answered before any task exists
      await pause(30);
      if (!state) return tools.inputRequired({ a: ask("a?"), b: ask("b?") }, { round: 1, name: name!.content });
      if (state.round === 1)
        return tools.inputRequired({ a: ask("a again?") }, { ...state, round: 2, first: [a!.content, b!.content] });
      return text(JSON.stringify({ state, last: a!.content }));
    },
  };
  const server = make({ extension: { tools: [asks] } });
  const round1 = result(await server.handle(req("tools/call", { name: "asks", arguments: {} })));
  assert.is(round1.resultType, "input_required");
  assert.not.ok("taskId" in round1);
  const created = result(
    await server.handle(
      req("tools/call", {
        name: "asks",
        arguments: {},
        inputResponses: { name: { action: "accept", content: { v: "Ada" } } },
      }),
    ),
  );
  assert.is(created.resultType, "task");
  assert.not.ok("requestState" in created);

  let task = await untilStatus(server, created.taskId, ["input_required"]);
  assert.equal(Object.keys(task.inputRequests).sort(), ["a", "b"]);
  assert.is(task.inputRequests.a.method, "elicitation/create");
  assert.not.ok("requestState" in task);
  // Unknown keys are ignored; a partial answer keeps the task waiting for the rest.
  assert.is(
    result(
      await server.handle(
        req("tasks/update", {
          taskId: created.taskId,
          inputResponses: { a: { action: "accept", content: { v: "1" } }, zzz: {} },
        }),
      ),
    ).resultType,
    "complete",
  );
  task = result(await server.handle(req("tasks/get", { taskId: created.taskId })));
  assert.is(task.status, "input_required");
  assert.equal(Object.keys(task.inputRequests), ["b"]);
  assert.is(
    error(await server.handle(req("tasks/update", { taskId: created.taskId, inputResponses: { b: 5 } }))).code,
    ErrorCode.InvalidParams,
  );
  await server.handle(
    req("tasks/update", { taskId: created.taskId, inputResponses: { b: { action: "accept", content: { v: "2" } } } }),
  );

  // The second round asks "a" again: the client sees a fresh key, the handler its own.
  task = await untilStatus(server, created.taskId, ["input_required"]);
  assert.equal(Object.keys(task.inputRequests), ["a~2"]);
  await server.handle(
    req("tasks/update", {
      taskId: created.taskId,
      inputResponses: { "a~2": { action: "accept", content: { v: "3" } } },
    }),
  );
  const done = await untilStatus(server, created.taskId, ["completed", "failed"]);
  assert.is(done.status, "completed");
  assert.equal(JSON.parse(done.result.content[0].text), {
    state: { round: 2, name: { v: "Ada" }, first: [{ v: "1" }, { v: "2" }] },
    last: { v: "3" },
  });
});

test("the requester leaving before the deadline aborts the work; after the task exists, only tasks/cancel does", async () => {
  const before: { aborted?: boolean } = {};
  const after: { aborted?: boolean } = {};
  const server = make({
    extension: { tools: [{ ...waiter("w1", 5000, before), taskAfterMs: 1000 }, waiter("w2", 300, after)] },
  });
  const leaving = new AbortController();
  const pending = server.handle(req("tools/call", { name: "w1", arguments: {} }), { signal: leaving.signal });
  await pause(30);
  leaving.abort();
  assert.is(await pending, undefined);
  assert.ok(before.aborted);

  const gone = new AbortController();
  const created = result(
    await server.handle(req("tools/call", { name: "w2", arguments: {} }), { signal: gone.signal }),
  );
  gone.abort();
  const done = await untilStatus(server, created.taskId, ["completed", "failed", "cancelled"]);
  assert.is(done.status, "completed");
  assert.not.ok(after.aborted);
});

test("progress notifications reach the original stream only until the call becomes a task", async () => {
  const progressing: CustomTool<any> = {
    name: "progressing",
    description: "p",
    inputSchema: NO_ARGS,
    taskSupport: "optional",
    handler: async (_args, tools) => {
      tools.progress(1, 2);
      await pause(60);
      tools.progress(2, 2);
      return text("ok");
    },
  };
  const server = make({ extension: { tools: [progressing] } });
  const sent: unknown[] = [];
  const created = result(
    await server.handle(
      req("tools/call", { name: "progressing", arguments: {}, _meta: { ...meta(TASKS_CAPS), progressToken: "p1" } }),
      { notify: (m) => sent.push(m) },
    ),
  );
  await untilStatus(server, created.taskId, ["completed"]);
  assert.is(sent.length, 1);
  assert.equal((sent[0] as { params: unknown }).params, { progressToken: "p1", progress: 1, total: 2 });
});

test("over Streamable HTTP: the task outlives its answered request; tasks/* need Mcp-Name = taskId (400 + -32020 otherwise)", async () => {
  const server = make({ extension: { tools: [waiter("http_job", 200)] } });
  const http = await startHttp(server, { host: "127.0.0.1", port: 0 });
  try {
    const post = async (method: string, params: Record<string, unknown>, name: string | null) => {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
      };
      if (name !== null) headers["mcp-name"] = name;
      const res = await fetch(http.url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta(TASKS_CAPS) } }),
      });
      return {
        status: res.status,
        body: (await res.json()) as { result?: Record<string, any>; error?: { code: number } },
      };
    };
    const created = await post("tools/call", { name: "http_job", arguments: {} }, "http_job");
    assert.is(created.status, 200);
    const taskId = created.body.result!.taskId as string;
    assert.is(created.body.result!.resultType, "task");
    for (const wrong of ["someone-else", null]) {
      const refused = await post("tasks/get", { taskId }, wrong);
      assert.is(refused.status, 400);
      assert.is(refused.body.error?.code, ErrorCode.HeaderMismatch);
    }
    let status = "working";
    for (let i = 0; i < 50 && status === "working"; i++) {
      await pause(20);
      status = (await post("tasks/get", { taskId }, taskId)).body.result!.status;
    }
    assert.is(status, "completed");
  } finally {
    await http.close();
  }
});

test("subscriptions/listen with taskIds: the ack names the tasks held here, then notifications/tasks carry each status change", async () => {
  const server = make({ extension: { tools: [waiter("watched", 150)] } });
  const created = result(await server.handle(req("tools/call", { name: "watched", arguments: {} })));
  const refused = await server.handle(
    req("subscriptions/listen", { notifications: { taskIds: [created.taskId] } }, {}),
    { notify: () => {} },
  );
  assert.is(error(refused).code, ErrorCode.MissingRequiredClientCapability);

  const sent: Array<{ method: string; params: Record<string, any> }> = [];
  const listenRequest = req("subscriptions/listen", { notifications: { taskIds: [created.taskId, "not-here"] } });
  const listening = server.handle(listenRequest, { notify: (m) => sent.push(m as (typeof sent)[number]) });
  for (let i = 0; i < 100 && !sent.some((m) => m.method === "notifications/tasks"); i++) await pause(10);
  server.closeSubscriptions();
  const closing = result(await listening);
  assert.is(closing._meta["io.modelcontextprotocol/subscriptionId"], listenRequest.id);
  assert.is(sent[0]!.method, "notifications/subscriptions/acknowledged");
  assert.equal(sent[0]!.params.notifications, { taskIds: [created.taskId] });
  const update = sent.find((m) => m.method === "notifications/tasks")!;
  assert.is(update.params.taskId, created.taskId);
  assert.is(update.params.status, "completed");
  assert.equal(update.params.result.content, [{ type: "text", text: "watched done" }]);
  assert.is(update.params._meta["io.modelcontextprotocol/subscriptionId"], listenRequest.id);
});

test("with an authenticated subject (OAuth mode), a task exists only for the subject that created it", async () => {
  const server = make({ extension: { tools: [waiter("owned", 300)] } });
  const created = result(
    await server.handle(req("tools/call", { name: "owned", arguments: {} }), { subject: "alice" }),
  );
  assert.is(created.resultType, "task");
  for (const caller of ["bob", undefined]) {
    for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
      const refused = await server.handle(
        req(method, { taskId: created.taskId, inputResponses: {} }),
        caller === undefined ? {} : { subject: caller },
      );
      assert.is(error(refused).code, ErrorCode.InvalidParams, `${method} as ${caller}`);
    }
  }
  assert.is(
    result(await server.handle(req("tasks/get", { taskId: created.taskId }), { subject: "alice" })).status,
    "working",
  );
  assert.is(
    result(await server.handle(req("tasks/cancel", { taskId: created.taskId }), { subject: "alice" })).resultType,
    "complete",
  );
});

test("TaskStore: tasks expire after ttlMs (unfinished ones are aborted) and the store is bounded (full → synchronous answer)", async () => {
  let now = 1_000_000;
  const store = new TaskStore({ ttlMs: 1000, maxTasks: 2 }, () => now);
  const never = new AbortController().signal;
  const signals: AbortSignal[] = [];
  const slow = (ms: number) => async (round: { signal: AbortSignal }) => {
    signals.push(round.signal);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      round.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()));
    });
    return text("late");
  };
  const first = await store.start(slow(5000), 0, never);
  const second = await store.start(slow(5000), 0, never);
  assert.is(first.resultType, "task");
  assert.is(second.resultType, "task");
  // Full of unfinished tasks: the third call is answered synchronously.
  const third = await store.start(slow(20), 0, never);
  assert.equal(third, text("late"));
  assert.is(store.size, 2);
  now += 999;
  assert.is(store.get(first.taskId).taskId, first.taskId); // not before its TTL
  now += 2;
  assert.throws(
    () => store.get(first.taskId),
    (e: RpcError) => e.code === ErrorCode.InvalidParams,
  );
  assert.ok(signals[0]!.aborted && signals[1]!.aborted);
  assert.is(store.size, 0);
});

test("TaskStore: a finished task keeps its slot until its TTL ends (no early eviction); status changes reach subscribers", async () => {
  let now = 5_000_000;
  const store = new TaskStore({ maxTasks: 1, ttlMs: 60_000 }, () => now);
  const seen: string[] = [];
  const unsubscribe = store.subscribe((task) => seen.push(`${task.taskId}:${task.status}`));
  const work = async () => (await pause(20), text("x"));
  const a = await store.start(work, 0, new AbortController().signal);
  await within(
    new Promise<void>((resolve) => {
      if (store.get(a.taskId).status === "completed") return resolve();
      const stop = store.subscribe(
        (task) => task.taskId === a.taskId && task.status === "completed" && (stop(), resolve()),
      );
    }),
    5_000,
    "the first task completes",
  );
  assert.equal(await store.start(work, 0, new AbortController().signal), text("x"), "full: answered synchronously");
  assert.is(store.get(a.taskId).status, "completed");
  now += 60_001;
  const b = await store.start(work, 0, new AbortController().signal);
  assert.is(b.resultType, "task");
  assert.throws(
    () => store.get(a.taskId),
    (e: RpcError) => e.code === ErrorCode.InvalidParams,
  );
  assert.equal(seen, [`${a.taskId}:completed`]);
  unsubscribe();
});

test.run();
