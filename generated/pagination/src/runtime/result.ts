/**
 * Maps an upstream HTTP response to an MCP `tools/call` result: JSON → text + structuredContent,
 * text → text, binary → a note, non-2xx → `isError` with status and a body excerpt.
 */
import { STATUS_CODES } from "node:http";
import { isJsonMediaType } from "./body.js";
import { textResult, type CallToolResult } from "./mcp-types.js";
import type { ToolDefinition } from "./types.js";
import type { SchemaValidator } from "./validation.js";

/** Cap for the JSON/text shown in a successful result (characters). */
export const MAX_TEXT_CHARS = 100_000;
/** Cap for the body excerpt in an upstream error result (characters). */
export const MAX_ERROR_EXCERPT_CHARS = 2_000;

/** What the mapper needs to know about the upstream exchange. */
export interface UpstreamResponse {
  status: number;
  statusMessage?: string | undefined;
  /** The raw `content-type` header, if any. */
  contentType?: string | undefined;
  body: Buffer;
  /** Upper-case method and resolved path (no query) for messages. */
  method: string;
  path: string;
}

/** Builds the tool result for an upstream response. */
export function mapResponse(tool: ToolDefinition, response: UpstreamResponse, validator: SchemaValidator): CallToolResult {
  const mediaType = (response.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const reason = response.statusMessage || STATUS_CODES[response.status] || "";
  const statusText = `HTTP ${response.status}${reason ? " " + reason : ""}`;

  if (response.status < 200 || response.status >= 300) {
    const excerpt = errorExcerpt(response.body, mediaType);
    return textResult(`Upstream ${statusText} for ${response.method} ${response.path}${excerpt ? ": " + excerpt : ""}`, true);
  }
  if (response.body.length === 0) return textResult(`Success: ${statusText}`);

  const text = response.body.toString("utf8");
  const parsed = parseJsonBody(text, mediaType);
  if (parsed.ok) return jsonResult(tool, parsed.value, validator);
  if (isTextual(mediaType)) return textResult(truncate(text, MAX_TEXT_CHARS));
  return textResult(`Success: ${statusText}; binary response of type ${mediaType || "unknown"} (${response.body.length} bytes) not shown`);
}

function jsonResult(tool: ToolDefinition, body: unknown, validator: SchemaValidator): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: truncate(JSON.stringify(body, null, 2), MAX_TEXT_CHARS) }];
  const wrapKey = tool.http.response.wrapKey;
  let structured: Record<string, unknown> | undefined;
  if (wrapKey !== undefined) structured = { [wrapKey]: body };
  else if (isPlainObject(body)) structured = body;

  if (structured && tool.outputSchema) {
    const outcome = validator.validate(tool.outputSchema, structured, `output of tool ${tool.name}`);
    if (!outcome.ok) {
      // Sending content that violates the declared schema makes SDK clients reject the whole
      // result; the text block still carries the data.
      content.push({
        type: "text",
        text: `Note: the upstream response does not match this tool's output schema (${outcome.errors.join("; ")}), so structuredContent was omitted.`,
      });
      structured = undefined;
    }
  }
  return structured ? { content, structuredContent: structured } : { content };
}

function parseJsonBody(text: string, mediaType: string): { ok: true; value: unknown } | { ok: false } {
  const looksJson = isJsonMediaType(mediaType) || ((mediaType === "" || mediaType.startsWith("text/")) && /^\s*[[{]/.test(text));
  if (!looksJson) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isTextual(mediaType: string): boolean {
  return (
    mediaType === "" ||
    mediaType.startsWith("text/") ||
    mediaType.endsWith("+xml") ||
    mediaType.endsWith("+json") ||
    ["application/xml", "application/json", "application/javascript", "application/yaml", "application/x-yaml", "application/x-www-form-urlencoded"].includes(mediaType)
  );
}

function errorExcerpt(body: Buffer, mediaType: string): string {
  if (body.length === 0) return "";
  if (!isTextual(mediaType)) return `(${body.length} bytes of ${mediaType})`;
  return truncate(body.toString("utf8").trim(), MAX_ERROR_EXCERPT_CHARS);
}

/** Truncates to `max` characters with a visible marker. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… [truncated ${text.length - max} characters]`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
