/**
 * Upstream requests with got (Node): the default {@link UpstreamClient}. got retries (its policy set
 * from client-slot.ts), follows redirects (credentials stripped by `onRedirect`), decompresses and
 * reports download progress, which the size cap watches.
 */
import type { CancelableRequest, Method, OptionsInit, Response } from "got";
import {
  IDEMPOTENT_METHODS,
  MAX_RETRY_AFTER_MS,
  RETRY_STATUS_CODES,
  retryDelay,
  type CallLimits,
  type UpstreamClient,
  type UpstreamRequest,
} from "./client-slot.js";
import { loadGot, loadedGot } from "./lazy-modules.js";

/** What the shared hooks of one request need: its limits, and what strips its credentials on a redirect. */
interface RequestContext extends Record<string, unknown> {
  limits: CallLimits;
  onRedirect?: UpstreamRequest["onRedirect"];
}

type Got = (typeof import("got"))["default"];

/**
 * got instances with every option that does not change between requests (retry policy, response
 * handling, hooks), one per retry limit: a request then passes only its own method, URL, headers,
 * body, signal and context, so got merges a few keys per request instead of the whole option set.
 */
const clients = new Map<number, Got>();

/** The got instance of calls with `retries` retries (see above). */
export function upstreamClient(got: Got, retries: number): Got {
  let client = clients.get(retries);
  if (client) return client;
  client = got.extend({
    throwHttpErrors: false,
    followRedirect: true,
    responseType: "buffer",
    retry: {
      limit: retries,
      methods: [...IDEMPOTENT_METHODS],
      statusCodes: [...RETRY_STATUS_CODES],
      maxRetryAfter: MAX_RETRY_AFTER_MS,
      // got's own backoff is longer; a computed 0 is got deciding not to retry.
      calculateDelay: ({ attemptCount, computedValue, retryAfter, error }) =>
        computedValue === 0
          ? 0
          : retryDelay(
              attemptCount,
              retryAfter === undefined ? undefined : computedValue,
              (error.options.context as RequestContext).limits,
            ),
    },
    hooks: {
      beforeRetry: [
        (error) => {
          (error.options.context as RequestContext).limits.attempts += 1;
        },
      ],
      beforeRedirect: [(options) => (options.context as RequestContext).onRedirect?.(options)],
    },
  });
  clients.set(retries, client);
  return client;
}

/**
 * Sends one request through got; the deadline (`limits.cancel`) and the caller's cancellation cancel it.
 * Not async, and no `await` of got's cancelable promise (a thenable: awaiting it costs two promises more):
 * one `then` on it ends the call's watching.
 */
function sendWithGot(request: UpstreamRequest, limits: CallLimits): Promise<Response<Buffer>> {
  const loaded = loadedGot();
  if (!loaded) return loadGot().then(() => sendWithGot(request, limits));
  const context: RequestContext = { limits, onRedirect: request.onRedirect };
  // responseType "buffer" is the instance's default, which got's types do not carry over. Optional keys are
  // set one by one, not spread from `cond ? { key } : {}`: no throwaway object per absent key, per call.
  const options: OptionsInit = { method: request.method as Method, headers: request.headers, context };
  if (request.body !== undefined) {
    options.body = request.body;
    options.allowGetBody = true;
  }
  if (request.tls) options.https = { ...request.tls };
  const pending = upstreamClient(loaded.default, request.retries)(request.url, options) as unknown as CancelableRequest<
    Response<Buffer>
  >;
  limits.cancel = () => pending.cancel();
  // Counted after decompression; a declared length over the cap is refused before any body is read.
  void pending.on("downloadProgress", ({ transferred, total }) => {
    if (limits.tooLarge || (transferred <= limits.maxResponseBytes && (total ?? 0) <= limits.maxResponseBytes)) return;
    limits.tooLarge = { read: transferred };
    pending.cancel();
  });
  // The caller's cancellation cancels the request (and a retry's wait). Not got's `signal` option:
  // got hands a signal on to node:http, which watches it per socket (~35 µs a call, measured).
  const stopWatching = request.cancellation?.onCancel(() => pending.cancel());
  const settled = (): void => {
    stopWatching?.();
    limits.cancel = undefined;
  };
  return pending.then(
    (response) => (settled(), response),
    (error: unknown) => (settled(), Promise.reject(error as Error)),
  );
}

/** got as the upstream client. */
export const gotClient: UpstreamClient = {
  send: sendWithGot,
  failure(error) {
    const RequestError = loadedGot()?.RequestError;
    if (!RequestError || !(error instanceof RequestError)) return undefined;
    return error.name === "TimeoutError" ? "TimeoutError" : error.code || error.name;
  },
};
