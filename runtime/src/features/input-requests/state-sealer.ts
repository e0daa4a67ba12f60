/**
 * `requestState` of multi round-trip requests (MRTR), which travels through the client: sealed with
 * HMAC-SHA256, bound to the method, target and an expiry. Not encrypted: never put secrets in it.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.js";

/** Default lifetime of a sealed state: 10 minutes. */
export const DEFAULT_STATE_TTL_MS = 10 * 60 * 1000;

/** What a sealed state is bound to. */
export interface StateBinding {
  method: string;
  target: string;
}

/** Seals and opens `requestState` values with one HMAC key. */
export class StateSealer {
  private readonly key: Buffer;

  /** `secret`: shared by every instance (env `MCP_STATE_SECRET`); default: a random per-process key. */
  constructor(
    secret?: string,
    private readonly ttlMs = DEFAULT_STATE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.key = secret ? Buffer.from(secret, "utf8") : randomBytes(32);
  }

  /** Seals `data` (any JSON value) for one method and target. */
  seal(binding: StateBinding, data: unknown): string {
    const body = Buffer.from(
      JSON.stringify({ m: binding.method, t: binding.target, e: this.now() + this.ttlMs, d: data }),
      "utf8",
    ).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** Opens a sealed state, else -32602; `ignoreExpiry` only for states the server kept itself (task rounds). */
  open(binding: StateBinding, token: unknown, ignoreExpiry = false): unknown {
    const invalid = (why: string) => new RpcError(ErrorCode.InvalidParams, `Invalid requestState: ${why}`);
    if (typeof token !== "string") throw invalid("not a string");
    const dot = token.indexOf(".");
    if (dot <= 0) throw invalid("malformed");
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = Buffer.from(this.mac(body), "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid("integrity check failed");
    let payload: { m?: unknown; t?: unknown; e?: unknown; d?: unknown };
    try {
      payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as typeof payload;
    } catch {
      throw invalid("malformed");
    }
    if (payload.m !== binding.method || payload.t !== binding.target) throw invalid("issued for another request");
    if (typeof payload.e !== "number" || (!ignoreExpiry && payload.e < this.now())) throw invalid("expired");
    return payload.d;
  }

  private mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}
