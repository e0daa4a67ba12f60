/**
 * The extension API of the user's code (`src/custom/`): tools, resources, templates and prompts,
 * hooks around operation calls, and the typed `api`. `defineExtension<ToolInputs, ToolOutputs,
 * ToolContents>(…)` and `defineToolFor<Api>()` type them; without the maps all works untyped.
 */
import type { ApiClient, UntypedApi } from "./api-client.js";
import type { McpLogLevel, RequestEra } from "../protocol/era.js";
import type { CallToolResult, InputRequest, InputRequiredResult, TaskSupport } from "./mcp-types.js";

export type { InputRequest, InputRequiredResult } from "./mcp-types.js";
import type { FromSchema, InputSchemaLiteral } from "./schema-type.js";
import type { ObjectJsonSchema, ToolDefinition, ToolMetadata } from "./types.js";

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** What a custom handler may do while serving one request. `TApi` is the type of {@link RequestTools.api}. */
export interface RequestTools<TApi = UntypedApi> {
  /** The API's operations as methods for this request (`await api.listPets({ limit: 2 })`; api-client.ts). */
  readonly api: TApi;
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
   * Modern era only: asks the client for input and to retry with `inputResponses`; `state` (JSON,
   * not secret) comes back as {@link RequestTools.state}. -32021 without the client's capability.
   */
  inputRequired(inputRequests: Record<string, InputRequest>, state?: unknown): InputRequiredResult;
  /** Legacy era only: sends an elicitation, sampling or roots request to the client and resolves to its result. */
  clientRequest(method: InputRequest["method"], params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** A tool implemented in code rather than by an upstream HTTP call; `TInput` types its arguments. */
export interface CustomTool<TInput = Record<string, unknown>, TApi = UntypedApi> extends ToolMetadata {
  /** Whether modern clients with the tasks extension may get this call as a task (default `forbidden`). */
  taskSupport?: TaskSupport;
  /** A call still running after this many ms becomes a task (default 0: unless it settles at once). */
  taskAfterMs?: number;
  /** Runs the tool; arguments were validated against `inputSchema`. Throwing gives an `isError` result. */
  handler(args: TInput, tools: RequestTools<TApi>): Awaitable<CallToolResult | InputRequiredResult>;
}

/** A custom tool as `defineTool` takes it: `inputSchema` is a literal its arguments are typed from. */
export type CustomToolSpec<S extends InputSchemaLiteral, TApi = UntypedApi> = Omit<
  CustomTool<FromSchema<S>, TApi>,
  "inputSchema"
> & { inputSchema: S };

/** `defineTool` for an API client type `TApi` (`defineToolFor<Api>()`): arguments typed from `inputSchema`. */
export function defineToolFor<TApi>(): <const S extends InputSchemaLiteral>(
  tool: CustomToolSpec<S, TApi>,
) => CustomTool<FromSchema<S>, TApi> {
  // The schema literal is the tool's JSON Schema; only its static type is narrower than ObjectJsonSchema.
  return (tool) => tool as Omit<typeof tool, "inputSchema"> & { inputSchema: ObjectJsonSchema };
}

/** `defineTool` without an API's types: arguments typed from `inputSchema`, `api` untyped. */
export const defineTool = defineToolFor<UntypedApi>();

/** One item of `resources/read` contents (text or base64 blob). */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string };

/** A fixed resource. */
export interface CustomResource<TApi = UntypedApi> {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(tools: RequestTools<TApi>): Awaitable<ResourceContents[]>;
}

/** A resource template (RFC 6570 level 1: `{var}` matches one path segment). */
export interface CustomResourceTemplate<TApi = UntypedApi> {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(uri: string, variables: Record<string, string>, tools: RequestTools<TApi>): Awaitable<ResourceContents[]>;
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
export interface CustomPrompt<TApi = UntypedApi> {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  get(args: Record<string, string>, tools: RequestTools<TApi>): Awaitable<Record<string, unknown>>;
  /** Completion values for one argument, given the typed prefix. */
  complete?(argument: string, prefix: string): string[];
}

/** Hooks around every generated (HTTP-backed) tool call. */
export interface CallHooks<TApi = UntypedApi> {
  /** Before the upstream call (and the tool's `before`): return new arguments, a result (no call), or nothing. */
  beforeCall?(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    tools: RequestTools<TApi>,
  ): Awaitable<Record<string, unknown> | CallToolResult | void>;
  /** Runs after the upstream call (and after the tool's own `after`); return a replacement result or nothing. */
  afterCall?(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    result: CallToolResult,
    tools: RequestTools<TApi>,
  ): Awaitable<CallToolResult | void>;
}

/** A tool result whose `structuredContent` has the tool's output type. */
export type ToolResult<TOutput> = CallToolResult & { structuredContent?: TOutput };

/** Hooks of one generated tool, keyed by its name in `hooks`: typed arguments and result. */
export interface ToolHooks<TInput, TOutput, TApi = UntypedApi> {
  /** After the global `beforeCall`: return new arguments, a result (no upstream call), or nothing. */
  before?(args: TInput, tools: RequestTools<TApi>): Awaitable<TInput | ToolResult<TOutput> | void>;
  /** Runs after the upstream call, before the global `afterCall`: return a replacement result or nothing. */
  after?(result: ToolResult<TOutput>, args: TInput, tools: RequestTools<TApi>): Awaitable<ToolResult<TOutput> | void>;
}

/** The names of the global hooks; a tool of the same name cannot have hooks of its own. */
export type GlobalHookName = keyof CallHooks;

/** The `api` of an extension typed with the maps `TInputs`/`TOutputs`; untyped without them. */
export type ExtensionApi<TInputs, TOutputs> = keyof TInputs extends never ? UntypedApi : ApiClient<TInputs, TOutputs>;

/** `hooks`: the global `beforeCall`/`afterCall`, and each tool's own `before`/`after` by tool name. */
export type ExtensionHooks<TInputs, TOutputs, TContents = {}> = CallHooks<ExtensionApi<TInputs, TOutputs>> & {
  [K in Exclude<keyof TInputs, GlobalHookName>]?: ToolHooks<
    TInputs[K],
    K extends keyof TContents ? TContents[K] : unknown,
    ExtensionApi<TInputs, TOutputs>
  >;
};

/** Everything user code can add, typed by the generated maps of tool name → arguments / result / content. */
export interface Extension<TInputs extends object = {}, TOutputs extends object = {}, TContents extends object = {}> {
  /** Tools implemented in code; their arguments are validated against their `inputSchema` first. */
  tools?: CustomTool<unknown, ExtensionApi<TInputs, TOutputs>>[];
  resources?: CustomResource<ExtensionApi<TInputs, TOutputs>>[];
  resourceTemplates?: CustomResourceTemplate<ExtensionApi<TInputs, TOutputs>>[];
  prompts?: CustomPrompt<ExtensionApi<TInputs, TOutputs>>[];
  hooks?: ExtensionHooks<TInputs, TOutputs, TContents>;
}

/** Types an extension: `defineExtension<ToolInputs, ToolOutputs, ToolContents>({ … })` (never inferred). */
export function defineExtension<
  TInputs extends object = {},
  TOutputs extends object = {},
  TContents extends object = {},
>(extension: Extension<NoInfer<TInputs>, NoInfer<TOutputs>, NoInfer<TContents>>): Extension {
  // The server calls hooks and handlers with plain JSON values; the types above are for the author.
  return extension as Extension;
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
