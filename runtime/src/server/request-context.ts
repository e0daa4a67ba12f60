/** What travels with one request: the transport's {@link RequestContext}, the dispatcher's {@link HandlerContext}, handlers' shapes. */
import type { RequestEra, McpLogLevel } from "../protocol/era.js";
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcNotification, JsonRpcRequest } from "../protocol/jsonrpc.js";
import type { ClientInfo } from "../protocol/client-info.js";
import type { MetaTools } from "./surfaces.js";
import type { Cancellation } from "../protocol/cancellation.js";
import type { UpstreamTrace } from "../upstream/trace.js";
import type { ChosenTools, ToolChoice } from "./choice-slot.js";

/** What the transport knows about the message it hands to the dispatcher. */
export interface RequestContext {
  /** The revision the transport saw (HTTP header or its default); absent: this instance's `initialize`. */
  protocolVersion?: string;
  /** OAuth scopes of the caller's token, when the HTTP transport runs as a resource server. */
  scopes?: ReadonlySet<string>;
  /** The tool surface the HTTP connection chose (feature `toolsets`, choice-slot.ts); absent: the process's own. */
  choice?: ChosenTools;
  /** The token's subject in resource-server mode: tasks belong to the subject that created them. */
  subject?: string;
  /** Incoming HTTP request headers (lower-case names), for passthrough rules; absent on stdio. */
  headers?: Record<string, string | string[] | undefined>;
  /** Aborted when the requester is gone; one per request. */
  signal?: AbortSignal;
  /**
   * Cancelled by the transport when the requester is gone (HTTP: the response closed before its end): the
   * same as `signal` without an `AbortSignal` per request (one is made only for code that reads it).
   */
  gone?: Cancellation;
  /** The legacy client's identity as the transport knows it; null: it cannot tell (stateless HTTP); absent: this instance's `initialize`. */
  client?: ClientInfo | null;
  /** The HTTP client's address (behind a proxy: the proxy's); absent on stdio. */
  clientAddress?: string;
  /** Partition of request ids (cancellation, answers): one client cannot cancel another's request of the same id. */
  scope?: string;
  /** Delivers this request's notifications and legacy requests to the client; absent when it cannot stream. */
  notify?: (message: JsonRpcNotification | JsonRpcRequest) => void;
  /** The legacy HTTP session (`--sessions`): its capabilities and log level apply; the transport saves its changes. */
  session?: LegacySession;
}

/** Per-request data handed to method handlers (runtime-internal). */
export interface HandlerContext {
  id: JsonRpcId;
  method: string;
  ctx: RequestContext;
  era: RequestEra;
  /** Cancelled on `notifications/cancelled` or when the transport's signal aborts. */
  cancellation: Cancellation;
  /** Later rounds of a task: their `requestState` never left this server, so its expiry does not apply. */
  serverHeldState?: boolean;
  /** Set when the request's client is served a profile's view: the meta tools of its surface. */
  view?: { meta: MetaTools | undefined };
  /** Set when a feature watches requests (otel): the request's span, whose upstream requests it watches too. */
  observed?: ObservedRequest;
}

/** How a request ended. */
export type RequestOutcome =
  | { result: Record<string, unknown>; rateLimited?: boolean }
  | { error: JsonRpcErrorObject; rateLimited?: boolean }
  | { cancelled: true };

/** A request being watched. */
export interface ObservedRequest {
  /** Watches the upstream requests made for it. */
  readonly upstream?: UpstreamTrace;
  end(outcome: RequestOutcome): void;
}

/** A request's `params` (always an object once the dispatcher has checked it). */
export type Params = Record<string, unknown>;
/** Serves one request method; resolves to its result or throws (RpcError for protocol errors). */
export type RequestHandler = (params: Params, call: HandlerContext) => Promise<Record<string, unknown>>;
/** Handles one notification method. */
export type NotificationHandler = (params: Params, ctx: RequestContext) => void;

/** What a legacy session remembers between requests. */
export interface LegacySession {
  /** The revision `initialize` negotiated. */
  version: string;
  /** Capabilities the client declared in `initialize`. */
  clientCapabilities: Record<string, unknown>;
  /** The level of `logging/setLevel`; absent until the client asks (nothing is sent unasked). */
  logLevel?: McpLogLevel;
  /** The `clientInfo` the client announced in `initialize` (client profiles adapt to it). */
  client?: ClientInfo;
  /** OAuth mode: the owner (a hash of the token's issuer and subject) of the session; only it may use it. */
  owner?: string;
  /** The tool surface chosen at `initialize` (URL or headers): every request of the session keeps it. */
  choice?: ToolChoice;
}
