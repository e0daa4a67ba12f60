/**
 * The modern era (2026-07-28) over HTTP, run twice: on the node:http transport and on the fetch
 * handler (feature `fetch`) served through node:http, which share the request handling.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { decodeHeaderValue } from "../../runtime/src/transport/http-headers.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp } from "../../runtime/src/transport/http.js";
import { startFetchHttp } from "../support/fetch-on-node.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { info, sampleTools, startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

/** The sample tools, with createPet's requestId mirrored into `Mcp-Param-Request-Id`. */
function tools(): ToolDefinition[] {
  const all = sampleTools();
  const create = all.find((t) => t.name === "createPet")!;
  create.inputSchema.properties!.requestId = { type: "string", "x-mcp-header": "Request-Id" };
  return all;
}

/** Starts an HTTP endpoint serving `server`. */
type StartHttp = (server: McpServer) => Promise<{ url: string; close(): Promise<void> }>;

const TRANSPORTS: Array<[string, StartHttp]> = [
  ["node:http", (server) => startHttp(server, { host: "127.0.0.1", port: 0 })],
  ["fetch handler", (server) => startFetchHttp(server)],
];

/** The suite over one transport. */
function modernSuite(transport: string, start: StartHttp): void {
  const test = suite(transport);
  let http: { url: string; close(): Promise<void> };
  let upstream: Upstream;

  test.before(async () => {
    upstream = await startUpstream((r) => {
      if (r.url.startsWith("/api/v1/pets/42"))
        return { status: 200, headers: { "content-type": "application/json" }, body: '{"id":42,"name":"Rex"}' };
      if (r.url.startsWith("/api/v1/pets") && r.method === "POST")
        return { status: 201, headers: { "content-type": "application/json" }, body: r.body };
      return "hang";
    });
    const server = new McpServer({
      ...apiFeatures,
      info,
      tools: tools(),
      upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5000 },
    });
    http = await start(server);
  });
  test.after(async () => {
    await http.close();
    await upstream.close();
  });

  const META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };

  /** POSTs a modern request with correct SEP-2243 headers unless overridden (null removes one). */
  function post(
    id: number,
    method: string,
    params: Record<string, unknown> = {},
    headers: Record<string, string | null> = {},
    meta = META,
  ): Promise<Response> {
    const name =
      typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
    const all: Record<string, string | null> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name !== undefined ? { "mcp-name": name } : {}),
      ...headers,
    };
    const sent = Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== null));
    return fetch(http.url, {
      method: "POST",
      headers: sent,
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }),
    });
  }

  async function rpc(
    res: Response,
  ): Promise<{ id: unknown; result?: any; error?: { code: number; message: string; data?: any } }> {
    return (await res.json()) as any;
  }

  test("a modern tools/list over HTTP: 200 JSON with resultType and cache hints", async () => {
    const res = await post(1, "tools/list");
    assert.is(res.status, 200);
    const body = await rpc(res);
    assert.is(body.result.resultType, "complete");
    assert.is(body.result.tools.length, 5);
  });

  test("header mismatches → 400 + -32020 echoing the request id", async () => {
    const cases: Array<[string, Record<string, string | null>, string, Record<string, unknown>]> = [
      ["mismatched method", { "mcp-method": "tools/call" }, "tools/list", {}],
      ["missing Mcp-Method", { "mcp-method": null }, "tools/list", {}],
      ["method in wrong case", { "mcp-method": "TOOLS/LIST" }, "tools/list", {}],
      ["mismatched name", { "mcp-name": "other" }, "tools/call", { name: "getPet", arguments: { petId: 42 } }],
      ["missing Mcp-Name", { "mcp-name": null }, "tools/call", { name: "getPet", arguments: { petId: 42 } }],
      ["version header ≠ _meta", { "mcp-protocol-version": "2025-11-25" }, "tools/list", {}],
      ["missing Mcp-Param", {}, "tools/call", { name: "createPet", arguments: { name: "Rex", requestId: "r-1" } }],
      [
        "mismatched Mcp-Param",
        { "mcp-param-request-id": "r-2" },
        "tools/call",
        { name: "createPet", arguments: { name: "Rex", requestId: "r-1" } },
      ],
      [
        "invalid base64 Mcp-Param",
        { "mcp-param-request-id": "=?base64?!!!?=" },
        "tools/call",
        { name: "createPet", arguments: { name: "Rex", requestId: "r-1" } },
      ],
    ];
    for (const [label, headers, method, params] of cases) {
      const res = await post(11, method, params, headers);
      assert.is(res.status, 400, label);
      const body = await rpc(res);
      assert.is(body.error?.code, -32020, label);
      assert.is(body.id, 11, label);
    }
  });

  test("headers accepted: whitespace trimmed, case-insensitive names, base64 sentinel, matching Mcp-Param", async () => {
    const ok = await post(2, "tools/list", {}, { "mcp-method": "  tools/list  " });
    assert.is(ok.status, 200);
    await ok.arrayBuffer();
    const b64 = `=?base64?${Buffer.from("getPet").toString("base64")}?=`;
    const named = await post(
      3,
      "tools/call",
      { name: "getPet", arguments: { petId: 42 } },
      { "mcp-name": null, "MCP-NAME": b64 },
    );
    assert.is(named.status, 200);
    assert.equal((await rpc(named)).result.structuredContent, { id: 42, name: "Rex" });
    const param = await post(
      4,
      "tools/call",
      { name: "createPet", arguments: { name: "Rex", requestId: "r-1" } },
      { "mcp-param-request-id": "r-1" },
    );
    assert.is(param.status, 200);
    assert.not.ok((await rpc(param)).result.isError);
    assert.is(decodeHeaderValue("x", `=?base64?${Buffer.from("héllo").toString("base64")}?=`), "héllo");
    assert.is(decodeHeaderValue("x", "=?base64?abc"), "=?base64?abc", "no suffix: a literal");
    assert.is(decodeHeaderValue("x", " \tvalue  "), "value", "optional whitespace trimmed");
    assert.throws(() => decodeHeaderValue("x", "a\u0001b"), /invalid characters/);
  });

  test("unsupported version → 400 -32022 with data.supported; missing _meta capability → 400 -32602", async () => {
    const bad = await post(
      5,
      "tools/list",
      {},
      { "mcp-protocol-version": "1900-01-01" },
      { ...META, "io.modelcontextprotocol/protocolVersion": "1900-01-01" },
    );
    assert.is(bad.status, 400);
    const body = await rpc(bad);
    assert.is(body.error?.code, -32022);
    assert.is(body.id, 5);
    assert.ok(body.error?.data.supported.includes("2026-07-28"));
    const noCaps = await post(6, "tools/list", {}, {}, {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    } as typeof META);
    assert.is(noCaps.status, 400);
    assert.is((await rpc(noCaps)).error?.code, -32602);
  });

  test("unknown method in the modern era → 404 + -32601", async () => {
    for (const method of ["ping", "no/such"]) {
      const res = await post(7, method);
      assert.is(res.status, 404, method);
      assert.is((await rpc(res)).error?.code, -32601);
    }
  });

  test("progressToken + Accept text/event-stream → SSE with progress then the result", async () => {
    const res = await post(8, "tools/call", { name: "getPet", arguments: { petId: 42 } }, {}, {
      ...META,
      progressToken: "tok",
    } as typeof META);
    assert.is(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", "text/event-stream");
    assert.is(res.headers.get("x-accel-buffering"), "no");
    const events = (await res.text())
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)));
    assert.equal(
      events.map((e) => e.method ?? "result"),
      ["notifications/progress", "notifications/progress", "result"],
    );
    assert.is(events[2].id, 8);
  });

  test("closing the response stream cancels the upstream call (modern cancellation)", async () => {
    const controller = new AbortController();
    const arrived = upstream.arrival("/slow");
    const pending = fetch(http.url, {
      method: "POST",
      signal: controller.signal,
      headers: {
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "slow",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 10,
        method: "tools/call",
        params: { name: "slow", arguments: {}, _meta: META },
      }),
    }).then(
      () => "answered",
      () => "aborted",
    );
    const upstreamRequest = await arrived;
    controller.abort();
    assert.is(await pending, "aborted");
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      upstreamRequest.closed,
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error("upstream request was not aborted")), 2000)),
      ),
    ]);
    clearTimeout(timer);
  });

  test.run();
}

for (const [transport, start] of TRANSPORTS) modernSuite(transport, start);
