/**
 * The JSON-RPC dispatcher behind `McpServer`: envelopes, batches, the era of each request and its
 * method table, cancellation of in-flight requests, modern result decoration, errors on the wire.
 */
import { classifyEra, hasModernMeta, type RequestEra } from "../protocol/era.js";
import {
  ErrorCode,
  RpcError,
  classifyMessage,
  errorResponse,
  successResponse,
  type JsonRpcId,
  type JsonRpcErrorResponse,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../protocol/jsonrpc.js";
import { describeError, type Logger } from "../protocol/logger.js";
import { isRecord } from "../protocol/own.js";
import { BATCH_PROTOCOL_VERSION, META_SERVER_INFO } from "../protocol/versions.js";
import type {
  HandlerContext,
  NotificationHandler,
  ObservedRequest,
  Params,
  RequestContext,
  RequestHandler,
} from "./request-context.js";
import { UpstreamCancelledError } from "../upstream/upstream.js";
import { Cancellation } from "../protocol/cancellation.js";
import type { Admission, IncomingRequest, Refusal, RequestObserver } from "./observe.js";

/** Default largest JSON-RPC batch (revision 2025-03-26) answered; a longer one is refused whole. */
export const DEFAULT_MAX_BATCH = 100;

/** Caching hints on modern list, read and discover results: the catalog is fixed, so it is public. */
export const CACHE_HINTS = { ttlMs: 300_000, cacheScope: "public" } as const;

/** Methods whose complete modern results carry {@link CACHE_HINTS}. */
const CACHEABLE = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/** The method tables and server state a {@link Dispatcher} routes with. */
export interface DispatcherOptions {
  /** Methods of the legacy (≤ 2025-11-25) and modern (2026-07-28) eras. */
  legacy: Record<string, RequestHandler>;
  modern: Record<string, RequestHandler>;
  /** Receives the client's responses (to legacy server→client requests). */
  onResponse(response: JsonRpcResponse, ctx: RequestContext): void;
  /** Called for a `notifications/cancelled` whose request does not run here (it may run on another instance). */
  onCancelElsewhere?(
    cancellation: { scope: string | undefined; requestId: JsonRpcId; reason: string },
    ctx: RequestContext,
  ): void;
  /** The revision the last legacy `initialize` negotiated on this instance, if any. */
  negotiatedVersion(): string | undefined;
  /** The server's identity (`name`, `version`, `title`) for modern results' `_meta`. */
  implementation(): Record<string, unknown>;
  /** Largest batch answered; a longer one gets one -32600 error. */
  maxBatch: number;
  logger: Logger;
  /** Watches each request (feature `otel`); absent: nothing is watched. */
  observer?: RequestObserver | undefined;
  /** Decides whether each request runs now (feature `rate-limit`); absent: all run. */
  admission?: Admission | undefined;
}

/** A message that is not a request. */
type OtherMessage = Exclude<ReturnType<typeof classifyMessage>, { kind: "request" }>;

/** Routes messages to method handlers, for every transport and both eras. */
export class Dispatcher {
  private readonly inFlight = new Map<string, Cancellation>();
  /** `_meta` of a modern result: the server's identity (see modernResult). */
  private serverMeta?: Readonly<Record<string, unknown>>;
  private readonly notifications: Record<string, NotificationHandler> = {
    "notifications/initialized": () => {},
    "notifications/cancelled": (params, ctx) => this.cancel(params, ctx),
  };

  constructor(private readonly options: DispatcherOptions) {}

  /** A JSON-RPC batch: legal only under revision 2025-03-26, else (or when empty) one InvalidRequest error. */
  async handleBatch(
    messages: unknown[],
    ctx: RequestContext,
  ): Promise<JsonRpcResponse[] | JsonRpcResponse | undefined> {
    const version = ctx.protocolVersion ?? this.options.negotiatedVersion();
    if (version !== BATCH_PROTOCOL_VERSION) {
      return errorResponse(null, {
        code: ErrorCode.InvalidRequest,
        message: `JSON-RPC batches are only supported in protocol revision ${BATCH_PROTOCOL_VERSION} (current: ${version ?? "none negotiated"})`,
      });
    }
    if (messages.length === 0) return errorResponse(null, { code: ErrorCode.InvalidRequest, message: "empty batch" });
    // Refused whole, before any message runs: a partial answer would hide which calls ran.
    if (messages.length > this.options.maxBatch) {
      return errorResponse(null, {
        code: ErrorCode.InvalidRequest,
        message: `JSON-RPC batch too large: ${messages.length} messages, the limit is ${this.options.maxBatch} (server flag --max-batch, env MCP_MAX_BATCH)`,
      });
    }
    // Notifications inside a batch have no stream of their own.
    const batchCtx: RequestContext = { ...ctx, notify: undefined };
    const responses = await Promise.all(messages.map((message) => this.handle(message, batchCtx)));
    const answered = responses.filter((r): r is JsonRpcResponse => r !== undefined);
    return answered.length > 0 ? answered : undefined;
  }

  /**
   * Handles one message. Resolves to the response, or undefined for notifications, responses and
   * cancelled requests. Not async: a request's own promise is handed back (no frame of this one
   * kept around it, no extra microtask turns).
   */
  handle(message: unknown, ctx: RequestContext): Promise<JsonRpcResponse | undefined> {
    const classified = classifyMessage(message);
    return classified.kind === "request"
      ? this.handleRequest(classified.message, ctx)
      : this.handleOther(classified, ctx);
  }

  /** A message that is not a request: the error of an invalid one, else nothing (a response, a notification). */
  private async handleOther(classified: OtherMessage, ctx: RequestContext): Promise<JsonRpcResponse | undefined> {
    switch (classified.kind) {
      case "invalid":
        return errorResponse(classified.id, {
          code: ErrorCode.InvalidRequest,
          message: `Invalid request: ${classified.reason}`,
        });
      case "response":
        // The answer to a legacy server→client request; unknown ids are ignored.
        this.options.onResponse(classified.message, ctx);
        return undefined;
      case "notification": {
        const { method, params } = classified.message;
        const handler = Object.hasOwn(this.notifications, method) ? this.notifications[method] : undefined;
        if (!handler) return void this.options.logger.debug(`ignoring unknown notification ${method}`);
        try {
          handler(isRecord(params) ? params : {}, ctx);
        } catch (error) {
          this.options.logger.error(`notification ${method} failed`, { error: describeError(error) });
        }
        return undefined;
      }
    }
  }

  private async handleRequest(request: JsonRpcRequest, ctx: RequestContext): Promise<JsonRpcResponse | undefined> {
    const { id, method, params } = request;
    if (params !== undefined && !isRecord(params))
      return errorResponse(id, { code: ErrorCode.InvalidParams, message: "params must be an object" });
    let era: RequestEra;
    try {
      // A plain `initialize` means legacy semantics, whatever the transport's version hint says;
      // one carrying modern `_meta` is a modern request for a removed method (-32601, HTTP 404).
      era =
        method === "initialize" && !hasModernMeta(params)
          ? { modern: false, version: undefined }
          : classifyEra(params, ctx.protocolVersion, this.options.negotiatedVersion());
    } catch (error) {
      return this.errorFrom(id, method, error);
    }
    const table = era.modern ? this.options.modern : this.options.legacy;
    // Object.hasOwn: method names like "constructor" must not reach the prototype.
    const handler = Object.hasOwn(table, method) ? table[method] : undefined;
    const notFound = { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` };
    if (!handler) return errorResponse(id, notFound, era.modern ? 404 : undefined);

    const gone = ctx.gone ?? ctx.signal;
    if (gone instanceof Cancellation ? gone.cancelled : gone?.aborted) return undefined;
    // The transport's signal (or cancellation) is the request's own: the listener goes with it.
    const cancellation = new Cancellation(gone);
    const key = inFlightKey(ctx.scope, id);
    this.inFlight.set(key, cancellation);
    const p = (params as Params | undefined) ?? {};
    // The features that watch or admit requests (otel, rate-limit) see them only when present.
    const { observer, admission } = this.options;
    const incoming: IncomingRequest | undefined =
      observer || admission ? { id, method, params: p, era, ctx } : undefined;
    const observed = observer?.start(incoming!);
    try {
      const refusal = admission && (await admission.admit(incoming!));
      if (refusal) return this.refuse(id, method, refusal, era, ctx, observed);
      const context: HandlerContext = { id, method, ctx, era, cancellation };
      if (observed) context.observed = observed; // not spread from a literal: no throwaway object per request
      const result = await handler(p, context);
      if (cancellation.cancelled) return void observed?.end({ cancelled: true });
      observed?.end({ result });
      return successResponse(id, era.modern ? this.modernResult(method, result, ctx) : result);
    } catch (error) {
      if (cancellation.cancelled || error instanceof UpstreamCancelledError)
        return void observed?.end({ cancelled: true });
      const response = this.errorFrom(id, method, error);
      observed?.end({ error: response.error });
      return response;
    } finally {
      if (this.inFlight.get(key) === cancellation) this.inFlight.delete(key);
    }
  }

  /** The answer to a request the admission check refused: its result, or its error. */
  private refuse(
    id: JsonRpcId,
    method: string,
    refusal: Refusal,
    era: RequestEra,
    ctx: RequestContext,
    observed: ObservedRequest | undefined,
  ): JsonRpcResponse {
    if ("result" in refusal) {
      observed?.end({ result: refusal.result, rateLimited: true });
      return successResponse(id, era.modern ? this.modernResult(method, refusal.result, ctx) : refusal.result);
    }
    observed?.end({ error: refusal.error, rateLimited: true });
    return errorResponse(id, refusal.error, refusal.httpStatus);
  }

  private errorFrom(id: JsonRpcId, method: string, error: unknown): JsonRpcErrorResponse {
    if (error instanceof RpcError) return errorResponse(id, error.toJSON(), error.httpStatus);
    this.options.logger.error(`request ${method} failed`, { error: describeError(error) });
    return errorResponse(id, { code: ErrorCode.InternalError, message: "Internal error" });
  }

  /** Modern results: `resultType`, the server's identity, and caching hints where required. */
  private modernResult(method: string, result: Record<string, unknown>, ctx: RequestContext): Record<string, unknown> {
    const resultType = typeof result.resultType === "string" ? result.resultType : "complete";
    // The server's identity never changes: built once and shared (frozen) by the results that carry no `_meta`.
    this.serverMeta ??= Object.freeze({ [META_SERVER_INFO]: this.options.implementation() });
    const _meta = isRecord(result._meta) ? { ...result._meta, ...this.serverMeta } : this.serverMeta;
    const decorated: Record<string, unknown> = { ...result, resultType, _meta };
    if (resultType === "complete" && CACHEABLE.has(method)) Object.assign(decorated, CACHE_HINTS);
    // A tool list filtered by the caller's OAuth scopes or choice is theirs alone.
    if (method === "tools/list" && (ctx.scopes || ctx.choice) && resultType === "complete")
      decorated.cacheScope = "private";
    return decorated;
  }

  /** `notifications/cancelled`: aborts the in-flight request it names (in the same scope). */
  private cancel(params: Params, ctx: RequestContext): void {
    const requestId = params.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const reason = typeof params.reason === "string" ? params.reason : "cancelled by client";
    if (!this.cancelLocal(ctx.scope, requestId, reason))
      this.options.onCancelElsewhere?.({ scope: ctx.scope, requestId, reason }, ctx);
  }

  /** Aborts request `requestId` of `scope` if it runs here; false when it does not (finished, unknown: ignored). */
  cancelLocal(scope: string | undefined, requestId: JsonRpcId, reason: string): boolean {
    const cancellation = this.inFlight.get(inFlightKey(scope, requestId));
    if (!cancellation) return false;
    this.options.logger.debug(`cancelling request ${String(requestId)}`);
    cancellation.cancel(new Error(reason));
    return true;
  }
}

function inFlightKey(scope: string | undefined, id: JsonRpcId): string {
  // typeof keeps the string "1" and the number 1 apart, as JSON-RPC does.
  return `${scope ?? ""}\u0000${typeof id}:${String(id)}`;
}
