/**
 * An upstream response as a `tools/call` result: JSON → text + structuredContent, text, image,
 * audio, other binary → embedded resource, empty → a success line, non-2xx → `isError` + excerpt.
 * SDK clients reject a result whose `structuredContent` does not match the `outputSchema`, and
 * upstreams deviate from their spec: generated output schemas accept a second shape,
 * `{ [fallbackKey]: { reason: "response", status, contentType, body, problems } }`, where such a
 * response goes (`reason` tells it from a body the result's shaping put there: upstream/result-shape.ts).
 */
import { essenceOf, isJsonEssence } from "./body.js";
import type { CallToolResult } from "../api/mcp-types.js";
import { renderToolResult, textOutcome, type OutcomePart, type ToolOutcome } from "../api/tool-outcome.js";
import type { ToolDefinition } from "../api/types.js";
import type { SchemaValidator, ValidationOutcome } from "../api/validation.js";
import { isRecord } from "../protocol/own.js";

/**
 * Cap, in characters, of an error's body excerpt. A successful body is not cut here: the result
 * step sizes it for the model (server/result-step.ts), keeping JSON valid.
 */
const MAX_ERROR_EXCERPT_CHARS = 2_000;

/** What the mapper needs to know about the upstream exchange. */
export interface UpstreamResponse {
  status: number;
  statusMessage?: string | undefined;
  contentType?: string | undefined;
  body: Buffer;
  /** Upper-case method and resolved path (no query) for messages. */
  method: string;
  path: string;
  /** URL without query: the URI of an embedded binary resource. */
  url?: string | undefined;
}

/** The body's JSON, parsed once, for callers that need it too (pagination). */
export interface ParsedBody {
  json?: { value: unknown };
}

/** The tool result of an upstream response (see the module comment); `parsed` receives the body's JSON. */
export function mapResponse(
  tool: ToolDefinition,
  response: UpstreamResponse,
  validator: SchemaValidator,
  parsed: ParsedBody = {},
): CallToolResult {
  return renderToolResult(responseOutcome(tool, response, validator, parsed));
}

function responseOutcome(
  tool: ToolDefinition,
  response: UpstreamResponse,
  validator: SchemaValidator,
  parsed: ParsedBody,
): ToolOutcome {
  const mediaType = essenceOf(response.contentType ?? "");
  // Made for the results that name the status only. node:http's reason phrases are read when needed:
  // importing node:http at start-up would cost every server.
  const statusText = (): string => {
    const reason = response.statusMessage || process.getBuiltinModule("node:http").STATUS_CODES[response.status];
    return `HTTP ${response.status}${reason ? " " + reason : ""}`;
  };

  if (response.status < 200 || response.status >= 300) {
    const excerpt = errorExcerpt(response.body, mediaType);
    return textOutcome(
      `Upstream ${statusText()} for ${response.method} ${response.path}${excerpt ? ": " + excerpt : ""}`,
      false,
    );
  }
  if (response.body.length === 0) {
    const result = textOutcome(`Success: ${statusText()} for ${response.method} ${response.path} (no response body)`);
    return withFallback(tool, result, response, mediaType, null, ["the response has no body"]);
  }

  const text = response.body.toString("utf8");
  const json = parseJsonBody(text, mediaType);
  if (json.ok) {
    parsed.json = { value: json.value };
    return jsonResult(tool, json.value, text, response, mediaType, validator);
  }
  if (isTextual(mediaType)) {
    return withFallback(tool, textOutcome(text), response, mediaType, text, [
      `the response is ${mediaType || "untyped"} text, not JSON`,
    ]);
  }
  const data = response.body.toString("base64");
  const media = /^(image|audio)\//.exec(mediaType)?.[1] as "image" | "audio" | undefined;
  const part: OutcomePart = media
    ? { kind: "media", media, data, mimeType: mediaType }
    : {
        kind: "resource",
        uri: response.url ?? `upstream:${response.path}`,
        mimeType: mediaType || "application/octet-stream",
        blob: data,
      };
  const summary = `Success: ${statusText()}; ${mediaType || "binary"} response of ${response.body.length} bytes.`;
  const result: ToolOutcome = { ok: true, parts: [{ kind: "text", text: summary }, part] };
  return withFallback(tool, result, response, mediaType, null, [
    `the response is binary (${mediaType || "unknown type"}), see the content blocks`,
  ]);
}

/** `text` is the body's JSON as the API sent it: the text block shows it as it is (not serialised again). */
function jsonResult(
  tool: ToolDefinition,
  body: unknown,
  text: string,
  response: UpstreamResponse,
  mediaType: string,
  validator: SchemaValidator,
): ToolOutcome {
  // Not cut: the result step sizes it for the model by its structure (server/result-step.ts).
  const result = textOutcome(text);
  const wrapKey = tool.http.response.wrapKey;
  const structured = wrapKey !== undefined ? { [wrapKey]: body } : isRecord(body) ? body : undefined;
  if (!tool.outputSchema) {
    if (structured) result.value = structured;
    return result;
  }
  const outcome: ValidationOutcome = structured
    ? validator.validate(tool.outputSchema, structured, `output of tool ${tool.name}`)
    : { ok: false, errors: ["the response is not a JSON object"] };
  if (outcome.ok) {
    result.value = structured;
    return result;
  }
  return withFallback(tool, result, response, mediaType, body, outcome.errors);
}

/** For a tool with an output schema: the response in the schema's fallback shape, said in a text block. */
function withFallback(
  tool: ToolDefinition,
  result: ToolOutcome,
  response: UpstreamResponse,
  mediaType: string,
  body: unknown,
  problems: string[],
): ToolOutcome {
  if (!tool.outputSchema) return result;
  const key = tool.http.response.fallbackKey;
  const summary = problems.slice(0, 5).join("; ");
  if (key === undefined) {
    // An output schema without a fallback shape (hand-written tools): no structuredContent at all.
    result.parts.push({
      kind: "text",
      text: `Note: the upstream response does not match this tool's output schema (${summary}), so structuredContent was omitted.`,
    });
    return result;
  }
  result.value = {
    [key]: {
      reason: "response",
      status: response.status,
      contentType: mediaType,
      body: body === undefined ? null : body,
      problems: problems.slice(0, 20),
    },
  };
  if (problems.length > 0 && body !== null && typeof body === "object") {
    result.parts.push({
      kind: "text",
      text: `Note: the upstream response does not match the documented schema (${summary}); structuredContent holds it under "${key}".`,
    });
  }
  return result;
}

/** `mediaType`: an essence (see essenceOf). */
function parseJsonBody(text: string, mediaType: string): { ok: true; value: unknown } | { ok: false } {
  const looksJson =
    isJsonEssence(mediaType) || ((mediaType === "" || mediaType.startsWith("text/")) && /^\s*[[{]/.test(text));
  if (!looksJson) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Media types (lower case, without parameters) whose bodies are shown as text; none is text too. */
const TEXTUAL = /^(|text\/.*|.*\+(xml|json)|application\/(xml|json|javascript|yaml|x-yaml|x-www-form-urlencoded))$/;

/** Whether a body of this media type is shown as text. */
export function isTextual(mediaType: string): boolean {
  return TEXTUAL.test(mediaType);
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
