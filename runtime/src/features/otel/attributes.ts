/**
 * Span names and attributes per the OpenTelemetry semantic conventions for MCP (semconv 1.39, the
 * `mcp.*` and `gen_ai.*` names) and for HTTP clients. Pure functions: nothing here reads a secret —
 * argument values, headers and tokens are never attributes; URLs are redacted (userinfo, query values).
 */
import { createHash } from "node:crypto";
import { redactUserinfo } from "../../protocol/redact.js";
import type { IncomingRequest, RequestOutcome } from "../../server/observe.js";
import type { UpstreamRequestEnd, UpstreamRequestInfo } from "../../upstream/trace.js";

/** Attribute values as the OpenTelemetry API takes them. */
export type Attributes = Record<string, string | number | boolean>;

/** The name of a tool call's or prompt's target, when the request has one (low cardinality). */
export function requestTarget(method: string, params: Record<string, unknown>): string | undefined {
  if ((method === "tools/call" || method === "prompts/get") && typeof params.name === "string")
    return params.name.slice(0, 128);
  return undefined;
}

/** `{mcp.method.name} {target}`, or the method alone. */
export function requestSpanName(method: string, params: Record<string, unknown>): string {
  const target = requestTarget(method, params);
  return target === undefined ? method : `${method} ${target}`;
}

/**
 * The session id as an attribute: a legacy HTTP session's id hashed (SHA-256, 16 hex digits), so
 * that spans of one session group together while the id, which authorises its holder, never leaves.
 */
export function hashedSessionId(scope: string | undefined): string | undefined {
  if (!scope?.startsWith("session:")) return undefined;
  return createHash("sha256").update(scope.slice("session:".length)).digest("hex").slice(0, 16);
}

/** The attributes known when a request starts. */
export function requestAttributes(request: IncomingRequest): Attributes {
  const { method, params, era, ctx, id } = request;
  const attributes: Attributes = {
    "mcp.method.name": method,
    "jsonrpc.request.id": String(id),
    "network.transport": ctx.headers ? "tcp" : "pipe",
  };
  if (ctx.headers) attributes["network.protocol.name"] = "http";
  const version = era.version ?? ctx.protocolVersion;
  if (version) attributes["mcp.protocol.version"] = version;
  const session = hashedSessionId(ctx.scope);
  if (session) attributes["mcp.session.id"] = session;
  const target = requestTarget(method, params);
  if (method === "tools/call" && target !== undefined) {
    attributes["gen_ai.tool.name"] = target;
    attributes["gen_ai.operation.name"] = "execute_tool";
  }
  if (method === "prompts/get" && target !== undefined) attributes["gen_ai.prompt.name"] = target;
  return attributes;
}

/** `error.type` of an outcome: the JSON-RPC error code, `tool_error` for an `isError` result, else none. */
export function errorType(outcome: RequestOutcome): string | undefined {
  if ("error" in outcome) return String(outcome.error.code);
  if ("result" in outcome && outcome.result.isError === true) return "tool_error";
  return undefined;
}

/**
 * A URL fit for `url.full`: userinfo replaced, and every query value replaced by `REDACTED` (names
 * kept). Every value, not those of secret-looking names only: an argument sent in the query may be
 * a key or personal data whatever its parameter is called, and the template says what was called.
 */
export function redactUrl(url: string): string {
  const [base, query] = splitOnce(url.split("#")[0]!, "?");
  const safeBase = redactUserinfo(base);
  if (query === undefined) return safeBase;
  const pairs = query.split("&").map((pair) => {
    const [name, value] = splitOnce(pair, "=");
    return value === undefined ? name : `${name}=REDACTED`;
  });
  return `${safeBase}?${pairs.join("&")}`;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** `{method} {template}` for an upstream request (HTTP client conventions). */
export function upstreamSpanName(request: UpstreamRequestInfo): string {
  return `${request.method} ${request.template}`;
}

/** The attributes known when an upstream request starts. */
export function upstreamAttributes(request: UpstreamRequestInfo): Attributes {
  const attributes: Attributes = {
    "http.request.method": request.method,
    "url.full": redactUrl(request.url),
    "url.template": request.template,
  };
  try {
    const parsed = new URL(request.url);
    attributes["server.address"] = parsed.hostname;
    attributes["server.port"] = Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80));
  } catch {
    // a URL the request could not be sent to anyway
  }
  return attributes;
}

/** The attributes of an upstream request's end: status, resends, and `error.type` (status ≥ 400, or the failure). */
export function upstreamEndAttributes(end: UpstreamRequestEnd): Attributes {
  const attributes: Attributes = {};
  if (end.status !== undefined) attributes["http.response.status_code"] = end.status;
  if (end.attempts > 1) attributes["http.request.resend_count"] = end.attempts - 1;
  const failure = end.error ?? (end.status !== undefined && end.status >= 400 ? String(end.status) : undefined);
  if (failure !== undefined) attributes["error.type"] = failure;
  return attributes;
}

/** `2xx`, `4xx` …, or `none` when no response came. */
export function statusClass(status: number | undefined): string {
  return status === undefined ? "none" : `${Math.floor(status / 100)}xx`;
}
