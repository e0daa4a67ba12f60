/**
 * Legacy-era server→client requests (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`): sent on the calling request's stream, matched to the client's responses by id,
 * with a timeout and cancellation. The modern era uses MRTR instead.
 *
 * A request may be answered only by the client it was sent to: each pending request remembers its
 * answerer (the session or stream, and the OAuth subject, of the request that made it), and its id
 * is 128 random bits, so another client can neither guess it nor use it: an answer from anyone else
 * is refused (the server logs it). Across instances the same check runs where the request waits.
 */
import { randomBytes } from "node:crypto";
import { RpcError, type JsonRpcRequest, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import { UpstreamCancelledError } from "../upstream/upstream.js";
import type { RequestContext } from "./request-context.js";

/** How long a server→client request may wait for the client's answer. */
export const CLIENT_REQUEST_TIMEOUT_MS = 5 * 60 * 1000;

type Pending = {
  answerer: string;
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
};

/** What happened to a client's response: it settled a request, was refused (another client's request), or matched none here. */
export type Settlement = "settled" | "refused" | "unknown";

/** Who may answer the server's requests made for a request with this context: its session or stream, and OAuth subject. */
export function answererOf(ctx: RequestContext): string {
  return JSON.stringify([ctx.scope ?? null, ctx.subject ?? null]);
}

/** The requests this server sent to clients and still awaits. */
export class ClientRequests {
  private readonly pending = new Map<string, Pending>();

  /**
   * Sends one request through `send` and resolves to the client's result (rejects on its error);
   * only a response from `answerer` ({@link answererOf}) settles it.
   */
  send(
    send: (request: JsonRpcRequest) => void,
    method: string,
    params: Record<string, unknown>,
    answerer: string,
    signal: AbortSignal,
    timeoutMs = CLIENT_REQUEST_TIMEOUT_MS,
  ): Promise<Record<string, unknown>> {
    const id = `srv-${randomBytes(16).toString("base64url")}`;
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
        answerer,
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

  /** Hands a response from `answerer` to the request it answers, if that request waits here and was sent to it. */
  settle(response: JsonRpcResponse, answerer: string): Settlement {
    const pending = typeof response.id === "string" ? this.pending.get(response.id) : undefined;
    if (!pending) return "unknown";
    if (pending.answerer !== answerer) return "refused";
    if ("result" in response)
      pending.resolve(typeof response.result === "object" && response.result !== null ? response.result : {});
    else pending.reject(new RpcError(response.error.code, response.error.message, response.error.data));
    return "settled";
  }
}
