/**
 * OpenTelemetry end to end: the petstore server generated `--with otel` (its spec given an API key
 * in the query and a bearer token, so that credentials really go upstream), run with
 * OTEL_EXPORTER_OTLP_ENDPOINT at a local OTLP/HTTP receiver started here, once per standard
 * protocol (http/json, http/protobuf). One modern `tools/call` carrying `_meta.traceparent` yields a
 * SERVER span in that trace and a CLIENT upstream span under it, with the semconv names and
 * attributes; the upstream received a traceparent naming the client span; metrics are exported;
 * and none of the planted secrets (API key, bearer token, userinfo, the caller's own bearer token,
 * an argument value) appears in any exported byte. Without the feature nothing of OpenTelemetry
 * is a dependency.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { parse, stringify } from "yaml";
import { startJsonUpstream, type Upstream } from "../support/runtime-fixture.js";
import { compileProject, repoRoot, run, startProcess, waitUntil, type ProcessHandle } from "../support/e2e.js";

const SECRETS = {
  apiKey: "query-api-key-secret-4d1e",
  bearer: "upstream-bearer-secret-93ab",
  userinfo: "userinfo-password-secret-77c2",
  inbound: "inbound-token-secret-0f5e",
  argument: "argument-value-secret-6b8d",
};
const TRACE = "0af7651916cd43dd8448eb211c80319c";
const PARENT = "b7ad6b7169203331";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-otel-"));
const dir = join(work, "server");
let upstream: Upstream;

/** specs/petstore.yaml with an API key in the query and a bearer token required by every operation. */
function securedPetstore(): string {
  const spec = parse(readFileSync(join(repoRoot, "specs/petstore.yaml"), "utf8")) as Record<string, any>;
  spec.components.securitySchemes = {
    queryKey: { type: "apiKey", in: "query", name: "api_key" },
    bearerAuth: { type: "http", scheme: "bearer" },
  };
  spec.security = [{ queryKey: [], bearerAuth: [] }];
  const file = join(work, "petstore-secured.yaml");
  writeFileSync(file, stringify(spec));
  return file;
}

test.before(async () => {
  const cli = join(repoRoot, "bin", "mcp-gen.js");
  await run(process.execPath, [cli, securedPetstore(), "-o", dir, "--with", "otel"], { cwd: work });
  await compileProject(dir);
  upstream = await startJsonUpstream("[]");
});

test.after(async () => {
  await upstream?.close();
});

/** One POST the receiver got. */
interface Export {
  path: string;
  contentType: string;
  body: Buffer;
}

/** A local OTLP/HTTP receiver: answers every POST with an empty success and keeps its body. */
async function startReceiver(): Promise<{ url: string; exports: Export[]; close(): Promise<void> }> {
  const exports: Export[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const contentType = String(req.headers["content-type"] ?? "");
      exports.push({ path: req.url ?? "", contentType, body: Buffer.concat(chunks) });
      res.writeHead(200, { "content-type": contentType.includes("json") ? "application/json" : contentType });
      res.end(contentType.includes("json") ? "{}" : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Starts the server exporting to `receiver` with `protocol`. */
async function startServer(receiver: string, protocol: string): Promise<{ handle: ProcessHandle; url: string }> {
  const base = new URL(upstream.baseUrl);
  const baseUrl = `http://svc:${SECRETS.userinfo}@127.0.0.1:${base.port}`;
  const handle = await startProcess(
    process.execPath,
    [join(dir, "dist/index.js"), "--http", "--port", "0", "--base-url", baseUrl],
    {
      cwd: dir,
      env: {
        ...process.env,
        QUERY_KEY: SECRETS.apiKey,
        BEARER_AUTH: SECRETS.bearer,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_BSP_SCHEDULE_DELAY: "50",
        OTEL_METRIC_EXPORT_INTERVAL: "200",
      },
      readyLine: /listening on http:\/\/\S+/,
      readyTimeoutMs: 30_000,
    },
  );
  const line = handle.lines().find((l) => /listening on http:\/\/\S+/.test(l))!;
  return { handle, url: /listening on (http:\/\/\S+)/.exec(line)![1]! };
}

/** One modern tools/call of listPets carrying the caller's trace context in `_meta`. */
async function callWithTrace(url: string): Promise<Record<string, any>> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "listPets",
      authorization: `Bearer ${SECRETS.inbound}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "listPets",
        arguments: { limit: 5, tags: [SECRETS.argument] },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          traceparent: `00-${TRACE}-${PARENT}-01`,
        },
      },
    }),
  });
  return (await response.json()) as Record<string, any>;
}

/** Runs the scenario for one protocol: what the receiver got, and the traceparent the upstream got. */
async function scenario(protocol: string): Promise<{ exports: Export[]; sent: string }> {
  const receiver = await startReceiver();
  const { handle, url } = await startServer(receiver.url, protocol);
  try {
    const before = upstream.received.length;
    const answer = await callWithTrace(url);
    assert.equal(answer.result?.isError, undefined, JSON.stringify(answer));
    const request = upstream.received[before]!;
    assert.ok(request, "the upstream was called");
    // The credentials really went upstream (the base URL's userinfo wins got's Authorization over
    // the bearer token): the spans below had every chance to carry them.
    assert.ok(
      request.url.includes(SECRETS.apiKey) && request.url.includes(SECRETS.argument),
      JSON.stringify({ url: request.url }),
    );
    assert.is(request.headers.authorization, `Basic ${Buffer.from(`svc:${SECRETS.userinfo}`).toString("base64")}`);
    const traces = () => receiver.exports.filter((e) => e.path === "/v1/traces");
    const metrics = () => receiver.exports.filter((e) => e.path === "/v1/metrics");
    await waitUntil(
      () => traces().length > 0 && metrics().length > 0,
      15_000,
      () => handle.lines().join("\n"),
    );
    return { exports: [...receiver.exports], sent: String(request.headers.traceparent ?? "") };
  } finally {
    await handle.stop();
    await receiver.close();
  }
}

/** No planted secret in any exported byte (as text, and as the raw bytes protobuf carries strings in). */
function assertNoSecret(exports: Export[]): void {
  const basic = Buffer.from(`svc:${SECRETS.userinfo}`).toString("base64");
  for (const { body, path } of exports)
    for (const [name, secret] of [...Object.entries(SECRETS), ["basic credentials", basic] as const])
      assert.not.ok(body.includes(Buffer.from(secret)), `${name} in an export to ${path}`);
}

type JsonSpan = {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
};

function attribute(span: JsonSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value && Object.values(value)[0];
}

test("http/json: a server span in the caller's trace, its upstream child, traceparent upstream, no secret", async () => {
  const { exports, sent } = await scenario("http/json");
  const spans: JsonSpan[] = exports
    .filter((e) => e.path === "/v1/traces")
    .flatMap((e) => JSON.parse(e.body.toString("utf8")).resourceSpans)
    .flatMap((r: any) => r.scopeSpans)
    .flatMap((s: any) => s.spans);
  const server = spans.find((s) => s.name === "tools/call listPets");
  assert.ok(server, `server span among ${spans.map((s) => s.name).join(", ")}`);
  assert.is(server.kind, 2); // SPAN_KIND_SERVER
  assert.is(server.traceId, TRACE);
  assert.is(server.parentSpanId, PARENT);
  assert.is(attribute(server, "mcp.method.name"), "tools/call");
  assert.is(attribute(server, "gen_ai.tool.name"), "listPets");
  assert.is(attribute(server, "gen_ai.operation.name"), "execute_tool");
  assert.is(attribute(server, "mcp.protocol.version"), "2026-07-28");
  assert.is(attribute(server, "network.transport"), "tcp");
  const client = spans.find((s) => s.name === "GET /pets");
  assert.ok(client, "upstream span");
  assert.is(client.kind, 3); // SPAN_KIND_CLIENT
  assert.is(client.traceId, TRACE);
  assert.is(client.parentSpanId, server.spanId);
  assert.is(attribute(client, "http.request.method"), "GET");
  assert.is(attribute(client, "url.template"), "/pets");
  assert.is(attribute(client, "server.address"), "127.0.0.1");
  assert.is(Number(attribute(client, "http.response.status_code")), 200);
  assert.match(String(attribute(client, "url.full")), /^http:\/\/\*\*\*@127\.0\.0\.1:\d+\/pets\?(\w+=REDACTED&?)+$/);
  assert.is(sent, `00-${TRACE}-${client.spanId}-01`);
  const metricNames = exports
    .filter((e) => e.path === "/v1/metrics")
    .flatMap((e) => JSON.parse(e.body.toString("utf8")).resourceMetrics)
    .flatMap((r: any) => r.scopeMetrics)
    .flatMap((s: any) => s.metrics.map((m: any) => m.name));
  for (const name of ["mcp.server.operation.duration", "mcp_gen.tool.calls", "http.client.request.duration"])
    assert.ok(metricNames.includes(name), `metric ${name} among ${[...new Set(metricNames)].join(", ")}`);
  assertNoSecret(exports);
});

test("http/protobuf: the same trace in protobuf; the upstream's traceparent names an exported span", async () => {
  const { exports, sent } = await scenario("http/protobuf");
  const traces = Buffer.concat(exports.filter((e) => e.path === "/v1/traces").map((e) => e.body));
  assert.ok(
    exports.every((e) => e.contentType === "application/x-protobuf"),
    "protobuf bodies",
  );
  for (const text of ["tools/call listPets", "GET /pets", "gen_ai.tool.name", "mcp.method.name", "url.full"])
    assert.ok(traces.includes(Buffer.from(text)), `${text} in the protobuf export`);
  assert.ok(traces.includes(Buffer.from(TRACE, "hex")), "the caller's trace id");
  assert.ok(traces.includes(Buffer.from(PARENT, "hex")), "the caller's span as parent");
  const [, traceId, spanId] = sent.split("-");
  assert.is(traceId, TRACE);
  assert.ok(spanId !== PARENT && traces.includes(Buffer.from(spanId!, "hex")), "the upstream span was exported");
  const metrics = Buffer.concat(exports.filter((e) => e.path === "/v1/metrics").map((e) => e.body));
  assert.ok(metrics.includes(Buffer.from("mcp.server.operation.duration")), "metrics exported");
  assertNoSecret(exports);
});

test("without --with otel the project has no OpenTelemetry dependency", async () => {
  const plain = join(work, "plain");
  await run(process.execPath, [join(repoRoot, "bin", "mcp-gen.js"), securedPetstore(), "-o", plain], { cwd: work });
  const manifest = JSON.parse(readFileSync(join(plain, "package.json"), "utf8")) as { dependencies: object };
  assert.not.ok(Object.keys(manifest.dependencies).some((name) => name.startsWith("@opentelemetry/")));
  const withOtel = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies: object };
  assert.ok("@opentelemetry/api" in withOtel.dependencies);
});

test.run();
