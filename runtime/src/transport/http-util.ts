/** Small HTTP helpers shared by the Streamable HTTP and the legacy HTTP+SSE transports. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode, errorResponse, type JsonRpcId } from "../protocol/jsonrpc.js";

/** Bytes of request bodies received at once over all requests: slow large bodies cannot hold more. */
export class BodyBudget {
  private used = 0;

  constructor(private readonly limit: number) {}

  /** Reserves `bytes`; false (nothing reserved) when that would exceed the budget. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  /** Gives `bytes` back. */
  give(bytes: number): void {
    this.used -= bytes;
  }
}

/** Why a body was not read: over the size limit, over the body budget, or the client left. */
export type BodyRefusal = "too-large" | "busy" | "aborted";

/** Reads the body, or stops at once when it exceeds `limit` bytes, the `budget` is spent, or the client leaves. */
export function readBody(req: IncomingMessage, limit: number, budget?: BodyBudget): Promise<Buffer | BodyRefusal> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume(); // drain without buffering
    return Promise.resolve("too-large");
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: Buffer | BodyRefusal): void => {
      if (settled) return;
      settled = true;
      budget?.give(size);
      chunks.length = 0;
      resolve(outcome);
    };
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      if (size + chunk.length > limit) return finish("too-large");
      if (budget && !budget.take(chunk.length)) return finish("busy");
      size += chunk.length;
      chunks.push(chunk);
    });
    req.on("end", () => finish(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    // A client that disconnects, or that the request timeout cut off, has nobody to answer.
    req.on("error", () => finish("aborted"));
    req.on("close", () => finish("aborted"));
  });
}

/**
 * Sends a JSON body with its length. Header names are written in lower case, here and in every
 * answer: node:http, and the client's parser, match lower-case names as they are instead of
 * lower-casing each name of each response (HTTP names are case-insensitive; HTTP/2 sends them so).
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Answers a JSON-RPC error (`code`, default InvalidRequest) with HTTP `status`. */
export function reject(
  res: ServerResponse,
  status: number,
  message: string,
  id: JsonRpcId | null = null,
  code: number = ErrorCode.InvalidRequest,
): void {
  sendJson(res, status, errorResponse(id, { code, message }));
}

/** Sends a plain-text body with its length. */
export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
