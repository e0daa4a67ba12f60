import { test } from "uvu";
import * as assert from "uvu/assert";
import { defineExtension } from "../../runtime/src/features/custom/define-extension.js";
import { matchUriTemplate } from "../../runtime/src/features/custom/uri-template.js";
import {
  ErrorCode,
  httpStatusOf,
  type JsonRpcNotification,
  type JsonRpcResponse,
} from "../../runtime/src/protocol/jsonrpc.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp } from "../../runtime/src/transport/http.js";
import { info, sampleTools, startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";
import { httpSessions } from "../../runtime/src/features/sessions/index.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";

let upstream: Upstream;
test.before(async () => {
  upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"id":42,"name":"Rex"}',
  }));
});
test.after(async () => {
  await upstream.close();
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const seenArgs: unknown[] = [];
const extension = defineExtension({
  tools: [
    {
      name: "echo",
      description: "Echoes its text with progress.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      handler: (args: { text: string }, tools) => {
        tools.progress(1, 1);
        return { content: [{ type: "text", text: args.text }] };
      },
    },
    {
      name: "boom",
      description: "Fails.",
      inputSchema: { type: "object" },
      handler: () => Promise.reject(new Error("kaput")),
    },
    {
      name: "needs_sampling",
      description: "Needs sampling.",
      inputSchema: { type: "object" },
      handler: (_a, tools) => {
        tools.requireClientCapability("sampling");
        return { content: [{ type: "text", text: "ok" }] };
      },
    },
  ],
  resources: [{ uri: "x://fixed", name: "fixed", read: () => [{ uri: "x://fixed", text: "fixed!" }] }],
  resourceTemplates: [
    {
      uriTemplate: "x://items/{id}",
      name: "item",
      read: (uri, v) => [{ uri, text: `item ${v.id}` }],
      complete: (_v, p) => ["a1", "b2"].filter((x) => x.startsWith(p)),
    },
  ],
  prompts: [
    {
      name: "greet",
      arguments: [{ name: "who", required: true }],
      get: ({ who }) => ({ messages: [{ role: "user", content: { type: "text", text: `hi ${who}` } }] }),
      complete: () => ["world"],
    },
  ],
  hooks: {
    beforeCall: (tool, args) => {
      seenArgs.push(args);
      if (tool.name === "listPets") return { content: [{ type: "text", text: "short-circuited" }] };
      return tool.name === "getPet" ? { ...args, petId: 42 } : undefined;
    },
    afterCall: (_tool, _args, result) => ({ ...result, content: [...result.content, { type: "text", text: "after" }] }),
  },
});

const make = () =>
  new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    extension,
  });
const req = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { _meta: META, ...params },
});
function result(r: JsonRpcResponse | undefined): Record<string, any> {
  assert.ok(r && "result" in r, JSON.stringify(r));
  return (r as { result: Record<string, any> }).result;
}

test("custom tools are listed after the generated ones and run with validation, progress and errors", async () => {
  const server = make();
  const names = result(await server.handle(req(1, "tools/list"))).tools.map((t: { name: string }) => t.name);
  assert.equal(names.slice(-3), ["echo", "boom", "needs_sampling"]);
  const seen: JsonRpcNotification[] = [];
  const echo = result(
    await server.handle(
      req(2, "tools/call", { name: "echo", arguments: { text: "hey" }, _meta: { ...META, progressToken: 1 } }),
      { notify: (n) => seen.push(n) },
    ),
  );
  assert.equal(echo.content, [{ type: "text", text: "hey" }]);
  assert.is(seen[0]!.method, "notifications/progress");
  assert.ok(
    result(await server.handle(req(3, "tools/call", { name: "echo", arguments: {} }))).isError,
    "schema-invalid → isError",
  );
  const boom = result(await server.handle(req(4, "tools/call", { name: "boom" })));
  assert.equal(boom.content, [{ type: "text", text: "kaput" }]);
  assert.ok(boom.isError);
});

test("a missing client capability is -32021 with requiredCapabilities, HTTP 400", async () => {
  const server = make();
  const res = await server.handle(req(1, "tools/call", { name: "needs_sampling" }));
  assert.ok(res && "error" in res);
  const err = (res as { error: { code: number; data: unknown } }).error;
  assert.is(err.code, ErrorCode.MissingRequiredClientCapability);
  assert.equal(err.data, { requiredCapabilities: { sampling: {} } });
  assert.is(httpStatusOf(res!), 400);
  const ok = await server.handle({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: {
      name: "needs_sampling",
      _meta: { ...META, "io.modelcontextprotocol/clientCapabilities": { sampling: {} } },
    },
  });
  assert.is(result(ok).content[0].text, "ok");
});

test("hooks rewrite arguments, short-circuit, and post-process upstream results", async () => {
  const server = make();
  const pet = result(await server.handle(req(1, "tools/call", { name: "getPet", arguments: { petId: 1 } })));
  assert.equal(pet.structuredContent, { id: 42, name: "Rex" });
  assert.is(pet.content.at(-1).text, "after");
  assert.ok(upstream.received.at(-1)!.url.includes("/pets/42"));
  const before = upstream.received.length;
  const listed = result(await server.handle(req(2, "tools/call", { name: "listPets", arguments: {} })));
  assert.equal(listed.content, [{ type: "text", text: "short-circuited" }]);
  assert.is(upstream.received.length, before, "no upstream call");
});

test("custom resources, templates, prompts and their completions", async () => {
  const server = make();
  const list = result(await server.handle(req(1, "resources/list"))).resources.map((r: { uri: string }) => r.uri);
  assert.is(list[0], "x://fixed");
  assert.equal(result(await server.handle(req(2, "resources/read", { uri: "x://fixed" }))).contents, [
    { uri: "x://fixed", text: "fixed!" },
  ]);
  assert.equal(result(await server.handle(req(3, "resources/read", { uri: "x://items/7" }))).contents, [
    { uri: "x://items/7", text: "item 7" },
  ]);
  assert.is(
    result(await server.handle(req(4, "resources/templates/list"))).resourceTemplates[0].uriTemplate,
    "x://items/{id}",
  );
  const values = (ref: unknown, name: string, value: string) =>
    server
      .handle(req(5, "completion/complete", { ref, argument: { name, value } }))
      .then((r) => result(r).completion.values);
  assert.equal(await values({ type: "ref/resource", uri: "x://items/{id}" }, "id", "b"), ["b2"]);
  assert.equal(await values({ type: "ref/prompt", name: "greet" }, "who", ""), ["world"]);
  assert.equal(result(await server.handle(req(6, "prompts/list"))).prompts, [
    { name: "greet", arguments: [{ name: "who", required: true }] },
  ]);
  assert.is(
    result(await server.handle(req(7, "prompts/get", { name: "greet", arguments: { who: "you" } }))).messages[0].content
      .text,
    "hi you",
  );
  const missing = await server.handle(req(8, "prompts/get", { name: "greet", arguments: {} }));
  assert.is((missing as { error: { code: number } }).error.code, ErrorCode.InvalidParams);
  assert.equal(matchUriTemplate("a://{x}/b", "a://1/b"), { x: "1" });
  assert.is(matchUriTemplate("a://{x}/b", "a://1/2/b"), undefined);
});

test("without feature custom: no prompts, an unknown prompt is -32602, the generated resources and templates alone", async () => {
  const server = new McpServer({ info, tools: sampleTools(), upstream: { baseUrl: upstream.baseUrl } });
  assert.equal(result(await server.handle(req(1, "prompts/list"))).prompts, []);
  const errorOf = async (method: string, params: Record<string, unknown>) =>
    ((await server.handle(req(2, method, params))) as { error: { code: number; message: string } }).error;
  const unknown = await errorOf("prompts/get", { name: "greet", arguments: {} });
  assert.equal([unknown.code, unknown.message], [ErrorCode.InvalidParams, "Unknown prompt: greet"]);
  const completion = await errorOf("completion/complete", {
    ref: { type: "ref/prompt", name: "greet" },
    argument: { name: "who", value: "" },
  });
  assert.equal([completion.code, completion.message], [ErrorCode.InvalidParams, "Unknown prompt: greet"]);
  const templates = result(await server.handle(req(3, "resources/templates/list"))).resourceTemplates;
  assert.equal(
    templates.map((t: { uriTemplate: string }) => t.uriTemplate),
    ["openapi://operations/{operation}"],
  );
  const operation = sampleTools()[0]!.name;
  const values = result(
    await server.handle(
      req(4, "completion/complete", {
        ref: { type: "ref/resource", uri: "openapi://operations/{operation}" },
        argument: { name: "operation", value: operation },
      }),
    ),
  ).completion.values;
  assert.ok(values.includes(operation), JSON.stringify(values));
});

test("legacy HTTP sessions: random id on initialize, required after, 404 once deleted", async () => {
  const http = await startHttp(make(), { host: "127.0.0.1", port: 0, sessions: httpSessions(new MemoryStateStore()) });
  try {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await fetch(http.url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {} },
      }),
    });
    const id = init.headers.get("mcp-session-id");
    await init.arrayBuffer();
    assert.match(id ?? "", /^[0-9a-f]{32}$/);
    const ping = (sessionId?: string) =>
      fetch(http.url, {
        method: "POST",
        headers: { ...headers, ...(sessionId ? { "mcp-session-id": sessionId } : {}) },
        body: '{"jsonrpc":"2.0","id":2,"method":"ping"}',
      });
    const ok = await ping(id!);
    assert.is(ok.status, 200);
    await ok.arrayBuffer();
    const none = await ping();
    assert.is(none.status, 400);
    await none.arrayBuffer();
    const del = await fetch(http.url, { method: "DELETE", headers: { "mcp-session-id": id! } });
    assert.is(del.status, 204);
    const gone = await ping(id!);
    assert.is(gone.status, 404);
    await gone.arrayBuffer();
    const modern = await fetch(http.url, {
      method: "POST",
      headers: { ...headers, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
      body: JSON.stringify(req(3, "tools/list")),
    });
    assert.is(modern.status, 200, "modern requests never need a session");
    await modern.arrayBuffer();
  } finally {
    await http.close();
  }
});

test.run();
