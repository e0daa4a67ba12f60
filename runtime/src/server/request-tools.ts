/**
 * What the server says to the client for one request (progress, logs, server→client requests,
 * MRTR): the {@link RequestTools} of custom code, and the legacy client's state these depend on.
 */
import type { UntypedApi } from "../api/api-client.js";
import { logLevelAtLeast, requireClientCapability, type McpLogLevel } from "../protocol/era.js";
import type { RequestTools } from "../api/extensions.js";
import type { InputRequest, InputRequiredResult } from "../api/mcp-types.js";
import { ErrorCode, RpcError, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import type { Logger } from "../protocol/logger.js";
import { isRecord } from "../protocol/own.js";
import type { HandlerContext, Params, RequestContext } from "./request-context.js";
import { StateSealer } from "../protocol/request-state.js";
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
  private readonly sealer: StateSealer;
  /** The `api` client of one request; set by the server once its tool caller exists. */
  apiFor: (call: HandlerContext) => UntypedApi = () => Object.create(null) as UntypedApi;

  /** `loggerName` names the server in `notifications/message`; `stateSecret` keys the sealed `requestState`. */
  constructor(
    private readonly loggerName: string,
    stateSecret: string | undefined,
  ) {
    this.sealer = new StateSealer(stateSecret);
  }

  /** The helpers a custom handler gets for one request; malformed or foreign MRTR fields → -32602. */
  requestTools(params: Params, call: HandlerContext): RequestTools {
    const binding = { method: call.method, target: String(params.name ?? params.uri ?? "") };
    const responses = params.inputResponses ?? {};
    if (!isRecord(responses) || !Object.values(responses).every(isRecord)) {
      throw new RpcError(ErrorCode.InvalidParams, "inputResponses must be an object whose values are result objects");
    }
    const state =
      params.requestState === undefined
        ? undefined
        : this.sealer.open(binding, params.requestState, call.serverHeldState);
    const legacyCapabilities = this.legacyCapabilitiesOf(call);
    const clientCapabilities = this.capabilitiesOf(call);
    return {
      api: this.apiFor(call),
      inputResponses: responses as Record<string, Record<string, unknown>>,
      state,
      inputRequired: (inputRequests, nextState) => {
        if (!call.era.modern)
          throw new RpcError(ErrorCode.InvalidRequest, "input_required results need protocol revision 2026-07-28");
        for (const request of Object.values(inputRequests))
          requireClientCapability(call.era, INPUT_CAPABILITY[request.method]);
        const result: InputRequiredResult = { resultType: "input_required", inputRequests };
        if (nextState !== undefined) result.requestState = this.sealer.seal(binding, nextState);
        return result;
      },
      get signal() {
        return call.cancellation.signal;
      },
      era: call.era,
      clientCapabilities,
      progress: (progress, total, message) => this.progress(params, call, progress, total, message),
      log: (level, data) => this.log(call, level, data),
      clientRequest: (method, requestParams) => {
        if (call.era.modern)
          throw new RpcError(ErrorCode.InvalidRequest, "client requests are legacy-era only; use inputRequired()");
        if (!this.requests)
          throw new RpcError(
            ErrorCode.InvalidRequest,
            "ctx.clientRequest needs the client-requests feature, which this server was generated without: regenerate it with mcp-gen --with client-requests",
          );
        return this.requests.send(call, method, requestParams, legacyCapabilities);
      },
      requireClientCapability: (capability) => {
        if (call.era.modern) requireClientCapability(call.era, capability);
        else if (!isRecord(legacyCapabilities[capability]))
          throw new RpcError(ErrorCode.InvalidRequest, `This request requires the client capability '${capability}'`);
      },
    };
  }

  /** The capabilities the client of `call` declared: with the request (modern), else at `initialize`. */
  capabilitiesOf(call: HandlerContext): Record<string, unknown> {
    return call.era.modern ? call.era.clientCapabilities : this.legacyCapabilitiesOf(call);
  }

  /** A legacy HTTP session's own capabilities, else those of this instance's last `initialize` (stdio). */
  private legacyCapabilitiesOf(call: HandlerContext): Record<string, unknown> {
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
