// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Legacy-era server→client requests (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`): sent on the calling request's stream, matched to the client's responses by a
 * random-prefixed id, with a timeout and cancellation. The modern era uses MRTR instead.
 */
import { randomBytes } from "node:crypto";
import { RpcError, type JsonRpcRequest, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import { UpstreamCancelledError } from "../upstream/upstream.js";

/** How long a server→client request may wait for the client's answer. */
export const CLIENT_REQUEST_TIMEOUT_MS = 5 * 60 * 1000;

type Pending = { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void };

/** The requests this server sent to clients and still awaits. */
export class ClientRequests {
  private readonly pending = new Map<string, Pending>();
  private readonly prefix = `srv-${randomBytes(6).toString("hex")}-`;
  private count = 0;

  /** Sends one request through `send` and resolves to the client's result (rejects on its error). */
  send(
    send: (request: JsonRpcRequest) => void,
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs = CLIENT_REQUEST_TIMEOUT_MS,
  ): Promise<Record<string, unknown>> {
    const id = `${this.prefix}${++this.count}`;
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.pending.delete(id);
      };
      const onAbort = (): void => {
        done();
        reject(new UpstreamCancelledError());
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`the client did not answer ${method} in time`));
      }, timeoutMs);
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** Hands a response from the client to the request it answers; false (ignored) for ids not pending here. */
  settle(response: JsonRpcResponse): boolean {
    const pending = typeof response.id === "string" ? this.pending.get(response.id) : undefined;
    if (!pending) return false;
    if ("result" in response)
      pending.resolve(typeof response.result === "object" && response.result !== null ? response.result : {});
    else pending.reject(new RpcError(response.error.code, response.error.message, response.error.data));
    return true;
  }
}
