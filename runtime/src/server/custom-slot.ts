/**
 * The slot feature `custom` fills: what the core needs to run the user's code of `src/custom/`
 * (api/extensions.ts) beyond calling its handlers: the hooks around operation calls, the `api`
 * client each handler gets, and its resources, templates and prompts as the MCP methods serve
 * them. A server generated without custom code has none of this.
 */
import type { ApiHost, UntypedApi } from "../api/api-client.js";
import type { CallHooks, Extension, RequestTools } from "../api/extensions.js";
import type { CallToolResult } from "../api/mcp-types.js";
import type { ToolDefinition } from "../api/types.js";

type Args = Record<string, unknown>;

/** Runs the user's hooks around the calls of one server (`tools` is made only when a hook runs). */
export interface CallHookRunner {
  /** Whether some hook runs around calls of tool `name` (the usual case is none: no await between the steps). */
  has(name: string): boolean;
  /** The arguments to send upstream, or the result that replaces the call. */
  before(
    tool: ToolDefinition,
    args: Args,
    tools: () => RequestTools,
  ): Promise<{ args: Args } | { result: CallToolResult }>;
  /** The result to return after the upstream call. */
  after(tool: ToolDefinition, args: Args, result: CallToolResult, tools: () => RequestTools): Promise<CallToolResult>;
}

/** The user's code as the core runs it (feature `custom`). */
export interface CustomCode {
  /** The runner of `hooks`. */
  hooks(hooks: CallHooks): CallHookRunner;
  /** The `api` client of one request. */
  api(host: ApiHost): UntypedApi;
  /** The resources, templates and prompts of `extension`. */
  content(extension: Extension): CustomContent;
}

/** The user's resources, resource templates and prompts, as `resources/*`, `prompts/*` and completion serve them. */
export interface CustomContent {
  /** The resources, templates and prompts as listed (without their functions). */
  resources: readonly object[];
  templates: readonly object[];
  prompts: readonly object[];
  /** The contents of the resource or template `uri` names; undefined when none does. */
  read(uri: string, tools: () => RequestTools): Promise<unknown[]> | unknown[] | undefined;
  /** Values for an argument of a template or prompt `ref` names (by prefix); undefined when it names none of them. */
  complete(ref: Record<string, unknown>, argument: string, prefix: string): string[] | undefined;
  /** `prompts/get` (-32602 for an unknown prompt or wrong arguments). */
  getPrompt(params: Record<string, unknown>, tools: RequestTools): Promise<Record<string, unknown>>;
}
