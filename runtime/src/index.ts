/**
 * The runtime's public API in one module, for code that embeds it (`McpServer` behind your own
 * transport, `main` with your own tools). The generated entry points do not use it: they import
 * the few modules they need (`cli/main.js`, `data/tool-data.js`, `api/extensions.js` …) directly, so a
 * generated project does not vendor this file.
 */
export type {
  BodyBinding,
  HttpBinding,
  HttpMethod,
  JsonSchema,
  ObjectJsonSchema,
  ParameterBinding,
  ParameterLocation,
  ParameterStyle,
  ResponseBinding,
  ServerInfo,
  ToolAnnotations,
  ToolDefinition,
} from "./api/types.js";
export * from "./protocol/jsonrpc.js";
export type {
  CallToolResult,
  ContentBlock,
  EmbeddedResourceContent,
  ListedTool,
  MediaContent,
  ResourceLinkContent,
  TextContent,
} from "./api/mcp-types.js";
export { createStderrLogger, silentLogger, type Logger, type LogLevel } from "./protocol/logger.js";
export {
  ALL_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  isKnownProtocolVersion,
  isSupportedProtocolVersion,
  negotiateProtocolVersion,
} from "./protocol/versions.js";
export { LOG_LEVELS, type McpLogLevel, type RequestEra } from "./protocol/era.js";
export {
  API_DOCUMENT_URI,
  OPERATION_URI_TEMPLATE,
  type Resource,
  type ResourceTemplate,
  type TextResourceContents,
} from "./server/resources.js";
export { McpServer, type McpServerOptions, type RequestContext } from "./server/server.js";
export { CACHE_HINTS } from "./server/dispatcher.js";
export { DEFAULT_PAGE_SIZE } from "./server/list-pages.js";
export { DEFAULT_TIMEOUT_MS, type UpstreamOptions } from "./upstream/upstream.js";
export { TASKS_EXTENSION, type MakeTasks, type Tasks } from "./server/tasks-slot.js";
export type { Feature, FeatureName, FeaturePlugs } from "./cli/features.js";
export type { TaskSupport } from "./api/mcp-types.js";
export { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, type TransportHandle } from "./transport/transport.js";
export { startStdio, type StdioOptions } from "./transport/stdio.js";
export { startHttp, type HttpHandle, type HttpOptions } from "./transport/http.js";
export { main, usage, type MainOptions } from "./cli/main.js";
export {
  defineExtension,
  defineTool,
  defineToolFor,
  matchUriTemplate,
  type CallHooks,
  type CustomPrompt,
  type CustomResource,
  type CustomResourceTemplate,
  type CustomTool,
  type CustomToolSpec,
  type Extension,
  type ExtensionHooks,
  type PromptArgument,
  type RequestTools,
  type ResourceContents,
  type ToolHooks,
  type ToolResult,
} from "./api/extensions.js";
export {
  ApiError,
  errorResponseGuard,
  type ApiClient,
  type ApiErrorKind,
  type ApiMethod,
  type ApiResponse,
  type BinaryData,
  type CallOptions,
  type UntypedApi,
} from "./api/api-client.js";
export type { FromSchema } from "./api/schema-type.js";
