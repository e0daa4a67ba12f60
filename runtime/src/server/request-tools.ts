/**
 * What the server says to the client on behalf of one request: progress, log messages, legacy
 * server→client requests and multi round-trip requests (MRTR), bundled with the `api` client as the
 * {@link RequestTools} custom code gets; and the legacy client's session state these depend on (the capabilities it
 * declared in `initialize`, the level it chose with `logging/setLevel`).
 */
import type { UntypedApi } from "../api/api-client.js";
import { ClientRequests, answererOf, type Settlement } from "./client-requests.js";
import { logLevelAtLeast, requireClientCapability, type McpLogLevel } from "../protocol/era.js";
import type { RequestTools } from "../api/extensions.js";
import type { InputRequest, InputRequiredResult } from "../api/mcp-types.js";
import { ErrorCode, RpcError, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import { isRecord } from "../protocol/own.js";
import type { HandlerContext, Params } from "./request-context.js";
import { StateSealer } from "../protocol/request-state.js";

/** The `api` before the server provides one: no operations. */
const NO_OPERATIONS: UntypedApi = Object.freeze(Object.create(null) as UntypedApi);

/** The client capability each kind of input request needs. */
const INPUT_CAPABILITY: Record<InputRequest["method"], string> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/** The server's side of the conversation with its client(s), per request. */
export class ClientChannel {
  /** Capabilities the legacy client declared in `initialize`. */
  legacyCapabilities: Record<string, unknown> = {};
  /** Legacy `logging/setLevel`; undefined until the client asks, so nothing is sent unasked. */
  legacyLogLevel: McpLogLevel | undefined;
  /** Legacy server→client requests awaiting the client's response. */
  private readonly clientRequests = new ClientRequests();
  private readonly sealer: StateSealer;
  /** The `api` client of one request (tool-call.ts); set by the server once its tool caller exists. */
  private apiFor: (call: HandlerContext) => UntypedApi = () => NO_OPERATIONS;

  /** `loggerName` names the server in `notifications/message`; `stateSecret` keys the sealed `requestState`. */
  constructor(
    private readonly loggerName: string,
    stateSecret: string | undefined,
  ) {
    this.sealer = new StateSealer(stateSecret);
  }

  /** Gives every request's helpers the `api` client `apiFor` makes for it. */
  useApi(apiFor: (call: HandlerContext) => UntypedApi): void {
    this.apiFor = apiFor;
  }

  /**
   * Hands a client's response to the legacy server→client request it answers, when `answerer`
   * ({@link answererOf} of the response's request) is the client it was sent to.
   */
  settle(response: JsonRpcResponse, answerer: string): Settlement {
    return this.clientRequests.settle(response, answerer);
  }

  /**
   * The helpers a custom handler gets for one request. Validates MRTR retry fields first:
   * malformed `inputResponses` or an invalid (tampered, expired, foreign) `requestState` → -32602.
   */
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
    // A legacy HTTP session's own capabilities, else those of this instance's last `initialize` (stdio).
    const legacyCapabilities = call.ctx.session?.clientCapabilities ?? this.legacyCapabilities;
    const clientCapabilities = call.era.modern ? call.era.clientCapabilities : legacyCapabilities;
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
      signal: call.signal,
      era: call.era,
      clientCapabilities,
      progress: (progress, total, message) => this.progress(params, call, progress, total, message),
      log: (level, data) => this.log(call, level, data),
      clientRequest: (method, requestParams) => {
        if (call.era.modern)
          throw new RpcError(ErrorCode.InvalidRequest, "client requests are legacy-era only; use inputRequired()");
        if (!isRecord(clientCapabilities[INPUT_CAPABILITY[method]])) {
          throw new RpcError(
            ErrorCode.InvalidRequest,
            `The client did not declare the '${INPUT_CAPABILITY[method]}' capability`,
          );
        }
        if (!call.ctx.notify)
          throw new RpcError(
            ErrorCode.InvalidRequest,
            "This transport cannot send requests to the client (HTTP: Accept text/event-stream)",
          );
        return this.clientRequests.send(call.ctx.notify, method, requestParams, answererOf(call.ctx), call.signal);
      },
      requireClientCapability: (capability) => {
        if (call.era.modern) requireClientCapability(call.era, capability);
        else if (!isRecord(legacyCapabilities[capability])) {
          throw new RpcError(ErrorCode.InvalidRequest, `This request requires the client capability '${capability}'`);
        }
      },
    };
  }

  /** Sends `notifications/message` for this request when the client asked for that level. */
  log(call: HandlerContext, level: McpLogLevel, data: unknown): void {
    const threshold = call.era.modern
      ? call.era.logLevel
      : call.ctx.session
        ? call.ctx.session.logLevel
        : this.legacyLogLevel;
    if (threshold === undefined || !logLevelAtLeast(level, threshold) || !call.ctx.notify || call.signal.aborted)
      return;
    call.ctx.notify({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level, logger: this.loggerName, data },
    });
  }

  /** Sends `notifications/progress` when the request carried a progress token. */
  progress(
    params: Params,
    call: HandlerContext,
    progress: number,
    total: number | undefined,
    message: string | undefined,
  ): void {
    const meta = isRecord(params._meta) ? params._meta : undefined;
    const token = meta?.progressToken;
    if ((typeof token !== "string" && typeof token !== "number") || !call.ctx.notify || call.signal.aborted) return;
    const body: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) body.total = total;
    if (message !== undefined) body.message = message;
    call.ctx.notify({ jsonrpc: "2.0", method: "notifications/progress", params: body });
  }
}
