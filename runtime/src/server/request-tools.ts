/**
 * What the server says to the client for one request (progress, logs, server→client requests,
 * MRTR): the {@link RequestTools} of custom code, and the legacy client's state these depend on.
 */
import type { UntypedApi } from "../api/api-client.js";
import { logLevelAtLeast, type McpLogLevel } from "../protocol/era.js";
import type { RequestTools } from "../api/extensions.js";
import type { InputRequest } from "../api/mcp-types.js";
import { ErrorCode, RpcError, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import type { Logger } from "../protocol/logger.js";
import { isRecord } from "../protocol/own.js";
import type { HandlerContext, Params, RequestContext } from "./request-context.js";
import type { Cluster } from "../state/cluster-slot.js";

/** The client capability each kind of input request needs. */
export const INPUT_CAPABILITY: Record<InputRequest["method"], string> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/** Legacy server→client requests (feature `client-requests`): sent, then settled by the client's answers. */
export interface ClientRequests {
  /** Asks `call`'s client (it declared `capabilities`); throws if it can't be asked, rejects on error or abort. */
  send(call: HandlerContext, method: InputRequest["method"], params: Params, capabilities: Params): Promise<Params>;
  /** A client's response to a server→client request. */
  receive(response: JsonRpcResponse, ctx: RequestContext): void;
  /** Another instance's broadcast (a client's response that reached it). */
  onBroadcast(message: Record<string, unknown>): void;
}

/** Makes the request helpers of `channel` (feature `input-requests`); `stateSecret` keys `requestState`. */
export type MakeRequestTools = (
  channel: ClientChannel,
  stateSecret: string | undefined,
) => (params: Params, call: HandlerContext) => RequestTools;

/** Makes the server→client requests of a server (with its cluster when the store is shared). */
export type MakeClientRequests = (context: { cluster: Cluster | undefined; logger: Logger }) => ClientRequests;

/** The server's side of the conversation with its client(s), per request. */
export class ClientChannel {
  /** Capabilities the legacy client declared in `initialize`. */
  legacyCapabilities: Record<string, unknown> = {};
  /** Legacy `logging/setLevel`; undefined until the client asks, so nothing is sent unasked. */
  legacyLogLevel: McpLogLevel | undefined;
  /** Legacy server→client requests; undefined without the feature. */
  requests: ClientRequests | undefined;
  /** The `api` client of one request; set by the server once its tool caller exists. */
  apiFor: (call: HandlerContext) => UntypedApi = () => Object.create(null) as UntypedApi;
  private readonly tools: ((params: Params, call: HandlerContext) => RequestTools) | undefined;

  /** `loggerName` names the server in `notifications/message`; `stateSecret` keys the sealed `requestState`. */
  constructor(
    private readonly loggerName: string,
    stateSecret: string | undefined,
    makeTools: MakeRequestTools | undefined,
  ) {
    this.tools = makeTools?.(this, stateSecret);
  }

  /** Whether handlers of this server can get {@link requestTools} (feature `input-requests`). */
  get hasTools(): boolean {
    return this.tools !== undefined;
  }

  /** The helpers a handler gets for one request; malformed or foreign MRTR fields → -32602. */
  requestTools(params: Params, call: HandlerContext): RequestTools {
    if (!this.tools)
      throw new RpcError(
        ErrorCode.InternalError,
        "request helpers need the input-requests feature, which this server was generated without",
      );
    return this.tools(params, call);
  }

  /** The capabilities the client of `call` declared: with the request (modern), else at `initialize`. */
  capabilitiesOf(call: HandlerContext): Record<string, unknown> {
    return call.era.modern ? call.era.clientCapabilities : this.legacyCapabilitiesOf(call);
  }

  /** A legacy HTTP session's own capabilities, else those of this instance's last `initialize` (stdio). */
  legacyCapabilitiesOf(call: HandlerContext): Record<string, unknown> {
    return call.ctx.session?.clientCapabilities ?? this.legacyCapabilities;
  }

  /** Sends `notifications/message` for this request when the client asked for that level. */
  log(call: HandlerContext, level: McpLogLevel, data: unknown): void {
    if (!call.ctx.notify || call.cancellation.cancelled) return;
    const session = call.ctx.session;
    const threshold = call.era.modern ? call.era.logLevel : session ? session.logLevel : this.legacyLogLevel;
    if (threshold === undefined || !logLevelAtLeast(level, threshold)) return;
    call.ctx.notify({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level, logger: this.loggerName, data },
    });
  }

  /** Sends `notifications/progress` when the request carried a progress token. */
  progress(params: Params, call: HandlerContext, progress: number, total?: number, message?: string): void {
    if (!call.ctx.notify || call.cancellation.cancelled) return;
    const token = isRecord(params._meta) ? params._meta.progressToken : undefined;
    if (typeof token !== "string" && typeof token !== "number") return;
    call.ctx.notify({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: {
        progressToken: token,
        progress,
        ...(total !== undefined && { total }),
        ...(message !== undefined && { message }),
      },
    });
  }
}
