/**
 * The extension API for the user's own code (`src/custom/` in a generated server): extra tools,
 * resources, resource templates and prompts served next to the generated tools, and hooks around
 * every upstream call. Everything is plain data plus functions; the dispatcher does the protocol.
 */
import type { McpLogLevel, RequestEra } from "./era.js";
import type { CallToolResult } from "./mcp-types.js";
import type { TaskSupport } from "./tasks.js";
import type { ToolDefinition, ToolMetadata } from "./types.js";

/** What a custom handler may do while serving one request. */
export interface RequestTools {
  /** Aborted when the client cancels (notification or, on modern HTTP, closing the stream). */
  readonly signal: AbortSignal;
  /** The request's era; for modern requests it carries the per-request client capabilities. */
  readonly era: RequestEra;
  /** The client's capabilities: per request (modern) or from `initialize` (legacy). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** Sends `notifications/progress` when the client sent a progress token; no-op otherwise. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message` when the client asked for this level. Never pass secrets. */
  log(level: McpLogLevel, data: unknown): void;
  /** Throws -32021 (modern, HTTP 400) unless the client declared `capability`. */
  requireClientCapability(capability: string): void;
  /** Modern retries: the client's answers to the previous `inputRequests`, by key (empty when none). */
  readonly inputResponses: Readonly<Record<string, Record<string, unknown>>>;
  /** Modern retries: the state passed to {@link RequestTools.inputRequired}, verified (HMAC, expiry, binding). */
  readonly state: unknown;
  /**
   * Modern era only: asks the client for input (elicitation, sampling, roots) and to retry the
   * request with `inputResponses`. `state` (any JSON, not secret) comes back sealed as
   * {@link RequestTools.state}. Throws -32021 when the client did not declare a capability a
   * request needs, and InvalidRequest for legacy-era requests.
   */
  inputRequired(inputRequests: Record<string, InputRequest>, state?: unknown): InputRequiredResult;
  /**
   * Legacy era only: sends `elicitation/create`, `sampling/createMessage` or `roots/list` to the
   * client on this request's stream and resolves to its result. Throws InvalidRequest when the
   * client did not declare the capability in `initialize`, or for modern requests.
   */
  clientRequest(method: InputRequest["method"], params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** One request the server asks the client to fulfil before retrying (MRTR). */
export interface InputRequest {
  method: "elicitation/create" | "sampling/createMessage" | "roots/list";
  params: Record<string, unknown>;
}

/** A modern `input_required` result (tools/call, prompts/get, resources/read only). */
export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  [key: string]: unknown;
}

/** A tool implemented in code rather than by an upstream HTTP call. */
export interface CustomTool<TInput = Record<string, unknown>> extends ToolMetadata {
  /**
   * Whether modern clients that declare the tasks extension may get this call as a task
   * (`resultType: "task"`): `forbidden` (default), `optional`, or `required` (clients without the
   * extension get -32021). Legacy-era calls always run synchronously. A task handler asks for
   * input the same way as a synchronous one, with {@link RequestTools.inputRequired}: the task
   * goes `input_required`, and the handler runs again with the answers from `tasks/update`.
   */
  taskSupport?: TaskSupport;
  /** A call still running after this many ms becomes a task (default 0: unless it settles at once). */
  taskAfterMs?: number;
  /** Runs the tool; arguments were validated against `inputSchema`. Throwing gives an `isError` result. */
  handler(args: TInput, tools: RequestTools): Promise<CallToolResult | InputRequiredResult> | CallToolResult | InputRequiredResult;
}

/** One item of `resources/read` contents (text or base64 blob). */
export type ResourceContents = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };

/** A fixed resource. */
export interface CustomResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(tools: RequestTools): Promise<ResourceContents[]> | ResourceContents[];
}

/** A resource template (RFC 6570 level 1: `{var}` matches one path segment). */
export interface CustomResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(uri: string, variables: Record<string, string>, tools: RequestTools): Promise<ResourceContents[]> | ResourceContents[];
  /** Completion values for one template variable, given the typed prefix. */
  complete?(variable: string, prefix: string): string[];
}

/** A prompt argument. */
export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** A prompt. `get` returns `{ description?, messages }`. */
export interface CustomPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  get(args: Record<string, string>, tools: RequestTools): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Completion values for one argument, given the typed prefix. */
  complete?(argument: string, prefix: string): string[];
}

/** Hooks around generated (HTTP-backed) tool calls. */
export interface CallHooks {
  /**
   * Runs after input validation, before the upstream call. Return replacement arguments, a
   * result (the upstream call is skipped), or nothing to go on unchanged.
   */
  beforeCall?(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    tools: RequestTools,
  ): Promise<Record<string, unknown> | CallToolResult | void> | Record<string, unknown> | CallToolResult | void;
  /** Runs after the upstream call; return a replacement result or nothing. */
  afterCall?(tool: ToolDefinition, args: Record<string, unknown>, result: CallToolResult, tools: RequestTools): Promise<CallToolResult | void> | CallToolResult | void;
}

/** Everything user code can add. */
export interface Extension {
  tools?: CustomTool<any>[];
  resources?: CustomResource[];
  resourceTemplates?: CustomResourceTemplate[];
  prompts?: CustomPrompt[];
  hooks?: CallHooks;
}

/** Identity helper giving user code type checking: `export default defineExtension({...})`. */
export function defineExtension(extension: Extension): Extension {
  return extension;
}

/** Matches `uri` against a level-1 URI template; returns the variables or undefined. */
export function matchUriTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const variable = /^\{([^}]+)\}$/.exec(part);
      if (!variable) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(variable[1]!);
      return "([^/]+)";
    })
    .join("");
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
}
