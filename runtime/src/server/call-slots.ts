/**
 * The feature slots an operation call consults (server/tool-call.ts): the gate (`confirm`) and the
 * per-user credentials (`user-oauth`). Each is undefined when its feature is off, and costs the call
 * nothing then.
 */
import type { RequestTools } from "../api/extensions.js";
import type { InputRequiredResult, CallToolResult } from "../api/mcp-types.js";
import type { ToolDefinition } from "../api/types.js";
import type { Logger } from "../protocol/logger.js";
import type { StateStore } from "../state/state.js";
import type { HandlerContext } from "./request-context.js";

/** A check of a validated operation call before it goes upstream (feature `confirm`): undefined lets it through. */
export type CallGate = (
  tool: ToolDefinition,
  args: Record<string, unknown>,
  tools: RequestTools,
  call: {
    modern: boolean;
    fromCode: boolean;
    /** The server's state store (shared by every instance with Redis); undefined: this process's memory only. */
    state: StateStore | undefined;
  },
) => Promise<CallToolResult | InputRequiredResult | undefined>;

/** One operation call as the per-user credentials slot (feature `user-oauth`) sees it. */
export interface UserSignInCall {
  tool: ToolDefinition;
  request: HandlerContext;
  tools: RequestTools;
  /** The call comes from an `execute_code` script, which cannot ask the user. */
  fromCode: boolean;
}

/** The user's tokens for the call. */
export interface UserCredentials {
  /** Credentials by scheme key, applied as passthrough credentials are. */
  credentials: Record<string, string>;
  /** After a 401: refreshed credentials, or undefined when the tokens were dropped (sign in again). */
  renew(): Promise<Record<string, string> | undefined>;
}

/** The user's tokens for the call, or the answer that asks them to sign in. */
export type UserSignInOutcome = UserCredentials | { result: CallToolResult | InputRequiredResult };

/** Per-user credentials of a server. */
export interface UserSignIn {
  /** Undefined when the operation needs no per-user credentials; may throw an RpcError (-32042). */
  prepare(call: UserSignInCall): Promise<UserSignInOutcome | undefined>;
}

/** Makes the per-user credentials of a server over its state store (shared across instances or not). */
export type MakeUserSignIn = (context: { state: StateStore | undefined; logger: Logger }) => UserSignIn;
