/**
 * Legacy server→client requests. A request may be answered only by the client it was sent to: it
 * remembers its answerer (session or stream, and OAuth subject) and its id is 128 random bits; an
 * answer from anyone else is refused and logged. With a shared store, a session's answer that
 * reaches another instance is broadcast, and the instance where the request waits checks it too.
 */
import { randomBytes } from "node:crypto";
import { ErrorCode, RpcError, type JsonRpcRequest, type JsonRpcResponse } from "../../protocol/jsonrpc.js";
import { isRecord } from "../../protocol/own.js";
import type { HandlerContext, RequestContext } from "../../server/request-context.js";
import { INPUT_CAPABILITY, type MakeClientRequests } from "../../server/request-tools.js";
import { UpstreamCancelledError } from "../../upstream/upstream.js";

/** How long a server→client request may wait for the client's answer. */
const CLIENT_REQUEST_TIMEOUT_MS = 5 * 60 * 1000;

type Pending = { answerer: string; settle: (response: JsonRpcResponse) => void };

/** Who may answer the server's requests made for a request with this context: its session or stream, and OAuth subject. */
export function answererOf(ctx: RequestContext): string {
  return JSON.stringify([ctx.scope ?? null, ctx.subject ?? null]);
}

/** The server's legacy requests to its clients, awaiting their answers here. */
export const legacyClientRequests: MakeClientRequests = ({ cluster, logger }) => {
  const pending = new Map<string, Pending>();

  /** Hands a response from `answerer` to the request it answers; false when no request here has its id. */
  const settle = (response: JsonRpcResponse, answerer: string): boolean => {
    const waiting = typeof response.id === "string" ? pending.get(response.id) : undefined;
    if (!waiting) return false;
    if (waiting.answerer === answerer) waiting.settle(response);
    else
      logger.warn("refused a client's answer to a request the server sent to another session or caller", {
        id: String(response.id).slice(0, 64),
      });
    return true;
  };

  return {
    send(call, method, params, capabilities) {
      const capability = INPUT_CAPABILITY[method];
      if (!isRecord(capabilities[capability]))
        throw new RpcError(ErrorCode.InvalidRequest, `The client did not declare the '${capability}' capability`);
      if (!call.ctx.notify)
        throw new RpcError(
          ErrorCode.InvalidRequest,
          "This transport cannot send requests to the client (HTTP: Accept text/event-stream)",
        );
      const id = `srv-${randomBytes(16).toString("base64url")}`;
      return new Promise((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          stopWatching();
          pending.delete(id);
        };
        const onAbort = (): void => {
          done();
          reject(new UpstreamCancelledError());
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`the client did not answer ${method} in time`));
        }, CLIENT_REQUEST_TIMEOUT_MS);
        const stopWatching = call.cancellation.onCancel(onAbort);
        pending.set(id, {
          answerer: answererOf(call.ctx),
          settle: (response) => {
            done();
            if ("result" in response) resolve(isRecord(response.result) ? response.result : {});
            else reject(new RpcError(response.error.code, response.error.message, response.error.data));
          },
        });
        call.ctx.notify!({ jsonrpc: "2.0", id, method, params } satisfies JsonRpcRequest);
      });
    },

    receive(response, ctx) {
      const answerer = answererOf(ctx);
      // A session's answer may reach another instance than the one that asked.
      if (!settle(response, answerer) && cluster && ctx.session)
        cluster.broadcast({ type: "client-response", answerer, message: response }).catch((error: unknown) => {
          logger.warn("client-response not sent to the other instances", {
            error: error instanceof Error ? error.message : String(error),
          });
        });
    },

    onBroadcast(message) {
      if (message.type === "client-response" && isRecord(message.message) && typeof message.answerer === "string")
        settle(message.message as unknown as JsonRpcResponse, message.answerer);
    },
  };
};
