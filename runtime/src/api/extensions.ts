/**
 * The user's code (`src/custom/`) as the core runs it: tools, resources, templates and prompts,
 * hooks around operation calls, and what a handler may do while serving one request. Feature
 * `custom` (features/custom/) types them for an API (`defineExtension`, `defineTool`, the typed
 * `api`) and fills the slot that runs the hooks and the `api` (server/custom-slot.ts).
 */
import type { UntypedApi } from "./api-client.js";
import type { McpLogLevel, RequestEra } from "../protocol/era.js";
import type { CallToolResult, InputRequest, InputRequiredResult, TaskSupport } from "./mcp-types.js";

export type { InputRequest, InputRequiredResult } from "./mcp-types.js";
import type { ToolDefinition, ToolMetadata } from "./types.js";

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** What a custom handler may do while serving one request. `TApi` is the type of {@link RequestTools.api}. */
export interface RequestTools<TApi = UntypedApi> {
  /** The API's operations as methods for this request (`await api.listPets({ limit: 2 })`; feature `custom`). */
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

/** Everything user code can add, as the server runs it (feature `custom` types it: `defineExtension`). */
export interface Extension {
  /** Tools implemented in code; their arguments are validated against their `inputSchema` first. */
  tools?: CustomTool<any>[];
  resources?: CustomResource[];
  resourceTemplates?: CustomResourceTemplate[];
  prompts?: CustomPrompt[];
  /** The global `beforeCall`/`afterCall`, and each tool's own `before`/`after` by tool name. */
  hooks?: CallHooks;
}
