/**
 * Feature `otel`'s pure parts (W3C trace context, semconv names and attributes, URL redaction, the
 * OTEL_* settings) and its observer on in-memory SDK providers: the server span continues the
 * caller's trace, the upstream span is its child and its traceparent, metrics count calls, errors
 * and refusals, and no argument value or credential becomes an attribute.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from "@opentelemetry/sdk-trace";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { formatTraceparent, parseTraceparent, validTracestate } from "../../runtime/src/features/otel/trace-context.js";
import {
  errorType,
  hashedSessionId,
  redactUrl,
  requestAttributes,
  requestSpanName,
  statusClass,
  upstreamAttributes,
  upstreamEndAttributes,
} from "../../runtime/src/features/otel/attributes.js";
import { otlpExport } from "../../runtime/src/features/otel/otlp-settings.js";
import { otelObserver } from "../../runtime/src/features/otel/observer.js";
import type { IncomingRequest } from "../../runtime/src/server/observe.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { info, sampleTools, startJsonUpstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { otel } from "../../runtime/src/features/otel/index.js";
import { silentLogger } from "../../runtime/src/protocol/logger.js";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const MODERN = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

test("traceparent: read and written; invalid forms, zero ids and version ff refused", () => {
  const parsed = parseTraceparent(`00-${TRACE}-${PARENT}-01`);
  assert.equal(parsed, { traceId: TRACE, spanId: PARENT, traceFlags: 1 });
  assert.is(formatTraceparent(parsed!), `00-${TRACE}-${PARENT}-01`);
  for (const bad of [
    undefined,
    42,
    "",
    `00-${TRACE}-${PARENT}`,
    `00-${"0".repeat(32)}-${PARENT}-01`,
    `00-${TRACE}-${"0".repeat(16)}-01`,
    `ff-${TRACE}-${PARENT}-01`,
    `00-${TRACE}-${PARENT}-01-extra`,
    `00-${TRACE.toUpperCase()}-${PARENT}-01`,
  ])
    assert.is(parseTraceparent(bad), undefined, String(bad));
  // A later version may append fields: the first four are read.
  assert.equal(parseTraceparent(`01-${TRACE}-${PARENT}-00-later`)?.traceFlags, 0);
  assert.is(validTracestate("vendor=abc"), "vendor=abc");
  assert.is(validTracestate("x".repeat(600)), undefined);
  assert.is(validTracestate("bad\u0001"), undefined);
});

function incoming(method: string, params: Record<string, unknown>, ctx: IncomingRequest["ctx"] = {}): IncomingRequest {
  return { id: 7, method, params, era: { modern: false, version: "2025-11-25" }, ctx };
}

test("semconv: span names and request attributes; the session id hashed, never sent as is", () => {
  assert.is(requestSpanName("tools/call", { name: "getPet" }), "tools/call getPet");
  assert.is(requestSpanName("prompts/get", { name: "summary" }), "prompts/get summary");
  assert.is(requestSpanName("resources/read", { uri: "openapi://document" }), "resources/read");
  const attributes = requestAttributes(
    incoming(
      "tools/call",
      { name: "getPet", arguments: { petId: "argument-secret" } },
      {
        headers: {},
        scope: "session:raw-session-id-123",
      },
    ),
  );
  assert.equal(attributes, {
    "mcp.method.name": "tools/call",
    "jsonrpc.request.id": "7",
    "network.transport": "tcp",
    "network.protocol.name": "http",
    "mcp.protocol.version": "2025-11-25",
    "mcp.session.id": hashedSessionId("session:raw-session-id-123")!,
    "gen_ai.tool.name": "getPet",
    "gen_ai.operation.name": "execute_tool",
  });
  assert.match(String(attributes["mcp.session.id"]), /^[0-9a-f]{16}$/);
  assert.not.match(JSON.stringify(attributes), /raw-session-id|argument-secret/);
  // Not a session: a client address scope is no session id.
  assert.is(hashedSessionId("http:127.0.0.1"), undefined);
  assert.is(requestAttributes(incoming("prompts/get", { name: "p" }))["gen_ai.prompt.name"], "p");
  assert.is(requestAttributes(incoming("ping", {}))["network.transport"], "pipe");
});

test("semconv: error.type is the JSON-RPC code or tool_error", () => {
  assert.is(errorType({ error: { code: -32602, message: "x" } }), "-32602");
  assert.is(errorType({ result: { content: [], isError: true } }), "tool_error");
  assert.is(errorType({ result: { content: [] } }), undefined);
  assert.is(errorType({ cancelled: true }), undefined);
});

test("upstream attributes: userinfo and every query value redacted; status, resends, error.type", () => {
  const url = "http://user:userinfo-secret@api.test:8080/pets?api_key=query-secret&status=arg-secret&flag#frag";
  assert.is(redactUrl(url), "http://***@api.test:8080/pets?api_key=REDACTED&status=REDACTED&flag");
  const attributes = upstreamAttributes({ method: "GET", url, template: "/pets" });
  assert.equal(attributes, {
    "http.request.method": "GET",
    "url.full": "http://***@api.test:8080/pets?api_key=REDACTED&status=REDACTED&flag",
    "url.template": "/pets",
    "server.address": "api.test",
    "server.port": 8080,
  });
  assert.is(upstreamAttributes({ method: "GET", url: "https://h.test/x", template: "/x" })["server.port"], 443);
  assert.equal(upstreamEndAttributes({ status: 200, attempts: 1 }), { "http.response.status_code": 200 });
  assert.equal(upstreamEndAttributes({ status: 503, attempts: 3 }), {
    "http.response.status_code": 503,
    "http.request.resend_count": 2,
    "error.type": "503",
  });
  assert.equal(upstreamEndAttributes({ attempts: 1, error: "ECONNREFUSED" }), { "error.type": "ECONNREFUSED" });
  assert.is(statusClass(429), "4xx");
  assert.is(statusClass(undefined), "none");
});

test("settings: OTLP export only with an endpoint; both HTTP encodings; others named", () => {
  assert.equal(otlpExport({}), {});
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" };
  assert.equal(otlpExport(endpoint), { traces: "http/protobuf", metrics: "http/protobuf" });
  assert.equal(otlpExport({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }), {
    traces: "http/json",
    metrics: "http/json",
  });
  assert.equal(otlpExport({ ...endpoint, OTEL_METRICS_EXPORTER: "none" }), { traces: "http/protobuf" });
  assert.equal(otlpExport({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c/v1/traces" }), { traces: "http/protobuf" });
  assert.equal(otlpExport({ ...endpoint, OTEL_SDK_DISABLED: "true" }), {});
  assert.throws(
    () => otlpExport({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }),
    /OTEL_EXPORTER_OTLP_PROTOCOL=grpc/,
  );
  assert.throws(() => otlpExport({ ...endpoint, OTEL_TRACES_EXPORTER: "zipkin" }), /OTEL_TRACES_EXPORTER/);
});

/** An observer on in-memory providers, and what they collected. */
function observed() {
  const spans = new InMemorySpanExporter();
  const tracer = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meter = new MeterProvider({ readers: [reader] });
  const observer = otelObserver(info.name, info.version, { tracer, meter });
  const metrics = async (): Promise<Map<string, Array<{ attributes: Record<string, unknown>; value: unknown }>>> => {
    await reader.forceFlush();
    const found = new Map<string, Array<{ attributes: Record<string, unknown>; value: unknown }>>();
    for (const resource of metricExporter.getMetrics())
      for (const scope of resource.scopeMetrics)
        for (const metric of scope.metrics)
          found.set(
            metric.descriptor.name,
            metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })),
          );
    return found;
  };
  return { observer, spans: () => spans.getFinishedSpans(), metrics };
}

const hex = (span: ReadableSpan) => span.spanContext();

test("observer: the server span continues _meta.traceparent; the upstream span is its child and goes upstream", async () => {
  const { observer, spans, metrics } = observed();
  const request = incoming("tools/call", {
    name: "getPet",
    arguments: { petId: 1 },
    _meta: { ...MODERN, traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: "vendor=1" },
  });
  const watched = observer.start(request);
  const upstream = watched.upstream!.start({
    method: "GET",
    url: "http://u:p-secret@127.0.0.1:1/pets/1?verbose=v-secret",
    template: "/pets/{petId}",
  });
  upstream.end({ status: 200, attempts: 2 });
  watched.end({ result: { content: [], isError: true } });
  const [client, server] = spans();
  assert.is(server!.name, "tools/call getPet");
  assert.is(hex(server!).traceId, TRACE);
  assert.is(server!.parentSpanContext?.spanId, PARENT);
  assert.is(server!.attributes["error.type"], "tool_error");
  assert.is(client!.name, "GET /pets/{petId}");
  assert.is(hex(client!).traceId, TRACE);
  assert.is(client!.parentSpanContext?.spanId, hex(server!).spanId);
  assert.is(client!.attributes["http.request.resend_count"], 1);
  assert.equal(upstream.headers, { traceparent: `00-${TRACE}-${hex(client!).spanId}-01`, tracestate: "vendor=1" });
  assert.not.match(JSON.stringify(spans().map((s) => s.attributes)), /secret/);
  const found = await metrics();
  assert.equal(found.get("mcp_gen.tool.calls"), [{ attributes: { "gen_ai.tool.name": "getPet" }, value: 1 }]);
  assert.equal(found.get("mcp_gen.tool.errors")?.[0]?.attributes, {
    "gen_ai.tool.name": "getPet",
    "error.type": "tool_error",
  });
  assert.equal(found.get("mcp_gen.upstream.responses")?.[0], {
    attributes: { "http.response.status_class": "2xx", "server.address": "127.0.0.1" },
    value: 1,
  });
  assert.is(found.get("mcp_gen.requests.in_flight")?.[0]?.value, 0);
  assert.ok(found.get("mcp.server.operation.duration"), "the semconv duration histogram");
});

test("observer: the HTTP traceparent header when _meta has none; a new trace without either; refusals counted", async () => {
  const { observer, spans, metrics } = observed();
  observer
    .start(incoming("tools/list", {}, { headers: { traceparent: `00-${TRACE}-${PARENT}-01` } }))
    .end({ result: {} });
  observer.start(incoming("tools/call", { name: "listPets" })).end({
    error: { code: 429, message: "rate limited" },
    rateLimited: true,
  });
  observer.start(incoming("tools/call", { name: "listPets" })).end({ cancelled: true });
  const [fromHeader, refused, cancelled] = spans();
  assert.is(hex(fromHeader!).traceId, TRACE);
  assert.is.not(hex(refused!).traceId, TRACE);
  assert.is(refused!.parentSpanContext, undefined);
  assert.is(refused!.attributes["error.type"], "429");
  assert.is(cancelled!.attributes["mcp_gen.cancelled"], true);
  const limited = (await metrics()).get("mcp_gen.requests.rate_limited");
  assert.equal(limited?.[0]?.attributes["gen_ai.tool.name"], "listPets");
});

test("McpServer: the dispatcher hands each request and its outcome to the observer", async () => {
  const upstream = await startJsonUpstream();
  try {
    const { observer, spans } = observed();
    const server = new McpServer({
      ...apiFeatures,
      info,
      tools: sampleTools(),
      upstream: { baseUrl: upstream.baseUrl },
      observer,
    });
    await server.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN } });
    await server.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "nope", _meta: MODERN } });
    const [list, unknown] = spans();
    assert.is(list!.name, "tools/list");
    assert.is(list!.attributes["mcp.protocol.version"], "2026-07-28");
    assert.is(unknown!.name, "tools/call nope");
    assert.is(unknown!.attributes["error.type"], "-32602");
  } finally {
    await upstream.close();
  }
});

test("feature otel with an endpoint: the SDK loads, exports spans over OTLP/HTTP, and close flushes it", async () => {
  const bodies: Array<{ path: string; body: string }> = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      bodies.push({ path: req.url ?? "", body });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // The official exporters read the process's environment themselves.
  const saved = { ...process.env };
  Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
  try {
    const lines: string[] = [];
    const plugs = await otel.plugs({
      flags: {},
      env: process.env,
      info,
      http: true,
      logger: { ...silentLogger, info: (line) => lines.push(line) },
    });
    assert.match(lines.join("\n"), /exporting traces \(http\/json\) and metrics \(http\/json\) over OTLP/);
    assert.not.match(lines.join("\n"), /127\.0\.0\.1/);
    plugs.observer!.start(incoming("tools/call", { name: "getPet" })).end({ result: { content: [] } });
    await plugs.close!();
    const traces = bodies
      .filter((b) => b.path === "/v1/traces")
      .map((b) => b.body)
      .join("");
    assert.match(traces, /tools\/call getPet/);
    assert.match(traces, new RegExp(info.name));
    assert.ok(
      bodies.some((b) => b.path === "/v1/metrics"),
      "metrics flushed on close",
    );
    // Without an endpoint: the observer on the API alone, nothing to close.
    const bare = await otel.plugs({ flags: {}, env: {}, info, http: false, logger: silentLogger });
    assert.equal(Object.keys(bare), ["observer"]);
  } finally {
    for (const name of ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL"])
      if (saved[name] === undefined) delete process.env[name];
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test.run();
