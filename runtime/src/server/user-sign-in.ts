/**
 * Per-user upstream credentials (feature `user-oauth`): before an operation call, the slot says
 * which tokens of the calling user to send, or answers the call with what the user must do first
 * (sign in through a URL elicitation). The core only asks and applies; who the user is, the vault
 * and the sign-in flow live in the feature.
 */
import type { RequestTools } from "../api/extensions.js";
import type { CallToolResult, InputRequiredResult } from "../api/mcp-types.js";
import type { ToolDefinition } from "../api/types.js";
import type { Logger } from "../protocol/logger.js";
import type { StateStore } from "../state/state.js";
import type { RequestContext } from "./request-context.js";

/** One operation call as the sign-in slot sees it. */
export interface UserSignInCall {
  tool: ToolDefinition;
  ctx: RequestContext;
  tools: RequestTools;
  modern: boolean;
  signal: AbortSignal;
  /** The call comes from an `execute_code` script, which cannot ask the user. */
  fromCode: boolean;
}

/** The user's tokens for the call, or the answer that asks them to sign in. */
export type UserSignInOutcome =
  | {
      /** Credentials by scheme key, applied as passthrough credentials are. */
      credentials: Record<string, string>;
      /** After a 401: refreshed credentials, or undefined when the tokens were dropped (sign in again). */
      renew(): Promise<Record<string, string> | undefined>;
    }
  | { result: CallToolResult | InputRequiredResult };

/** Per-user credentials of a server. */
export interface UserSignIn {
  /** Undefined when the operation needs no per-user credentials; may throw an RpcError (-32042). */
  prepare(call: UserSignInCall): Promise<UserSignInOutcome | undefined>;
}

/** Makes the per-user credentials of a server over its state store (shared across instances or not). */
export type MakeUserSignIn = (context: { state: StateStore | undefined; logger: Logger }) => UserSignIn;
