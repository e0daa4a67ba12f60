// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/** MCP wire shapes the runtime produces (the subset it serves). */
import type { ToolMetadata } from "./types.js";

/** A text content block. */
export interface TextContent {
  type: "text";
  text: string;
}

/** An image content block (base64 data). */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** An audio content block (base64 data). */
export interface AudioContent {
  type: "audio";
  data: string;
  mimeType: string;
}

/** An embedded binary resource (base64 `blob`). */
export interface EmbeddedResource {
  type: "resource";
  resource: { uri: string; mimeType?: string; blob: string };
}

/** Content blocks the runtime emits. */

/** A resource embedded in a result. */
export interface EmbeddedResourceContent {
  type: "resource";
  resource: { uri: string; mimeType?: string; text?: string; blob?: string };
}

/** A link to a resource the client may read. */
export interface ResourceLinkContent {
  type: "resource_link";
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

/** An image or audio content block (base64 data). */
export type MediaContent = ImageContent | AudioContent;

/** Content blocks of tool results and prompt messages. */
export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | EmbeddedResource
  | MediaContent
  | EmbeddedResourceContent
  | ResourceLinkContent;

/** The result of `tools/call`. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

/** A tool as listed by `tools/list` (the `http` binding is never exposed). */
export type ListedTool = ToolMetadata;

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

/** Whether a tool may run as a task (tasks extension): never, at the server's discretion, or only as a task. */
export type TaskSupport = "forbidden" | "optional" | "required";
