import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp, type HttpHandle } from "../../runtime/src/transport/http.js";
import { info, sampleTools } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";
import type { MakeHttpEndpoints } from "../../runtime/src/transport/http-plugs.js";

let http: HttpHandle;

test.before(async () => {
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: "http://127.0.0.1:1" },
  });
  http = await startHttp(server, { host: "127.0.0.1", port: 0, maxBodyBytes: 1024 * 1024 });
});
test.after(async () => {
  await http.close();
});

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(http.url, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

test("binds loopback on an ephemeral port", () => {
  assert.is(http.host, "127.0.0.1");
  assert.ok(http.port > 0);
  assert.is(http.url, `http://127.0.0.1:${http.port}/mcp`);
});

test("POST initialize answers JSON", async () => {
  const res = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  assert.is(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", "application/json");
  const body = (await res.json()) as { id: number; result: { protocolVersion: string } };
  assert.is(body.id, 1);
  assert.is(body.result.protocolVersion, "2025-11-25");
});

test("tools/list over HTTP with protocol header", async () => {
  const res = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" });
  assert.is(res.status, 200);
  const body = (await res.json()) as { result: { tools: unknown[] } };
  assert.is(body.result.tools.length, 5);
});

test("idle keep-alive connections are kept 65 s (a client that spends seconds on a large answer reuses its connection)", async () => {
  const { request } = await import("node:http");
  const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const req = request(http.url, { method: "POST", headers: JSON_HEADERS }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.headers));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }));
  });
  assert.is(headers["keep-alive"], "timeout=65");
});

test("notification → 202 with no body", async () => {
  const res = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  assert.is(res.status, 202);
  assert.is(await res.text(), "");
});

test("GET and DELETE → 405 with Allow: POST", async () => {
  for (const method of ["GET", "DELETE"]) {
    const res = await fetch(http.url, { method, headers: { accept: "text/event-stream" } });
    assert.is(res.status, 405);
    assert.is(res.headers.get("allow"), "POST");
    await res.arrayBuffer();
  }
});

test("foreign Origin → 403, loopback Origin allowed", async () => {
  const bad = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { origin: "http://evil.example.com" });
  assert.is(bad.status, 403);
  await bad.arrayBuffer();
  const good = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { origin: `http://localhost:${http.port}` });
  assert.is(good.status, 200);
  assert.equal(await good.json(), { jsonrpc: "2.0", id: 1, result: {} });
});

test("unsupported MCP-Protocol-Version → 400", async () => {
  const res = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-protocol-version": "1999-01-01" });
  assert.is(res.status, 400);
  await res.arrayBuffer();
});

test("other paths → 404; bad Accept → 406; invalid JSON → 400 -32700", async () => {
  const other = await fetch(`http://127.0.0.1:${http.port}/other`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: "{}",
  });
  assert.is(other.status, 404);
  await other.arrayBuffer();
  const accept = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { accept: "text/html" });
  assert.is(accept.status, 406);
  await accept.arrayBuffer();
  const parse = await post("{oops");
  assert.is(parse.status, 400);
  assert.is(((await parse.json()) as { error: { code: number } }).error.code, -32700);
});

test("batch: array answer under 2025-03-26 (header absent), rejected under 2025-06-18", async () => {
  const batch = [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", id: 2, method: "ping" },
  ];
  const ok = await post(batch);
  assert.is(ok.status, 200);
  assert.equal(
    ((await ok.json()) as Array<{ id: number }>).map((r) => r.id),
    [1, 2],
  );
  const rejected = await post(batch, { "mcp-protocol-version": "2025-06-18" });
  assert.is(rejected.status, 400);
  assert.is(((await rejected.json()) as { error: { code: number } }).error.code, -32600);
});

test("oversized body → 413", async () => {
  const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024 + 10) } });
  const res = await post(big);
  assert.is(res.status, 413);
  await res.arrayBuffer();
});

test("the endpoints of several features: each path goes to the one that owns it; a public one skips the user header", async () => {
  const closed: string[] = [];
  const endpoints =
    (prefix: string, publicPath?: string): MakeHttpEndpoints =>
    () => ({
      owns: (pathname) => pathname.startsWith(prefix),
      isPublic: (pathname) => pathname === publicPath,
      handle: async (_req, res, pathname) => void res.writeHead(200).end(`${prefix} ${pathname}`),
      closeAll: () => void closed.push(prefix),
    });
  const http = await startHttp(new McpServer({ info, tools: sampleTools(), upstream: {} }), {
    host: "127.0.0.1",
    port: 0,
    endpoints: [endpoints("/a", "/a/open"), endpoints("/b")],
    userHeader: "X-User",
  });
  const base = `http://127.0.0.1:${http.port}`;
  try {
    const get = async (path: string, headers: Record<string, string> = { "x-user": "u" }) => {
      const response = await fetch(base + path, { headers });
      return `${response.status} ${await response.text()}`;
    };
    assert.is(await get("/a/x"), "200 /a /a/x");
    assert.is(await get("/b/y"), "200 /b /b/y");
    assert.match(await get("/c"), /^404/);
    assert.match(await get("/b/y", {}), /^401/);
    assert.is(await get("/a/open", {}), "200 /a /a/open");
  } finally {
    await http.close();
  }
  assert.equal(closed, ["/a", "/b"]);
});

test.run();
