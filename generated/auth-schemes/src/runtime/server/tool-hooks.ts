// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * The user's hooks around one operation call (extensions.ts): the global `beforeCall`/`afterCall`
 * and the tool's own `before`/`after`, keyed by tool name in the same `hooks` object. Order, like
 * layers around the call: `beforeCall`, the tool's `before`, the upstream call, the tool's `after`,
 * `afterCall`. A `before` that returns a result ends the call there: no upstream call, no later hook.
 */
import type { CallHooks, RequestTools, ToolHooks } from "../api/extensions.js";
import type { CallToolResult } from "../api/mcp-types.js";
import { getOwn, isRecord } from "../protocol/own.js";
import type { ToolDefinition } from "../api/types.js";

type Args = Record<string, unknown>;
/** The hooks object as the server holds it: global hooks plus per-tool entries. */
type Hooks = CallHooks | undefined;

/** The hooks of tool `name` in `hooks` (own property only: a tool named `constructor` finds nothing inherited). */
function toolHooks(hooks: Hooks, name: string): ToolHooks<Args, unknown> | undefined {
  if (!hooks || name === "beforeCall" || name === "afterCall") return undefined;
  const entry = getOwn(hooks, name);
  return isRecord(entry) ? (entry as ToolHooks<Args, unknown>) : undefined;
}

/** Whether a hook's return value is a tool result rather than replacement arguments. */
function isCallToolResult(value: unknown): value is CallToolResult {
  return isRecord(value) && Array.isArray(value.content);
}

/** Runs the `before` hooks: the arguments to send upstream, or the result that replaces the call. */
export async function runBeforeHooks(
  hooks: Hooks,
  tool: ToolDefinition,
  args: Args,
  tools: RequestTools,
): Promise<{ args: Args } | { result: CallToolResult }> {
  let current = args;
  for (const before of [hooks?.beforeCall?.bind(hooks, tool), toolHooks(hooks, tool.name)?.before]) {
    if (!before) continue;
    const outcome = await before(current, tools);
    if (isCallToolResult(outcome)) return { result: outcome };
    if (isRecord(outcome)) current = outcome;
  }
  return { args: current };
}

/** Runs the `after` hooks on the call's result: the result to return. */
export async function runAfterHooks(
  hooks: Hooks,
  tool: ToolDefinition,
  args: Args,
  result: CallToolResult,
  tools: RequestTools,
): Promise<CallToolResult> {
  let current = result;
  const own = toolHooks(hooks, tool.name)?.after;
  if (own) current = (await own(current, args, tools)) ?? current;
  if (hooks?.afterCall) current = (await hooks.afterCall(tool, args, current, tools)) ?? current;
  return current;
}
