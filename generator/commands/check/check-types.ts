/** The shapes shared by the compliance checks: what a check sees, what it returns, small readers of replies. */
import type { ListedTool } from "../../shared/contract.js";
import type { Connection, RpcMessage, RpcReply, StdioConnection } from "./connection.js";
import type { UpstreamTripwire } from "./upstream-tripwire.js";

/** What one check found: passed, failed (with why), or not applicable to this server (with why). */
export type Outcome = { ok: boolean; message: string } | { skipped: string };

/** What the checks share while they run, in order, on one connection. */
export interface CheckContext {
  connection: Connection;
  /** The stdio connection, when the transport is stdio. */
  stdio?: StdioConnection;
  /** The HTTP endpoint, when the transport is HTTP. */
  url?: URL;
  /** The upstream stand-in the server was pointed at (absent for a server checked by URL). */
  tripwire?: UpstreamTripwire;
  /** Filled by the lifecycle checks: the server's capabilities and identity. */
  capabilities?: Record<string, unknown>;
  serverInfo?: { name?: unknown; version?: unknown };
  /** Filled by the listing check: every tool over all pages (undefined when listing failed). */
  tools?: ListedTool[];
  /** Why the tools could not be listed. */
  listError?: string;
}

/** One check: a stable id, its weight in the score, and how to run it. */
export interface CheckDefinition {
  id: string;
  /** Points of the check: the score is the share of points of the checks that apply. */
  weight: number;
  /** Only on this transport (both when absent). */
  transport?: "stdio" | "http";
  run(context: CheckContext): Promise<Outcome>;
}

/** A finished check, as `--json` prints it (weight and skip reason besides `{ id, ok, message }`). */
export interface CheckResult {
  id: string;
  ok: boolean;
  message: string;
  weight: number;
  /** True when the check does not apply to this server (not counted in the score). */
  skipped?: boolean;
}

export const pass = (message: string): Outcome => ({ ok: true, message });
export const fail = (message: string): Outcome => ({ ok: false, message });
export const skip = (reason: string): Outcome => ({ skipped: reason });

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON-RPC error code of a reply, if it is an error. */
export function errorCode(reply: RpcReply): number | undefined {
  const code = reply.message?.error?.code;
  return typeof code === "number" ? code : undefined;
}

/** A reply in a few words, for failure messages: `error -32601 "Method not found"`, `result {…}`, `no answer`. */
export function describeReply(reply: RpcReply): string {
  const status = reply.status !== undefined ? `HTTP ${reply.status}, ` : "";
  const message: RpcMessage | undefined = reply.message;
  if (!message) return `${status}no JSON-RPC answer`;
  if (message.error)
    return `${status}error ${String(message.error.code)} ${JSON.stringify(String(message.error.message ?? "")).slice(0, 120)}`;
  return `${status}result ${JSON.stringify(message.result).slice(0, 160)}`;
}
