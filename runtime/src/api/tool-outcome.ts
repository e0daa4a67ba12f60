/**
 * The one model of what a tool call produced ({@link ToolOutcome}) and the one renderer of its wire
 * shape (revisions 2025-06-18 to 2026-07-28: `content`, `structuredContent`, `isError`); code that
 * reads a result back goes through {@link readToolResult}, never the wire fields.
 */
import type { CallToolResult, ContentBlock, InputRequiredResult } from "./mcp-types.js";

/** One part a person or model reads: text, media, an embedded or linked resource. */
export type OutcomePart =
  | { kind: "text"; text: string }
  | { kind: "media"; media: "image" | "audio"; data: string; mimeType: string }
  | { kind: "resource"; uri: string; mimeType?: string; blob?: string; text?: string }
  | { kind: "link"; uri: string; name: string; mimeType?: string; description?: string };

/** What a tool call produced. */
export interface ToolOutcome {
  /** False for a tool-level failure (upstream error, invalid arguments, refusal). */
  ok: boolean;
  parts: OutcomePart[];
  /** The machine-readable value (the API's JSON), when there is one. */
  value?: unknown;
  /** Extra fields a result carried that the model does not name (kept through a read and render). */
  extra?: Record<string, unknown>;
}

/** An outcome of one text part. */
export function textOutcome(text: string, ok = true): ToolOutcome {
  return { ok, parts: [{ kind: "text", text }] };
}

/** An outcome whose value is `value`, shown as `text` (its compact JSON by default). */
export function valueOutcome(value: unknown, ok = true, text = JSON.stringify(value)): ToolOutcome {
  return { ok, parts: [{ kind: "text", text }], value };
}

function renderPart(part: OutcomePart): ContentBlock {
  switch (part.kind) {
    case "text":
      return { type: "text", text: part.text };
    case "media":
      return { type: part.media, data: part.data, mimeType: part.mimeType };
    case "resource": {
      const { kind: _kind, ...resource } = part;
      return { type: "resource", resource };
    }
    case "link": {
      const { kind: _kind, ...link } = part;
      return { type: "resource_link", ...link };
    }
  }
}

/** The `tools/call` result of `outcome` (the one renderer of tool results). */
export function renderToolResult(outcome: ToolOutcome): CallToolResult {
  const result: CallToolResult = { ...outcome.extra, content: outcome.parts.map(renderPart) };
  if (outcome.value !== undefined) result.structuredContent = outcome.value;
  if (!outcome.ok) result.isError = true;
  return result;
}

function readPart(block: ContentBlock): OutcomePart | undefined {
  switch (block.type) {
    case "text":
      return { kind: "text", text: block.text };
    case "image":
    case "audio":
      return { kind: "media", media: block.type, data: block.data, mimeType: block.mimeType };
    case "resource":
      return { kind: "resource", ...block.resource };
    case "resource_link": {
      const { type: _type, ...link } = block;
      return { kind: "link", ...link };
    }
    default:
      return undefined;
  }
}

/** The model of a result in the wire shape (a hook's or custom tool's result, a page to merge). */
export function readToolResult(result: CallToolResult): ToolOutcome {
  const { content, structuredContent, isError, ...extra } = result;
  const outcome: ToolOutcome = {
    ok: isError !== true,
    parts: (Array.isArray(content) ? content : [])
      .map(readPart)
      .filter((part): part is OutcomePart => part !== undefined),
  };
  if (structuredContent !== undefined) outcome.value = structuredContent;
  if (Object.keys(extra).length > 0) outcome.extra = extra;
  return outcome;
}

/** The text parts of an outcome, joined by newlines. */
export function outcomeText(outcome: ToolOutcome): string {
  return outcome.parts.map((part) => (part.kind === "text" ? part.text : "")).join("\n");
}

/** A tool result holding one text block; `isError` marks tool-level failures. */
export function textResult(text: string, isError = false): CallToolResult {
  return renderToolResult(textOutcome(text, !isError));
}

/** What an operation's result is worth to code that called it: its value, or an error with the upstream status. */
export type OperationOutcome =
  | { ok: true; value: unknown }
  | { ok: false; error: { message: string; status?: number; body?: string } };

/** `Upstream HTTP 404 Not Found for GET /pets/9: {"message":…}` (result.ts): status and body excerpt. */
const UPSTREAM_ERROR = /^Upstream HTTP (\d{3})[^:]*?(?:: ([\s\S]*))?$/;

/**
 * What code calling an operation (the `api` client, code mode) gets: the structured content (else
 * the text), or the error message with the upstream status and body. A call that asks the user for
 * input first is an error: code cannot answer.
 */
export function operationOutcome(name: string, result: CallToolResult | InputRequiredResult): OperationOutcome {
  if ("resultType" in result && result.resultType === "input_required") {
    return { ok: false, error: { message: `${name} asks the user for input before it runs, which code cannot do.` } };
  }
  const outcome = readToolResult(result as CallToolResult);
  const text = outcomeText(outcome);
  if (outcome.ok) return { ok: true, value: outcome.value ?? text };
  const upstream = UPSTREAM_ERROR.exec(text);
  return {
    ok: false,
    error: {
      message: text,
      ...(upstream ? { status: Number(upstream[1]), ...(upstream[2] ? { body: upstream[2] } : {}) } : {}),
    },
  };
}
