/**
 * Executes a tool call against the upstream HTTP API with got and maps the response to an MCP
 * result. Upstream failures become `isError` results; cancellation becomes UpstreamCancelledError
 * so the dispatcher can stay silent.
 */
import got, { RequestError, type Method } from "got";
import type { Logger } from "./logger.js";
import { textResult, type CallToolResult } from "./mcp-types.js";
import { buildRequest, type PreparedRequest } from "./request.js";
import { mapResponse } from "./result.js";
import { ArgumentError } from "./serialize.js";
import type { ToolDefinition } from "./types.js";
import type { SchemaValidator } from "./validation.js";

/** Default upstream timeout in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Retries for idempotent methods (network errors, 408, 429, 502, 503, 504). */
export const DEFAULT_RETRIES = 2;
/** HTTP methods that are safe to send again (RFC 9110 idempotent). */
const IDEMPOTENT = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"] as const;
/** Longest `Retry-After` honoured before giving up, in milliseconds. */
const MAX_RETRY_AFTER_MS = 10_000;

/** How to reach the upstream API. */
export interface UpstreamOptions {
  /** Base URL the binding paths are joined to; may include a path (`https://h/api/v1`). */
  baseUrl?: string | undefined;
  /** Whole-request timeout in milliseconds (default 30000). */
  timeoutMs?: number | undefined;
  /** Retries for idempotent methods (default 2; 0 disables). POST and PATCH are never retried. */
  retries?: number | undefined;
  /**
   * Let file arguments name local files (absolute paths, `file:` URLs). Off by default; also
   * switched on by the environment variable `MCP_GEN_ALLOW_FILE_READ=1`.
   */
  allowFileRead?: boolean | undefined;
}

/** Per-call inputs besides the tool and its arguments. */
export interface UpstreamCall {
  upstream: UpstreamOptions;
  userAgent: string;
  validator: SchemaValidator;
  signal?: AbortSignal | undefined;
  logger?: Logger;
}

/** Thrown when the call was cancelled; no response must be sent for it. */
export class UpstreamCancelledError extends Error {
  override readonly name = "UpstreamCancelledError";
}

/** Sends the request for `tool` with already-validated `args` and maps the outcome. */
export async function callUpstream(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  call: UpstreamCall,
): Promise<CallToolResult> {
  const baseUrl = call.upstream.baseUrl;
  if (!baseUrl) {
    return textResult(
      `No upstream base URL is configured, so tool ${tool.name} cannot be called. Start the server with --base-url <url> or set API_BASE_URL.`,
      true,
    );
  }
  let prepared: PreparedRequest;
  try {
    const allowFileRead = call.upstream.allowFileRead ?? process.env.MCP_GEN_ALLOW_FILE_READ === "1";
    prepared = buildRequest(tool.http, args, baseUrl, { allowFileRead });
  } catch (error) {
    if (error instanceof ArgumentError) return textResult(`Invalid arguments for tool ${tool.name}: ${error.message}`, true);
    throw error;
  }

  const timeoutMs = call.upstream.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = Date.now();
  try {
    const response = await got(prepared.url, {
      method: prepared.method as Method,
      headers: { ...prepared.headers, "user-agent": call.userAgent },
      body: prepared.body,
      allowGetBody: prepared.body !== undefined,
      throwHttpErrors: false,
      retry: {
        limit: call.upstream.retries ?? DEFAULT_RETRIES,
        methods: [...IDEMPOTENT],
        statusCodes: [408, 429, 502, 503, 504],
        maxRetryAfter: MAX_RETRY_AFTER_MS,
        // Short, bounded backoff: 250 ms, 500 ms, … capped at 2 s (Retry-After wins when given).
        calculateDelay: ({ attemptCount, computedValue, retryAfter }) =>
          computedValue === 0 || retryAfter !== undefined ? computedValue : Math.min(computedValue, 250 * 2 ** (attemptCount - 1), 2_000),
      },
      timeout: { request: timeoutMs },
      signal: call.signal,
      followRedirect: true,
      responseType: "buffer",
    });
    call.logger?.debug(`upstream ${prepared.method} ${prepared.safeUrl} -> ${response.statusCode}`, {
      tool: tool.name,
      ms: Date.now() - started,
    });
    return mapResponse(
      tool,
      {
        status: response.statusCode,
        statusMessage: response.statusMessage,
        contentType: headerValue(response.headers["content-type"]),
        body: response.body,
        method: prepared.method,
        path: prepared.path,
        url: prepared.safeUrl,
      },
      call.validator,
    );
  } catch (error) {
    if (call.signal?.aborted) throw new UpstreamCancelledError(`call to tool ${tool.name} was cancelled`);
    if (error instanceof RequestError) {
      const detail = error.name === "TimeoutError" ? `timed out after ${timeoutMs} ms (${error.code})` : error.code || error.name;
      call.logger?.warn(`upstream ${prepared.method} ${prepared.safeUrl} failed`, { tool: tool.name, code: error.code });
      return textResult(`Upstream request failed for ${prepared.method} ${prepared.safeUrl}: ${detail}`, true);
    }
    throw error;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
