// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Integrity-protected, expiring `requestState` for multi round-trip requests (MRTR, 2026-07-28).
 * The state travels through the client, which may tamper with it, so it is sealed with
 * HMAC-SHA256 and bound to the method, the target (tool, prompt or resource) and an expiry.
 * Format: `base64url(JSON payload) "." base64url(HMAC)`. Not encrypted: never put secrets in it.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ErrorCode, RpcError } from "./jsonrpc.js";

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

  /**
   * `secret` should be shared by every instance behind a load balancer (env `MCP_STATE_SECRET`);
   * without one, a random per-process key is used, so states only survive on this process.
   */
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

  /**
   * Opens a sealed state; throws -32602 when it is malformed, tampered, expired or bound elsewhere.
   * `ignoreExpiry` is for states the server kept itself (task rounds), never for client input.
   */
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
