/** Tells the protocol eras apart per request and validates the modern era's per-request `_meta`. */
import { ErrorCode, RpcError } from "./jsonrpc.js";
import {
  ALL_PROTOCOL_VERSIONS,
  META_CLIENT_CAPABILITIES,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  isModernProtocolVersion,
} from "./versions.js";
import { isRecord } from "./own.js";

/** RFC 5424 log levels as MCP names them, in increasing severity. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** One of {@link LOG_LEVELS}. */
export type McpLogLevel = (typeof LOG_LEVELS)[number];

/** What the dispatcher knows about the era and client of one request. */
export type RequestEra =
  | { modern: false; version: string | undefined }
  | {
      modern: true;
      version: string;
      /** The client's capabilities for this request only (never inferred from earlier requests). */
      clientCapabilities: Record<string, unknown>;
      /** Per-request log level; absent means no `notifications/message` for this request. */
      logLevel?: McpLogLevel;
    };

/** A modern-era request-validation error: answered with HTTP 400. */
function badRequest(code: number, message: string, data?: unknown): RpcError {
  return new RpcError(code, message, data, 400);
}

/** True for a known log level name. */
export function isLogLevel(value: unknown): value is McpLogLevel {
  return typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value);
}

/** True when `level` is at least as severe as `threshold`. */
export function logLevelAtLeast(level: McpLogLevel, threshold: McpLogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/** True when the params carry the modern era's protocol-version `_meta` key. */
export function hasModernMeta(params: unknown): boolean {
  return isRecord(params) && isRecord(params._meta) && Object.hasOwn(params._meta, META_PROTOCOL_VERSION);
}

/**
 * Classifies a request by its `_meta`, the transport's version hint (HTTP header) and the revision
 * of `initialize`; throws the modern era's errors (-32022, -32602, HTTP 400) for invalid `_meta`.
 */
export function classifyEra(
  params: unknown,
  headerVersion: string | undefined,
  negotiated: string | undefined,
): RequestEra {
  if (!hasModernMeta(params)) {
    if (isModernProtocolVersion(headerVersion))
      throw badRequest(ErrorCode.InvalidParams, `Missing _meta["${META_PROTOCOL_VERSION}"]`);
    return { modern: false, version: headerVersion ?? negotiated };
  }
  const meta = (params as { _meta: Record<string, unknown> })._meta;
  const version = meta[META_PROTOCOL_VERSION];
  if (typeof version !== "string")
    throw badRequest(ErrorCode.InvalidParams, `_meta["${META_PROTOCOL_VERSION}"] must be a string`);
  if (!isModernProtocolVersion(version) || !ALL_PROTOCOL_VERSIONS.includes(version))
    throw badRequest(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
      supported: [...ALL_PROTOCOL_VERSIONS],
      requested: version,
    });
  const capabilities = meta[META_CLIENT_CAPABILITIES];
  if (!isRecord(capabilities))
    throw badRequest(ErrorCode.InvalidParams, `_meta["${META_CLIENT_CAPABILITIES}"] must be an object`);
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined && !isLogLevel(logLevel))
    throw badRequest(ErrorCode.InvalidParams, `_meta["${META_LOG_LEVEL}"] must be one of: ${LOG_LEVELS.join(", ")}`);
  return { modern: true, version, clientCapabilities: capabilities, ...(logLevel !== undefined ? { logLevel } : {}) };
}

/** Throws -32021 (HTTP 400) unless the modern client declared `capability` on this request. */
export function requireClientCapability(era: RequestEra, capability: string): void {
  if (era.modern && !isRecord(era.clientCapabilities[capability]))
    throw badRequest(
      ErrorCode.MissingRequiredClientCapability,
      `This request requires the client capability '${capability}'`,
      { requiredCapabilities: { [capability]: {} } },
    );
}
