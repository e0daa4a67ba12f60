// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * The runtime's public API in one module, for code that embeds it (`McpServer` behind your own
 * transport, `main` with your own tools). The generated entry points do not use it: they import
 * the few modules they need (`cli.js`, `tool-data.js`, `extensions.js`, `types.js`) directly.
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
} from "./types.js";
export * from "./jsonrpc.js";
export type {
  CallToolResult,
  ContentBlock,
  EmbeddedResourceContent,
  ListedTool,
  MediaContent,
  ResourceLinkContent,
  TextContent,
} from "./mcp-types.js";
export { createStderrLogger, silentLogger, type Logger, type LogLevel } from "./logger.js";
export {
  ALL_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  isKnownProtocolVersion,
  isSupportedProtocolVersion,
  negotiateProtocolVersion,
} from "./protocol.js";
export { LOG_LEVELS, type McpLogLevel, type RequestEra } from "./era.js";
export {
  API_DOCUMENT_URI,
  OPERATION_URI_TEMPLATE,
  type Resource,
  type ResourceTemplate,
  type TextResourceContents,
} from "./resources.js";
export { McpServer, DEFAULT_TASK_AFTER_MS, type McpServerOptions, type RequestContext } from "./server.js";
export { CACHE_HINTS } from "./dispatcher.js";
export { DEFAULT_PAGE_SIZE } from "./list-pages.js";
export { DEFAULT_TIMEOUT_MS, type UpstreamOptions } from "./upstream.js";
export { TASKS_EXTENSION, type TaskOptions, type TaskStatus, type TaskSupport } from "./tasks.js";
export type { TransportHandle } from "./transport.js";
export { startStdio, type StdioOptions } from "./transport-stdio.js";
export {
  startHttp,
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  type HttpHandle,
  type HttpOptions,
} from "./transport-http.js";
export { main, usage, type MainOptions } from "./cli.js";
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
} from "./extensions.js";
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
} from "./api-client.js";
export type { FromSchema } from "./schema-type.js";
