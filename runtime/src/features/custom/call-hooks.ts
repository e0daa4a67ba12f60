/**
 * The user's hooks around one operation call (define-extension.ts), like layers: `beforeCall`, the
 * tool's own `before` (keyed by tool name in the same object), the upstream call, its `after`,
 * `afterCall`. A `before` that returns a result ends the call there.
 */
import type { CallHooks, RequestTools } from "../../api/extensions.js";
import type { ToolHooks } from "./define-extension.js";
import type { UntypedApi } from "../../api/api-client.js";
import type { CallToolResult } from "../../api/mcp-types.js";
import type { ToolDefinition } from "../../api/types.js";
import { getOwn, isRecord } from "../../protocol/own.js";

type Args = Record<string, unknown>;

/** True when some hook runs around calls of tool `name` (without hooks the call has no await in between). */
export function hasHooks(hooks: CallHooks | undefined, name: string): hooks is CallHooks {
  return hooks !== undefined && (hooks.beforeCall || hooks.afterCall || toolHooks(hooks, name)) !== undefined;
}

/** The hooks of tool `name` (an own property of `hooks`: a tool named `constructor` finds nothing inherited). */
function toolHooks(hooks: CallHooks, name: string): ToolHooks<Args, unknown, UntypedApi> | undefined {
  const entry = name === "beforeCall" || name === "afterCall" ? undefined : getOwn(hooks, name);
  return isRecord(entry) ? (entry as ToolHooks<Args, unknown, UntypedApi>) : undefined;
}

/**
 * Runs the `before` hooks: the arguments to send upstream, or the result that replaces the call.
 * `tools` is asked for only when a hook runs: a server with hooks for some tools builds nothing
 * for the calls of the others.
 */
export async function runBeforeHooks(
  hooks: CallHooks,
  tool: ToolDefinition,
  args: Args,
  tools: () => RequestTools,
): Promise<{ args: Args } | { result: CallToolResult }> {
  let current = args;
  for (const before of [hooks.beforeCall?.bind(hooks, tool), toolHooks(hooks, tool.name)?.before]) {
    if (!before) continue;
    const outcome = await before(current, tools());
    if (isRecord(outcome) && Array.isArray(outcome.content)) return { result: outcome as CallToolResult };
    if (isRecord(outcome)) current = outcome;
  }
  return { args: current };
}

/** Runs the `after` hooks on the call's result: the result to return (`tools` as for the `before` hooks). */
export async function runAfterHooks(
  hooks: CallHooks,
  tool: ToolDefinition,
  args: Args,
  result: CallToolResult,
  tools: () => RequestTools,
): Promise<CallToolResult> {
  const own = toolHooks(hooks, tool.name)?.after;
  let current = own ? ((await own(result, args, tools())) ?? result) : result;
  if (hooks.afterCall) current = (await hooks.afterCall(tool, args, current, tools())) ?? current;
  return current;
}
