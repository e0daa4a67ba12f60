/**
 * The request observer of feature `otel`, on the OpenTelemetry API alone (no-op until an SDK is
 * registered, by this feature's exporter or by the host): a SERVER span per MCP request, continued
 * from `_meta.traceparent` (revision 2026-07-28, SEP-414) or the HTTP `traceparent` header; a CLIENT
 * span per upstream request, whose context goes upstream as `traceparent`; and the metrics.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  createTraceState,
  isSpanContextValid,
  metrics,
  trace,
  type Attributes as OtelAttributes,
  type Context,
  type Counter,
  type Histogram,
  type MeterProvider,
  type Span,
  type Tracer,
  type TracerProvider,
  type UpDownCounter,
} from "@opentelemetry/api";
import { isRecord } from "../../protocol/own.js";
import type { IncomingRequest, ObservedRequest, RequestObserver, RequestOutcome } from "../../server/observe.js";
import type { UpstreamRequestEnd, UpstreamRequestInfo, UpstreamRequestWatch } from "../../upstream/trace.js";
import {
  errorType,
  requestAttributes,
  requestSpanName,
  requestTarget,
  statusClass,
  upstreamAttributes,
  upstreamEndAttributes,
  upstreamSpanName,
  type Attributes,
} from "./attributes.js";
import { formatTraceparent, parseTraceparent, validTracestate } from "./trace-context.js";

/** The instruments, made once from the meter registered at start. */
interface Instruments {
  duration: Histogram;
  calls: Counter;
  errors: Counter;
  inFlight: UpDownCounter;
  rateLimited: Counter;
  upstreamDuration: Histogram;
  upstreamResponses: Counter;
}

/**
 * Makes the observer, on the global providers unless `providers` are given (tests). Call it after an
 * SDK (if any) is registered: metric instruments bind to the meter provider of their creation.
 */
export function otelObserver(
  name: string,
  version: string,
  providers: { tracer?: TracerProvider; meter?: MeterProvider } = {},
): RequestObserver {
  const tracer = (providers.tracer ?? trace.getTracerProvider()).getTracer(name, version);
  const meter = (providers.meter ?? metrics.getMeterProvider()).getMeter(name, version);
  const seconds = { unit: "s" };
  const instruments: Instruments = {
    duration: meter.createHistogram("mcp.server.operation.duration", {
      ...seconds,
      description: "MCP request duration as observed on the server",
    }),
    calls: meter.createCounter("mcp_gen.tool.calls", { description: "tools/call requests, by tool" }),
    errors: meter.createCounter("mcp_gen.tool.errors", {
      description: "tools/call requests answered with an error or an isError result, by tool and error.type",
    }),
    inFlight: meter.createUpDownCounter("mcp_gen.requests.in_flight", { description: "MCP requests being served" }),
    rateLimited: meter.createCounter("mcp_gen.requests.rate_limited", {
      description: "MCP requests refused by the rate limit",
    }),
    upstreamDuration: meter.createHistogram("http.client.request.duration", {
      ...seconds,
      description: "Duration of upstream HTTP requests (retries included)",
    }),
    upstreamResponses: meter.createCounter("mcp_gen.upstream.responses", {
      description: "Upstream HTTP requests by status class (2xx, 4xx, 5xx, none)",
    }),
  };
  return { start: (request) => observe(request, tracer, instruments) };
}

/** The parent context a request carries: `_meta.traceparent` first, then the HTTP header. */
export function parentContext(request: IncomingRequest): Context {
  const meta = isRecord(request.params._meta) ? request.params._meta : {};
  const headers = request.ctx.headers ?? {};
  const fromMeta = parseTraceparent(meta.traceparent);
  const parent = fromMeta ?? parseTraceparent(headers.traceparent);
  if (!parent) return ROOT_CONTEXT;
  const state = validTracestate(fromMeta ? meta.tracestate : headers.tracestate);
  return trace.setSpanContext(ROOT_CONTEXT, {
    ...parent,
    isRemote: true,
    ...(state ? { traceState: createTraceState(state) } : {}),
  });
}

function observe(request: IncomingRequest, tracer: Tracer, instruments: Instruments): ObservedRequest {
  const attributes = requestAttributes(request);
  const span = tracer.startSpan(
    requestSpanName(request.method, request.params),
    { kind: SpanKind.SERVER, attributes },
    parentContext(request),
  );
  const methodOnly = { "mcp.method.name": request.method };
  instruments.inFlight.add(1, methodOnly);
  const started = performance.now();
  const spanContext = trace.setSpan(ROOT_CONTEXT, span);
  return {
    upstream: { start: (info) => watchUpstream(info, tracer, spanContext, instruments) },
    end(outcome) {
      instruments.inFlight.add(-1, methodOnly);
      endRequest(request, outcome, span, attributes, instruments, performance.now() - started);
    },
  };
}

/** Ends a request's span and records its metrics. */
function endRequest(
  request: IncomingRequest,
  outcome: RequestOutcome,
  span: Span,
  attributes: Attributes,
  instruments: Instruments,
  elapsedMs: number,
): void {
  const error = errorType(outcome);
  if (error !== undefined) {
    span.setAttribute("error.type", error);
    if ("error" in outcome) span.setAttribute("rpc.response.status_code", error);
    // The status says that it failed, not why: messages may quote what the user sent.
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  if ("cancelled" in outcome) span.setAttribute("mcp_gen.cancelled", true);
  span.end();
  const metric: OtelAttributes = { "mcp.method.name": request.method };
  for (const name of ["gen_ai.tool.name", "gen_ai.prompt.name", "mcp.protocol.version"])
    if (attributes[name] !== undefined) metric[name] = attributes[name];
  if (error !== undefined) metric["error.type"] = error;
  instruments.duration.record(elapsedMs / 1000, metric);
  const tool = request.method === "tools/call" ? requestTarget(request.method, request.params) : undefined;
  if (tool !== undefined) {
    instruments.calls.add(1, { "gen_ai.tool.name": tool });
    if (error !== undefined) instruments.errors.add(1, { "gen_ai.tool.name": tool, "error.type": error });
  }
  if ("rateLimited" in outcome && outcome.rateLimited)
    instruments.rateLimited.add(1, tool !== undefined ? { ...metric, "gen_ai.tool.name": tool } : metric);
}

/** A CLIENT span for one upstream request, child of the request's span; its context goes upstream. */
function watchUpstream(
  info: UpstreamRequestInfo,
  tracer: Tracer,
  parent: Context,
  instruments: Instruments,
): UpstreamRequestWatch {
  const attributes = upstreamAttributes(info);
  const span = tracer.startSpan(upstreamSpanName(info), { kind: SpanKind.CLIENT, attributes }, parent);
  const context = span.spanContext();
  const headers: Record<string, string> = {};
  // Without an SDK the span is the parent's context (or invalid): the caller's trace still goes on.
  if (isSpanContextValid(context)) {
    headers.traceparent = formatTraceparent(context);
    const state = context.traceState?.serialize();
    if (state) headers.tracestate = state;
  }
  const started = performance.now();
  return {
    headers,
    end(end: UpstreamRequestEnd) {
      const ended = upstreamEndAttributes(end);
      span.setAttributes(ended);
      if (ended["error.type"] !== undefined) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      const metric: OtelAttributes = {
        "http.request.method": info.method,
        "url.template": info.template,
        ...(attributes["server.address"] !== undefined ? { "server.address": attributes["server.address"] } : {}),
        ...(end.status !== undefined ? { "http.response.status_code": end.status } : {}),
        ...(ended["error.type"] !== undefined ? { "error.type": ended["error.type"] } : {}),
      };
      instruments.upstreamDuration.record((performance.now() - started) / 1000, metric);
      instruments.upstreamResponses.add(1, {
        "http.response.status_class": statusClass(end.status),
        ...(attributes["server.address"] !== undefined ? { "server.address": attributes["server.address"] } : {}),
      });
    },
  };
}
