/**
 * Feature `fetch`: the MCP endpoint as a Web-standard `(Request) => Promise<Response>` handler,
 * called directly (no network between the test and the handler), and `serveFetch`, which builds the
 * server from an environment and sends upstream calls through the platform's fetch. The modern era
 * over the same handler is runtime-http-modern.ts (both transports).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpServer } from "../../runtime/src/server/server.js";
import { bundledData, createFetchHandler, serveFetch } from "../../runtime/src/features/fetch/index.js";
import { compilePortable } from "../../runtime/src/features/fetch/portable-validator.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import { info, sampleTools, startUpstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

const server = new McpServer({
  ...apiFeatures,
  info,
  tools: sampleTools(),
  upstream: { baseUrl: "http://127.0.0.1:1" },
});
const handler = createFetchHandler(server, { maxBodyBytes: 1024 });
const URL_ = "https://mcp.example.com/mcp";
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function post(body: unknown, headers: Record<string, string> = {}, url = URL_): Promise<Response> {
  return handler(
    new Request(url, {
      method: "POST",
      headers: { ...JSON_HEADERS, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

test("legacy era without sessions: initialize and tools/list answer JSON, a notification 202", async () => {
  const init = await post(INITIALIZE);
  assert.is(init.status, 200);
  assert.match(init.headers.get("content-type") ?? "", "application/json");
  assert.is(init.headers.get("mcp-session-id"), null);
  assert.is(((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion, "2025-06-18");
  const list = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-protocol-version": "2025-06-18" });
  assert.is(((await list.json()) as { result: { tools: unknown[] } }).result.tools.length, 5);
  const note = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  assert.is(note.status, 202);
  assert.is(await note.text(), "");
});

test("refusals: GET/DELETE 405 (Allow: POST), foreign Origin 403, other path 404, Accept 406, bad JSON 400", async () => {
  for (const method of ["GET", "DELETE"]) {
    const res = await handler(new Request(URL_, { method }));
    assert.is(res.status, 405, method);
    assert.is(res.headers.get("allow"), "POST");
  }
  assert.is((await post(INITIALIZE, { origin: "https://evil.example.com" })).status, 403);
  assert.is((await post(INITIALIZE, { origin: "http://localhost:8787" })).status, 200);
  assert.is((await post(INITIALIZE, {}, "https://mcp.example.com/other")).status, 404);
  assert.is((await post(INITIALIZE, { accept: "text/html" })).status, 406);
  const parse = await post("{oops");
  assert.is(parse.status, 400);
  assert.is(((await parse.json()) as { error: { code: number } }).error.code, -32700);
});

test("a body over the limit → 413, whether declared or streamed", async () => {
  const big = JSON.stringify({ ...INITIALIZE, params: { pad: "x".repeat(2048) } });
  assert.is((await post(big)).status, 413);
  const streamed = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode("x".repeat(512)));
      controller.close();
    },
  });
  const res = await handler(
    new Request(URL_, { method: "POST", headers: JSON_HEADERS, body: streamed, duplex: "half" } as RequestInit),
  );
  assert.is(res.status, 413);
});

test("the Host check when allowed hosts are given; none by default", async () => {
  const checked = createFetchHandler(server, { allowedHosts: ["mcp.example.com"] });
  const request = (url: string) =>
    new Request(url, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(INITIALIZE) });
  assert.is((await checked(request("https://mcp.example.com/mcp"))).status, 200);
  assert.is((await checked(request("https://other.example.com/mcp"))).status, 403);
  assert.is((await handler(request("https://other.example.com/mcp"))).status, 200);
});

test("serveFetch: settings from the environment, upstream calls through fetch, a bad setting answers 500", async () => {
  const upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"id":42,"name":"Rex"}',
  }));
  try {
    const serve = serveFetch(info, sampleTools(), { env: { API_BASE_URL: upstream.baseUrl } });
    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "getPet", arguments: { petId: 42 } } };
    const res = await serve(new Request(URL_, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(call) }));
    const body = (await res.json()) as { result: { structuredContent: unknown } };
    assert.equal(body.result.structuredContent, { id: 42, name: "Rex" });
    assert.is(upstream.received.length, 1);
    assert.is(upstream.received[0]!.url, "/api/v1/pets/42");
    // Sent by the platform's fetch (undici here), not got: fetch marks its requests so.
    assert.is(upstream.received[0]!.headers["sec-fetch-mode"], "cors");
    const bad = serveFetch(info, sampleTools(), { env: { API_BASE_URL: "ftp://nowhere" } });
    const refused = await bad(new Request(URL_, { method: "POST", headers: JSON_HEADERS, body: "{}" }));
    assert.is(refused.status, 500);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /invalid base URL/);
  } finally {
    await upstream.close();
  }
});

test("the portable validator (no code generation) reports problems as ajv's are worded: path and message", () => {
  const validator = new SchemaValidator(undefined, compilePortable);
  const schema = {
    type: "object",
    required: ["petId"],
    properties: { petId: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
    additionalProperties: false,
  };
  assert.equal(validator.validate(schema, { petId: 1, tags: ["a"] }, "t"), { ok: true });
  const outcome = validator.validate(schema, { tags: [1], extra: true }, "t");
  assert.is(outcome.ok, false);
  const errors = outcome.ok ? [] : outcome.errors;
  assert.ok(
    errors.some((error) => /required property "petId"/.test(error)),
    errors.join("; "),
  );
  assert.ok(
    errors.some((error) => error.startsWith("/tags/0 ")),
    errors.join("; "),
  );
  assert.ok(
    errors.some((error) => /extra/.test(error)),
    errors.join("; "),
  );
  assert.not.ok(errors.some((error) => /does not match schema\.$/.test(error) && !/additional/.test(error)));
});

test("bundled data files: whole, absent, and byte ranges of UTF-8 text", () => {
  const data = bundledData({ "a.json": '{"name":"héllo"}', "b.txt": "0000000000" });
  assert.is(data.read("a.json"), '{"name":"héllo"}');
  assert.is(data.readData("missing.json"), undefined);
  assert.throws(() => data.read("missing.json"), /not in the bundle/);
  // "é" is two bytes: a range is counted in bytes, as the offsets files are.
  assert.is(data.range("a.json", 9, 6), "héllo");
});

test.run();
