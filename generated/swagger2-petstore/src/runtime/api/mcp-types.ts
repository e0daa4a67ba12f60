// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/** MCP wire shapes the runtime produces (the subset it serves). */
import type { ToolMetadata } from "./types.js";
import { renderToolResult, textOutcome } from "./tool-outcome.js";

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

/** A tool result holding one text block; `isError` marks tool-level failures. */
export function textResult(text: string, isError = false): CallToolResult {
  return renderToolResult(textOutcome(text, !isError));
}
