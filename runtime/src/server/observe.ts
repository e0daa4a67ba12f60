/**
 * The slots a feature fills to watch and admit MCP requests: an observer (feature `otel`: a span and
 * metrics per request, a child span per upstream request) and an admission check (feature
 * `rate-limit`). The dispatcher consults them only when they are set.
 */
import type { RequestEra } from "../protocol/era.js";
import type { JsonRpcErrorObject, JsonRpcId } from "../protocol/jsonrpc.js";
import type { Logger } from "../protocol/logger.js";
import type { StateStore } from "../state/state.js";
import type { ObservedRequest, Params, RequestContext } from "./request-context.js";

export type { ObservedRequest, RequestOutcome } from "./request-context.js";

/** One request as the dispatcher hands it to the observer and the admission check. */
export interface IncomingRequest {
  id: JsonRpcId;
  method: string;
  params: Params;
  era: RequestEra;
  ctx: RequestContext;
}

/** Watches every request. */
export interface RequestObserver {
  start(request: IncomingRequest): ObservedRequest;
}

/** A refusal by the admission check: the result to answer instead, or the error to answer. */
export type Refusal = { result: Record<string, unknown> } | { error: JsonRpcErrorObject; httpStatus?: number };

/** Decides whether a request runs now; undefined lets it through. */
export interface Admission {
  admit(request: IncomingRequest): Promise<Refusal | undefined> | Refusal | undefined;
}

/** Makes the admission check of a server over its state store (shared across instances or not). */
export type MakeAdmission = (context: { state: StateStore | undefined; logger: Logger }) => Admission;
