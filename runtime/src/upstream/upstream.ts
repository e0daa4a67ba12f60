/**
 * A tool call against the upstream API, mapped to an MCP result: failures become `isError` results,
 * a cancellation UpstreamCancelledError (the dispatcher then stays silent). The HTTP client is the
 * options' (client-slot.ts): got on Node by default, the platform's fetch elsewhere.
 */
import type { UpstreamQueue } from "./queue.js";
import type { Authorize, AuthorizedRequest, Credentials } from "./auth-slot.js";
import type { Logger } from "../protocol/logger.js";
import type { Cancellation } from "../protocol/cancellation.js";
import { type CallToolResult } from "../api/mcp-types.js";
import { textResult } from "../api/tool-outcome.js";
import { buildRequest, type PreparedRequest } from "./request.js";
import type { Encodings, ResolveUploads } from "./body.js";
import type { CursorApplication, Paging } from "./paging-slot.js";
import { mapResponse, type ParsedBody } from "./result.js";
import { ArgumentError } from "./serialize.js";
import type { ToolDefinition } from "../api/types.js";
import type { SchemaValidator } from "../api/validation.js";
import type { CallLimits, UpstreamClient, UpstreamResponse } from "./client-slot.js";
import { gotClient } from "./got-client.js";
import { redactUserinfo } from "../protocol/redact.js";
import { withoutFramingHeaders } from "./headers.js";
import type { UpstreamRequestWatch, UpstreamTrace } from "./trace.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
/** Retries of idempotent methods (RFC 9110) after network errors, 408, 429, 502, 503, 504. */
const DEFAULT_RETRIES = 2;
export const DEFAULT_UPSTREAM_CONCURRENCY = 32;
/**
 * Default calls on the network at once to one upstream host: APIs commonly answer 429 past ten or
 * twenty parallel requests of one client, and a browser opens six connections per host.
 */
export const DEFAULT_UPSTREAM_HOST_CONCURRENCY = 8;
/** Default cap on one upstream response body, counted after decompression (50 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

/** How to reach the upstream API. */
export interface UpstreamOptions {
  /** Base URL the binding paths are joined to; may include a path (`https://h/api/v1`). */
  baseUrl?: string | undefined;
  /** One deadline per call in ms, shared by its retries, a token refresh and every attempt. */
  timeoutMs?: number | undefined;
  /** Largest response body, in bytes after decompression; a larger one aborts the call. */
  maxResponseBytes?: number | undefined;
  /** Upstream calls on the network at once for the whole server; more wait in a FIFO queue. */
  concurrency?: number | undefined;
  /** Upstream calls on the network at once per host (default {@link DEFAULT_UPSTREAM_HOST_CONCURRENCY}). */
  hostConcurrency?: number | undefined;
  /** Upstream calls started per second per host at most (client-side rate; default: unlimited). */
  ratePerSecond?: number | undefined;
  /** Retries of idempotent methods (0 disables). */
  retries?: number | undefined;
  /** Parameter styles and bodies beyond JSON (feature `encodings`). */
  encodings?: Encodings | undefined;
  /** Reads file arguments given by reference, `{"url"}` or `{"path"}` (feature `uploads`). */
  uploads?: ResolveUploads | undefined;
  /** The HTTP client (default: got); feature `fetch` gives the platform's `fetch` where got cannot run. */
  client?: UpstreamClient | undefined;
}

/** Per-call inputs besides the tool and its arguments. */
export interface UpstreamCall {
  upstream: UpstreamOptions;
  userAgent: string;
  validator: SchemaValidator;
  /** The request's cancellation: cancels the request in flight and a retry's wait. */
  cancellation?: Cancellation | undefined;
  logger?: Logger;
  /** Upstream pagination (feature `pagination`). */
  paging?: Paging | undefined;
  /** Upstream credentials (feature `auth`); without them none are sent. */
  credentials?: Credentials | undefined;
  /** Credentials taken from the incoming request (passthrough, a user's tokens), by scheme key. */
  fromRequest?: Record<string, string> | undefined;
  /** After a 401: new `fromRequest` credentials to try once (a user's refreshed tokens), if any. */
  renewFromRequest?: (() => Promise<Record<string, string> | undefined>) | undefined;
  queue?: UpstreamQueue | undefined;
  /** Told each response as the client received it (the `api` client reports its status and headers to user code). */
  onResponse?: ((response: UpstreamResponse) => void) | undefined;
  /** Watches each request sent (feature `otel`: a child span, `traceparent`). */
  trace?: UpstreamTrace | undefined;
}

/** Thrown when the call was cancelled; no response must be sent for it. */
export class UpstreamCancelledError extends Error {
  override readonly name = "UpstreamCancelledError";
  /** Stable across versions: custom code may branch on it. */
  readonly code = "ERR_UPSTREAM_CANCELLED";
}

/** Sends the request for `tool` with already-validated `args` and maps the outcome. */
export async function callUpstream(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  call: UpstreamCall,
): Promise<CallToolResult> {
  const baseUrl = call.upstream.baseUrl;
  if (!baseUrl)
    return textResult(
      `No upstream base URL is configured, so tool ${tool.name} cannot be called. Start the server with --base-url <url> or set API_BASE_URL.`,
      true,
    );
  const page: CursorApplication = call.paging ? call.paging.apply(tool, args, baseUrl) : { ok: true, args };
  if (!page.ok) return textResult(`Invalid arguments for tool ${tool.name}: ${page.message}`, true);
  let prepared: PreparedRequest;
  try {
    const read = tool.http.body && call.upstream.uploads?.(tool.http.body, page.args, call.cancellation);
    // Synchronous when no argument is a reference: no await added to the usual call.
    const args = read === undefined ? page.args : read instanceof Promise ? await read : read;
    prepared = buildRequest(tool.http, args, baseUrl, call.upstream.encodings);
    // A link/next-URL cursor names the exact page to fetch (same origin, checked when applied).
    if (page.url)
      prepared = {
        ...prepared,
        url: page.url,
        safeUrl: redactUserinfo(page.url.split("?")[0]!),
        path: new URL(page.url).pathname,
      };
  } catch (error) {
    if (call.cancellation?.cancelled) throw new UpstreamCancelledError(`call to tool ${tool.name} was cancelled`);
    if (error instanceof ArgumentError)
      return textResult(`Invalid arguments for tool ${tool.name}: ${error.message}`, true);
    throw error;
  }

  // Waiting for a slot in the queue is not upstream time: the deadline starts with the slot. The queue
  // uses the cancellation only to take a waiting call out (rejected with its reason); a running exchange
  // aborts by itself. Returned, not awaited: no frame of this function waits out the call.
  const exchange = (): Promise<CallToolResult> => exchangeWithUpstream(tool, page, prepared, baseUrl, call);
  return call.queue ? call.queue.run(exchange, call.cancellation, hostOf(prepared.url)) : exchange();
}

/** The network part of a call: credentials, request(s) under one deadline, response mapping. */
async function exchangeWithUpstream(
  tool: ToolDefinition,
  page: Extract<CursorApplication, { ok: true }>,
  prepared: PreparedRequest,
  baseUrl: string,
  call: UpstreamCall,
): Promise<CallToolResult> {
  const timeoutMs = call.upstream.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = call.upstream.client ?? gotClient;
  const started = Date.now();
  const limits: CallLimits = {
    deadline: performance.now() + timeoutMs,
    timedOut: false,
    maxResponseBytes: call.upstream.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    attempts: 0,
  };
  // The deadline cancels the request in flight (retries included), as the caller's cancellation does (see send).
  inFlight.add(limits);
  if (!sweep || limits.deadline < sweep.at) watchDeadlines();
  try {
    let response: UpstreamResponse;
    let credentialQuery: readonly string[] | undefined;
    if (call.credentials) {
      const sent = await call.credentials.send(
        tool.http.security,
        call.fromRequest,
        call.renewFromRequest,
        (authorize) => send(client, prepared, authorize, call, limits, tool.http.path),
      );
      if (!sent.ok) return textResult(`Tool ${tool.name} cannot be called: ${sent.message}`, true);
      ({ response, query: credentialQuery } = sent);
    } else response = await send(client, prepared, undefined, call, limits, tool.http.path);
    call.onResponse?.(response);
    // Built only when kept: a debug line per call is a string and an object that most servers drop.
    if (call.logger?.enabled?.("debug") !== false)
      call.logger?.debug(`upstream ${prepared.method} ${prepared.safeUrl} -> ${response.statusCode}`, {
        tool: tool.name,
        ms: Date.now() - started,
      });
    const parsed: ParsedBody = {};
    const result = mapResponse(
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
      parsed,
    );
    if (tool.http.pagination && call.paging && !result.isError) {
      // The JSON mapResponse parsed; a body of an unusual media type is tried here.
      call.paging.addNext(tool, result, {
        args: page.args,
        body: parsed.json ? parsed.json.value : parseJson(response.body),
        link: headerValue(response.headers.link),
        requestUrl: prepared.url,
        baseUrl,
        credentialQuery,
      });
    }
    return result;
  } catch (error) {
    if (call.cancellation?.cancelled) throw new UpstreamCancelledError(`call to tool ${tool.name} was cancelled`);
    const failed = `Upstream request failed for ${prepared.method} ${prepared.safeUrl}`;
    const warn = (what: string, fields: Record<string, unknown>) =>
      call.logger?.warn(`upstream ${prepared.method} ${prepared.safeUrl} ${what}`, { tool: tool.name, ...fields });
    if (limits.tooLarge) {
      warn("response too large", { limit: limits.maxResponseBytes });
      return textResult(
        `${failed}: the response exceeded the size limit of ${limits.maxResponseBytes} bytes (counted after decompression; ` +
          `${limits.tooLarge.read} bytes read when the transfer was aborted). Narrow the request, or raise the limit with ` +
          `--max-response-bytes or MCP_MAX_RESPONSE_BYTES.`,
        true,
      );
    }
    const failure = client.failure(error);
    if (limits.timedOut || failure === "TimeoutError") {
      warn("timed out", { ms: Date.now() - started });
      const attempts = limits.attempts > 1 ? `, ${limits.attempts} attempts` : "";
      return textResult(
        `${failed}: timed out after ${timeoutMs} ms (one deadline for the whole call${attempts})`,
        true,
      );
    }
    if (failure !== undefined) {
      warn("failed", { code: failure });
      return textResult(`${failed}: ${failure}`, true);
    }
    throw error;
  } finally {
    inFlight.delete(limits);
  }
}

/** Calls in flight, whose deadlines one timer watches (a timer per call cost ~4 µs a call). */
const inFlight = new Set<CallLimits>();
let sweep: { at: number; timer: ReturnType<typeof setTimeout> } | undefined;

/** Times out the calls past their deadline, then sets the timer for the earliest deadline left. */
function watchDeadlines(): void {
  clearTimeout(sweep?.timer);
  const now = performance.now();
  let next = Infinity;
  for (const limits of inFlight) {
    if (limits.deadline > now) next = Math.min(next, limits.deadline);
    else {
      inFlight.delete(limits);
      limits.timedOut = true;
      limits.cancel?.();
    }
  }
  sweep = next < Infinity ? { at: next, timer: unrefed(setTimeout(watchDeadlines, next - now)) } : undefined;
}

/**
 * Sends one request with credentials merged in; credentials never follow a redirect to another origin.
 * Not async: unwatched, the client's own promise is the answer (no frame of its own, no await). Its
 * callers await it in their own `try`, where what throws before the request is sent lands as a rejection would.
 */
function send(
  client: UpstreamClient,
  prepared: PreparedRequest,
  authorize: Authorize | undefined,
  call: UpstreamCall,
  limits: CallLimits,
  template: string,
): Promise<UpstreamResponse> {
  // A client would start the request even when cancelled already.
  if (call.cancellation?.cancelled) throw call.cancellation.cancelled.reason;
  if (limits.timedOut) throw new Error("The upstream call's deadline passed");
  const headers: Record<string, string> = { ...prepared.headers, "user-agent": call.userAgent };
  // Watched before credentials apply: the watcher never sees what authorize adds to the URL or headers.
  const watch = call.trace?.start({ method: prepared.method, url: prepared.url, template });
  if (watch) Object.assign(headers, watch.headers);
  const attemptsBefore = limits.attempts;
  const authorized = authorize?.(prepared.url, headers);
  limits.attempts += 1;
  const sending = client.send(
    {
      method: prepared.method,
      url: authorized?.url ?? prepared.url,
      // The client frames the message from the body; no header set on the way (credentials included) may.
      headers: withoutFramingHeaders(headers),
      body: prepared.body,
      tls: authorized?.tls,
      onRedirect: authorized?.onRedirect,
      retries: call.upstream.retries ?? DEFAULT_RETRIES,
      cancellation: call.cancellation,
    },
    limits,
  );
  if (!watch) return sending;
  const attempts = (): number => limits.attempts - attemptsBefore;
  return sending.then(
    (response) => (watch.end({ status: response.statusCode, attempts: attempts() }), response),
    (error: unknown) => (endFailed(watch, error, call, limits, attempts()), Promise.reject(error as Error)),
  );
}

/** Ends a watched request that got no response, with the class of its failure (never a message). */
function endFailed(
  watch: UpstreamRequestWatch,
  error: unknown,
  call: UpstreamCall,
  limits: CallLimits,
  attempts: number,
): void {
  const code = (error as { code?: unknown }).code;
  const kind = call.cancellation?.cancelled
    ? "cancelled"
    : limits.tooLarge
      ? "response_too_large"
      : limits.timedOut
        ? "timeout"
        : typeof code === "string"
          ? code
          : "_OTHER";
  watch.end({ attempts, error: kind });
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** A timer that does not keep Node running (other platforms' timers have no `unref`). */
function unrefed(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/** The `host[:port]` of an absolute URL (the upstream queue's key), without parsing the whole URL. */
export function hostOf(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]*)/i.exec(url)?.[1]?.toLowerCase() ?? "";
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
