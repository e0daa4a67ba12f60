/**
 * The helpers custom code, `confirm` and `user-oauth` get for one request ({@link RequestTools}):
 * multi round-trip requests (`inputRequired`, the client's `inputResponses`, the sealed
 * `requestState`), progress, logs, client capabilities and legacy `clientRequest`.
 */
import type { RequestTools } from "../../api/extensions.js";
import type { InputRequiredResult } from "../../api/mcp-types.js";
import { requireClientCapability } from "../../protocol/era.js";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.js";
import { isRecord } from "../../protocol/own.js";
import type { HandlerContext, Params } from "../../server/request-context.js";
import { INPUT_CAPABILITY, type MakeRequestTools } from "../../server/request-tools.js";
import { StateSealer } from "./state-sealer.js";

/** The request helpers of one channel; `stateSecret` keys the sealed `requestState`. */
export const requestHelpers: MakeRequestTools = (channel, stateSecret) => {
  const sealer = new StateSealer(stateSecret);
  return (params: Params, call: HandlerContext): RequestTools => {
    const binding = { method: call.method, target: String(params.name ?? params.uri ?? "") };
    const responses = params.inputResponses ?? {};
    if (!isRecord(responses) || !Object.values(responses).every(isRecord)) {
      throw new RpcError(ErrorCode.InvalidParams, "inputResponses must be an object whose values are result objects");
    }
    const state =
      params.requestState === undefined ? undefined : sealer.open(binding, params.requestState, call.serverHeldState);
    const legacyCapabilities = channel.legacyCapabilitiesOf(call);
    return {
      api: channel.apiFor(call),
      inputResponses: responses as Record<string, Record<string, unknown>>,
      state,
      inputRequired: (inputRequests, nextState) => {
        if (!call.era.modern)
          throw new RpcError(ErrorCode.InvalidRequest, "input_required results need protocol revision 2026-07-28");
        for (const request of Object.values(inputRequests))
          requireClientCapability(call.era, INPUT_CAPABILITY[request.method]);
        const result: InputRequiredResult = { resultType: "input_required", inputRequests };
        if (nextState !== undefined) result.requestState = sealer.seal(binding, nextState);
        return result;
      },
      get signal() {
        return call.cancellation.signal;
      },
      era: call.era,
      clientCapabilities: channel.capabilitiesOf(call),
      progress: (progress, total, message) => channel.progress(params, call, progress, total, message),
      log: (level, data) => channel.log(call, level, data),
      clientRequest: (method, requestParams) => {
        if (call.era.modern)
          throw new RpcError(ErrorCode.InvalidRequest, "client requests are legacy-era only; use inputRequired()");
        if (!channel.requests)
          throw new RpcError(
            ErrorCode.InvalidRequest,
            "ctx.clientRequest needs the client-requests feature, which this server was generated without: regenerate it with mcp-gen --with client-requests",
          );
        return channel.requests.send(call, method, requestParams, legacyCapabilities);
      },
      requireClientCapability: (capability) => {
        if (call.era.modern) requireClientCapability(call.era, capability);
        else if (!isRecord(legacyCapabilities[capability]))
          throw new RpcError(ErrorCode.InvalidRequest, `This request requires the client capability '${capability}'`);
      },
    };
  };
};
