/** MCP wire shapes the runtime produces (the subset it serves). */
import type { ToolMetadata } from "./types.js";

export interface TextContent {
  type: "text";
  text: string;
}

/** An image or audio content block (base64 data). */
export interface MediaContent {
  type: "image" | "audio";
  data: string;
  mimeType: string;
}

/** A resource embedded in a result (text, or base64 `blob`). */
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

/** Content blocks of tool results and prompt messages. */
export type ContentBlock = TextContent | MediaContent | EmbeddedResourceContent | ResourceLinkContent;

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
