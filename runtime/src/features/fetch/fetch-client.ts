/**
 * Upstream requests with the platform's `fetch` (Workers, Deno, Bun, Lambda), where got cannot
 * run: the same {@link UpstreamClient} contract as got on Node. Retries of idempotent methods after
 * a network error or a status of RETRY_STATUS_CODES (waits from client-slot.ts, within the call's
 * deadline), redirects followed here so that `onRedirect` strips credentials bound elsewhere, the
 * size cap counted on the decompressed body as it streams, the deadline and the caller's
 * cancellation abort the request in flight and a retry's wait.
 */
import {
  IDEMPOTENT_METHODS,
  MAX_RETRY_AFTER_MS,
  RETRY_STATUS_CODES,
  retryDelay,
  type CallLimits,
  type RedirectOptions,
  type UpstreamClient,
  type UpstreamRequest,
  type UpstreamResponse,
} from "../../upstream/client-slot.js";

/** Redirects followed at most (got's default). */
const MAX_REDIRECTS = 10;

/** A request failure of this client: its code names the class (never the URL, which may hold credentials). */
export class FetchRequestError extends Error {
  override readonly name = "FetchRequestError";

  constructor(
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(`upstream request failed: ${code}`, options);
  }
}

/** The platform's fetch as the upstream client. */
export const fetchClient: UpstreamClient = {
  send: sendWithFetch,
  failure: (error) => (error instanceof FetchRequestError ? error.code : undefined),
};

/** Sends the request, retrying as got would, within `limits`. */
async function sendWithFetch(request: UpstreamRequest, limits: CallLimits): Promise<UpstreamResponse> {
  if (request.tls) throw new FetchRequestError("ERR_MTLS_UNSUPPORTED");
  const retries = (IDEMPOTENT_METHODS as readonly string[]).includes(request.method) ? request.retries : 0;
  for (let attempt = 0; ; attempt++) {
    let outcome: UpstreamResponse | FetchRequestError;
    try {
      outcome = await attemptOnce(request, limits);
    } catch (error) {
      if (!(error instanceof FetchRequestError) || error.code === "ERR_RESPONSE_TOO_LARGE") throw error;
      outcome = error;
    }
    const retryable = outcome instanceof FetchRequestError || isRetryStatus(outcome.statusCode);
    const wait = retryable && attempt < retries ? waitBefore(attempt + 1, outcome, limits) : 0;
    if (wait <= 0) {
      if (outcome instanceof FetchRequestError) throw outcome;
      return outcome;
    }
    await sleep(wait, request, limits);
    limits.attempts += 1;
  }
}

function isRetryStatus(status: number): boolean {
  return (RETRY_STATUS_CODES as readonly number[]).includes(status);
}

/** The wait before retry `attempt`: the upstream's `Retry-After` (refused past MAX_RETRY_AFTER_MS), else the backoff. */
function waitBefore(attempt: number, outcome: UpstreamResponse | FetchRequestError, limits: CallLimits): number {
  const header = outcome instanceof FetchRequestError ? undefined : outcome.headers["retry-after"];
  const retryAfter = retryAfterMs(Array.isArray(header) ? header[0] : header);
  if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return 0;
  return retryDelay(attempt, retryAfter, limits);
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Waits `ms`, or rejects as soon as the deadline passes or the caller cancels. */
function sleep(ms: number, request: UpstreamRequest, limits: CallLimits): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = (): void => {
      clearTimeout(timer);
      stopWatching?.();
      reject(request.cancellation?.cancelled?.reason ?? new FetchRequestError("TimeoutError"));
    };
    const timer = setTimeout(() => {
      stopWatching?.();
      limits.cancel = undefined;
      resolve();
    }, ms);
    limits.cancel = stop;
    const stopWatching = request.cancellation?.onCancel(stop);
  });
}

/** One attempt: the request and the redirects it leads to, its body read within the size cap. */
async function attemptOnce(request: UpstreamRequest, limits: CallLimits): Promise<UpstreamResponse> {
  const controller = new AbortController();
  limits.cancel = () => controller.abort();
  const stopWatching = request.cancellation?.onCancel(() => controller.abort());
  const next: RedirectOptions & { url: string; method: string; body: UpstreamRequest["body"] } = {
    url: request.url,
    method: request.method,
    headers: { ...request.headers },
    body: request.body,
  };
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(next.url, {
        method: next.method,
        headers: next.headers as Record<string, string>,
        redirect: "manual",
        signal: controller.signal,
        ...(next.body !== undefined ? { body: next.body } : {}),
      }).catch((error: unknown) => {
        throw failure(error, controller, limits);
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location !== null && redirects < MAX_REDIRECTS) {
        await response.body?.cancel();
        follow(next, response.status, location, request.onRedirect);
        continue;
      }
      return await readResponse(response, limits).catch((error: unknown) => {
        throw failure(error, controller, limits);
      });
    }
  } finally {
    stopWatching?.();
    limits.cancel = undefined;
  }
}

/** Points `next` at a redirect's target (303, and 301/302 of a POST, become a GET without body), then lets `onRedirect` strip credentials. */
function follow(
  next: RedirectOptions & { url: string; method: string; body: UpstreamRequest["body"] },
  status: number,
  location: string,
  onRedirect: UpstreamRequest["onRedirect"],
): void {
  const target = new URL(location, next.url);
  if (status === 303 || ((status === 301 || status === 302) && next.method === "POST")) {
    if (next.method !== "HEAD") next.method = "GET";
    next.body = undefined;
    delete next.headers["content-type"];
  }
  const options: RedirectOptions = { url: target, headers: next.headers };
  onRedirect?.(options);
  next.url = String(options.url ?? target);
}

/** The response with its whole body, or ERR_RESPONSE_TOO_LARGE once the (decompressed) bytes pass the cap. */
async function readResponse(response: Response, limits: CallLimits): Promise<UpstreamResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const declared = Number(headers["content-length"]);
  // A declared length over the cap is refused before any body is read (as with got).
  if (Number.isFinite(declared) && declared > limits.maxResponseBytes && !headers["content-encoding"]) {
    limits.tooLarge = { read: 0 };
    await response.body?.cancel();
    throw new FetchRequestError("ERR_RESPONSE_TOO_LARGE");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxResponseBytes) {
        limits.tooLarge = { read: size };
        await reader.cancel();
        throw new FetchRequestError("ERR_RESPONSE_TOO_LARGE");
      }
      chunks.push(value);
    }
  }
  return {
    statusCode: response.status,
    statusMessage: response.statusText,
    headers,
    body: Buffer.concat(chunks, size),
  };
}

/** The error a failed fetch or body read becomes: the deadline's TimeoutError, else the cause's code. */
function failure(error: unknown, controller: AbortController, limits: CallLimits): unknown {
  if (error instanceof FetchRequestError) return error;
  if (limits.timedOut) return new FetchRequestError("TimeoutError", { cause: error });
  // Aborted by the caller's cancellation: upstream.ts sees the cancellation and stays silent.
  if (controller.signal.aborted) return error;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === "string" ? cause.code : error instanceof Error ? error.name : "ERR_FETCH";
  return new FetchRequestError(code, { cause: error });
}
