/**
 * Inbound rate limits: a token bucket per subject (the OAuth token's subject, else the user a trusted
 * gateway names, else the client's address or session, else the one stdio client) for every request,
 * and one per subject and tool for `tools/call`. A refused request gets an answer the client and the
 * model can act on:
 * - `tools/call`: a tool result with `isError` and the wait in words and in `_meta` — the model
 *   sees tool results (a protocol error usually never reaches it) and can wait or do something else;
 * - any other method: JSON-RPC error 429 with `data.retryAfterSeconds` (HTTP 429 with `Retry-After`).
 *   MCP reserves -32000…-32099 (-32020…-32099 for the specification, -32000…-32019 discouraged for
 *   new implementations), so the code is an application-defined one outside JSON-RPC's reserved
 *   range, the HTTP status's own number.
 * When the shared store (Redis) cannot be reached the limit fails open: the request runs, and the
 * outage is logged once (and its end).
 */
import { createHash } from "node:crypto";
import type { Logger } from "../../protocol/logger.js";
import type { Admission, IncomingRequest, Refusal } from "../../server/observe.js";
import { StateUnavailableError } from "../../state/state.js";
import type { Buckets, Rate, Take } from "./buckets.js";

/** The JSON-RPC error code of a rate-limited request other than `tools/call` (see the module comment). */
export const RATE_LIMITED = 429;
/** The `_meta` key of a refused tool call's wait, in whole seconds. */
export const RETRY_AFTER_META = "mcp-gen/retryAfterSeconds";

/** The limits of a server. */
export interface RateLimits {
  /** Requests per subject, every method. */
  perSubject?: Rate | undefined;
  /** `tools/call` per subject and tool: the default, and tools with their own. */
  perTool?: Rate | undefined;
  tools?: Readonly<Record<string, Rate>>;
  /** The header a trusted gateway names the user by (`--trust-user-header`). */
  userHeader?: string | undefined;
}

/** Who a request counts against: a kind and an opaque key (a hash: subjects are not stored in clear). */
export function subjectOf(request: IncomingRequest, userHeader: string | undefined): { kind: string; key: string } {
  const { ctx } = request;
  const header = userHeader ? ctx.headers?.[userHeader.toLowerCase()] : undefined;
  const user = Array.isArray(header) ? header[0] : header;
  const [kind, id] =
    ctx.subject !== undefined
      ? ["OAuth subject", `sub:${ctx.subject}`]
      : user?.trim()
        ? ["user", `user:${user.trim()}`]
        : ctx.clientAddress !== undefined
          ? ["client", `address:${ctx.clientAddress}`]
          : ["client", ctx.scope ?? "stdio"];
  return { kind, key: createHash("sha256").update(id).digest("base64url").slice(0, 22) };
}

/** Whole seconds to wait, at least one. */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function per(rate: Rate): string {
  const unit = rate.windowMs === 1_000 ? "second" : rate.windowMs === 60_000 ? "minute" : "hour";
  return `${rate.limit} per ${unit}`;
}

/** The answer to a refused request (see the module comment). */
export function refusal(request: IncomingRequest, what: string, rate: Rate, retryAfterMs: number): Refusal {
  const wait = seconds(retryAfterMs);
  const message = `Rate limit reached: ${what} may make ${per(rate)}. Retry after ${wait} s.`;
  if (request.method === "tools/call")
    return {
      result: {
        content: [{ type: "text", text: `${message} Other work can go on meanwhile.` }],
        isError: true,
        _meta: { [RETRY_AFTER_META]: wait },
      },
    };
  return { error: { code: RATE_LIMITED, message, data: { retryAfterSeconds: wait } }, httpStatus: 429 };
}

/** The admission check of {@link RateLimits} over `buckets`. */
export class RateAdmission implements Admission {
  private failing = false;

  constructor(
    private readonly limits: RateLimits,
    private readonly buckets: Buckets,
    private readonly logger: Logger,
  ) {}

  async admit(request: IncomingRequest): Promise<Refusal | undefined> {
    const { perSubject, perTool, tools, userHeader } = this.limits;
    const subject = subjectOf(request, userHeader);
    if (perSubject) {
      const taken = await this.take(`rate:${subject.key}`, perSubject);
      if (!taken.ok) return refusal(request, `this ${subject.kind}`, perSubject, taken.retryAfterMs);
    }
    const tool = request.method === "tools/call" ? request.params.name : undefined;
    const rate = typeof tool === "string" ? (tools && Object.hasOwn(tools, tool) ? tools[tool] : perTool) : undefined;
    if (rate && typeof tool === "string") {
      const toolKey = createHash("sha256").update(tool).digest("base64url").slice(0, 16);
      const taken = await this.take(`rate:${subject.key}:${toolKey}`, rate);
      if (!taken.ok) return refusal(request, `this ${subject.kind} on tool ${tool}`, rate, taken.retryAfterMs);
    }
    return undefined;
  }

  /** One bucket's answer; a store that cannot be reached lets the request through (logged once per outage). */
  private async take(key: string, rate: Rate): Promise<Take> {
    try {
      const taken = await this.buckets.take(key, rate);
      if (this.failing) {
        this.failing = false;
        this.logger.info("rate limits: the state store answers again; limits apply");
      }
      return taken;
    } catch (error) {
      if (!(error instanceof StateUnavailableError)) throw error;
      if (!this.failing) {
        this.failing = true;
        this.logger.warn(`rate limits: not applied while the state store is unavailable (${error.message})`);
      }
      return { ok: true };
    }
  }
}
