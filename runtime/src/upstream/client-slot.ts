/**
 * The HTTP client of upstream calls, behind one small interface: got on Node (got-client.ts, the
 * default), the platform's `fetch` where got cannot run (feature `fetch`). Both keep to the same
 * call limits (one deadline, a response size cap), retry policy and cancellation; upstream.ts maps
 * what they answer.
 */
import type { Cancellation } from "../protocol/cancellation.js";

/** A redirect about to be followed, as the HTTP client (got, or feature `fetch`) lets it be changed. */
export interface RedirectOptions {
  url?: string | URL | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** TLS options (got's): emptied so a client certificate never follows to another origin. */
  https?: object | undefined;
}

/** One request to send (with its retries): the URL and headers hold credentials, never log them. */
export interface UpstreamRequest {
  /** Upper-case HTTP method. */
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer | undefined;
  /** Client certificate and key (PEM) for mutual TLS. */
  tls?: { certificate: string; key: string } | undefined;
  /** Strips the credentials before a redirect to another origin is followed. */
  onRedirect?: ((options: RedirectOptions) => void) | undefined;
  /** Retries of an idempotent method after a network error or a status of {@link RETRY_STATUS_CODES}. */
  retries: number;
  /** The caller's cancellation: cancels the request in flight and a retry's wait. */
  cancellation?: Cancellation | undefined;
}

/** An upstream response, its body read whole (within the size cap). */
export interface UpstreamResponse {
  statusCode: number;
  statusMessage?: string | undefined;
  /** Lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Limits of one call: its single deadline (`performance.now()`: a clock that never steps) and the response size cap. */
export interface CallLimits {
  deadline: number;
  /** Set when the deadline passed; the request in flight, if any, was cancelled. */
  timedOut: boolean;
  /** Cancels the request in flight (set by the client while one is). */
  cancel?: (() => void) | undefined;
  maxResponseBytes: number;
  /** Set when a response was aborted for exceeding `maxResponseBytes`. */
  tooLarge?: { read: number };
  /** Attempts sent so far (first tries, retries and a token refresh). */
  attempts: number;
}

/** Sends upstream requests. */
export interface UpstreamClient {
  /** Sends `request` (and its retries) within `limits`; rejects on a network failure, the deadline or a cancellation. */
  send(request: UpstreamRequest, limits: CallLimits): Promise<UpstreamResponse>;
  /** The code of one of this client's request failures (`ECONNREFUSED`, `TimeoutError` …); undefined for another error. */
  failure(error: unknown): string | undefined;
}

/** Methods retried (RFC 9110's idempotent ones). */
export const IDEMPOTENT_METHODS = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"] as const;
/** Statuses retried: the upstream may answer the same request later. */
export const RETRY_STATUS_CODES = [408, 429, 502, 503, 504] as const;
/** Longest `Retry-After` honoured before giving up, in milliseconds. */
export const MAX_RETRY_AFTER_MS = 10_000;

/**
 * The wait before retry `attempt` (1 for the first): short and bounded, 250 ms, 500 ms, … capped at
 * 2 s, unless `retryAfterMs` (the upstream's `Retry-After`) says otherwise; 0 (no retry) when the
 * wait would end past the call's deadline.
 */
export function retryDelay(attempt: number, retryAfterMs: number | undefined, limits: CallLimits): number {
  const delay = retryAfterMs ?? Math.min(250 * 2 ** (attempt - 1), 2_000);
  return delay > 0 && performance.now() + delay >= limits.deadline ? 0 : delay;
}
