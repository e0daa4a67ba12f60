/**
 * The extension API of the user's code (`src/custom/`), typed: `defineExtension<ToolInputs,
 * ToolOutputs, ToolContents>(…)` types hooks keyed by tool name and the `api`, `defineToolFor<Api>()`
 * types a custom tool's arguments from its `inputSchema`; without the maps all works untyped.
 */
import type {
  CallHooks,
  CustomPrompt,
  CustomResource,
  CustomResourceTemplate,
  CustomTool,
  Extension,
  RequestTools,
  Awaitable,
} from "../../api/extensions.js";
import type { CallToolResult } from "../../api/mcp-types.js";
import type { ObjectJsonSchema } from "../../api/types.js";
import type { FromSchema, InputSchemaLiteral } from "./schema-type.js";
import type { AnyApi, ApiClient } from "./typed-api.js";

/** The shapes the server runs (CustomTool, RequestTools, Extension …), for the user's code. */
export type * from "../../api/extensions.js";

/** A custom tool as `defineTool` takes it: `inputSchema` is a literal its arguments are typed from. */
export type CustomToolSpec<S extends InputSchemaLiteral, TApi = AnyApi> = Omit<
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
export const defineTool = defineToolFor<AnyApi>();

/** A tool result whose `structuredContent` has the tool's output type. */
export type ToolResult<TOutput> = CallToolResult & { structuredContent?: TOutput };

/** Hooks of one generated tool, keyed by its name in `hooks`: typed arguments and result. */
export interface ToolHooks<TInput, TOutput, TApi = AnyApi> {
  /** After the global `beforeCall`: return new arguments, a result (no upstream call), or nothing. */
  before?(args: TInput, tools: RequestTools<TApi>): Awaitable<TInput | ToolResult<TOutput> | void>;
  /** Runs after the upstream call, before the global `afterCall`: return a replacement result or nothing. */
  after?(result: ToolResult<TOutput>, args: TInput, tools: RequestTools<TApi>): Awaitable<ToolResult<TOutput> | void>;
}

/** The names of the global hooks; a tool of the same name cannot have hooks of its own. */
export type GlobalHookName = keyof CallHooks;

/** The `api` of an extension typed with the maps `TInputs`/`TOutputs`; untyped without them. */
export type ExtensionApi<TInputs, TOutputs> = keyof TInputs extends never ? AnyApi : ApiClient<TInputs, TOutputs>;

/** `hooks`: the global `beforeCall`/`afterCall`, and each tool's own `before`/`after` by tool name. */
export type ExtensionHooks<TInputs, TOutputs, TContents = {}> = CallHooks<ExtensionApi<TInputs, TOutputs>> & {
  [K in Exclude<keyof TInputs, GlobalHookName>]?: ToolHooks<
    TInputs[K],
    K extends keyof TContents ? TContents[K] : unknown,
    ExtensionApi<TInputs, TOutputs>
  >;
};

/** Everything user code can add, typed by the generated maps of tool name → arguments / result / content. */
export interface TypedExtension<
  TInputs extends object = {},
  TOutputs extends object = {},
  TContents extends object = {},
> {
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
>(extension: TypedExtension<NoInfer<TInputs>, NoInfer<TOutputs>, NoInfer<TContents>>): Extension {
  // The server calls hooks and handlers with plain JSON values; the types above are for the author.
  return extension as unknown as Extension;
}
