/**
 * A successful operation result sized for a model: the caller's `_fields` first (result-fields.ts),
 * then the token budget (result-budget.ts). The text block stays valid JSON; `structuredContent`
 * carries the same shaped value and is checked against the output schema, and a shaped value the
 * documented shape no longer accepts (a projection left out a required property) goes into the
 * schema's fallback shape, `{ [fallbackKey]: { reason, body, problems, items? } }`, which every
 * generated output schema accepts, so SDK clients that validate `structuredContent` never refuse a
 * shaped result. `reason` says why it is there (`"budget"`, `"fields"`; an API response that did not
 * match is `"response"`, upstream/result.ts), `items` how many items the budget kept of how many, as
 * the note in the text says, in any fallback the budget shortened.
 *
 * A result already within the budget and without `_fields` is returned as it came: its text is
 * measured, not parsed, walked or serialised again.
 */
import type { CallToolResult, ContentBlock } from "../api/mcp-types.js";
import type { JsonSchema, ToolDefinition } from "../api/types.js";
import type { SchemaValidator } from "../api/validation.js";
import { getOwn, isRecord, setOwn } from "../protocol/own.js";
import { projectFields } from "./result-fields.js";
import { shrinkToBudget, type ShrinkOutcome } from "./result-budget.js";
import { charsOfTokens } from "./result-tokens.js";

/** Characters of the budget kept for the note that says what was left out. */
const NOTE_RESERVE_CHARS = 1_000;

/** How one result is shaped. */
export interface ShapeRequest {
  /** Tokens the result's text may take (see result-tokens.ts); undefined: no budget (code's `api`). */
  budgetTokens?: number | undefined;
  /** Checked paths of the caller's `_fields` (result-fields.ts `checkFields`), if given. */
  fields?: string[][] | undefined;
  /** The argument that carries the fields (named in the note). */
  fieldsArgument?: string | undefined;
  /** Item fields the budget keeps before the others: the columns of the view the caller shows the result in. */
  keep?: string[] | undefined;
}

/** A shaped result, and the full body's JSON text when the budget left something out (for the link). */
export interface ShapedResult {
  result: CallToolResult;
  /** The complete body's text, set when the budget left part of it out. */
  leftOut?: string;
}

/** Where the body sits in `structuredContent`: as is, under the wrap key, or in the fallback shape. */
interface BodySlot {
  body: unknown;
  /** `structuredContent` around a new body (the envelope's other keys, `nextCursor`, kept). */
  rewrap(body: unknown): Record<string, unknown>;
}

function bodySlot(tool: ToolDefinition, structured: unknown): BodySlot | undefined {
  if (!isRecord(structured)) return undefined;
  const { wrapKey, fallbackKey } = tool.http.response;
  for (const key of [fallbackKey, wrapKey]) {
    if (key === undefined || !Object.prototype.hasOwnProperty.call(structured, key)) continue;
    const inner = getOwn(structured, key);
    if (key === fallbackKey) {
      if (!isRecord(inner)) return undefined;
      return { body: inner.body, rewrap: (body) => ({ ...structured, [key]: { ...inner, body } }) };
    }
    return { body: inner, rewrap: (body) => replaceKey(structured, key, body) };
  }
  // An object body as is; pagination's `nextCursor` is not the API's and stays out of shaping.
  const { nextCursor, ...body } = structured;
  return {
    body: nextCursor === undefined ? structured : body,
    rewrap: (shaped) => (nextCursor === undefined || !isRecord(shaped) ? asObject(shaped) : { ...shaped, nextCursor }),
  };
}

/** A result without `structuredContent` (no output schema, a list body): its text, when it is JSON. */
function textSlot(text: string): BodySlot | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return { body: JSON.parse(text), rewrap: asObject };
  } catch {
    return undefined;
  }
}

function replaceKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const own of Object.keys(target)) setOwn(out, own, own === key ? value : getOwn(target, own));
  return out;
}

function asObject(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** The documented body's schema: the first branch of the output schema, under the wrap key if any. */
function bodySchema(tool: ToolDefinition): JsonSchema | undefined {
  const schema = tool.outputSchema as Record<string, unknown> | undefined;
  if (!schema) return undefined;
  const documented = Array.isArray(schema.anyOf) ? (schema.anyOf[0] as Record<string, unknown>) : schema;
  const wrapKey = tool.http.response.wrapKey;
  if (wrapKey === undefined) return documented;
  const properties = isRecord(documented.properties) ? documented.properties : {};
  return getOwn(properties, wrapKey) as JsonSchema | undefined;
}

/**
 * `result` shaped by `request`: left as is when it is an error, has no JSON body, or fits the
 * budget without `_fields`; a plain text over the budget is cut at a line with a note (it is not JSON).
 */
export function shapeResult(
  tool: ToolDefinition,
  result: CallToolResult,
  request: ShapeRequest,
  validator: SchemaValidator,
): ShapedResult {
  const first = result.content[0];
  if (result.isError || first?.type !== "text") return { result };
  // The note that follows a shrunk body is counted in the budget too.
  const maxChars =
    request.budgetTokens === undefined ? Infinity : charsOfTokens(request.budgetTokens) - NOTE_RESERVE_CHARS;
  if (!request.fields && first.text.length <= maxChars) return { result };
  const slot = result.structuredContent === undefined ? textSlot(first.text) : bodySlot(tool, result.structuredContent);
  if (!slot || slot.body === undefined) return request.fields ? { result } : cutText(result, first.text, maxChars);
  const projected = request.fields ? projectFields(slot.body, request.fields) : slot.body;
  const shrunk = shrinkToBudget(projected, maxChars, request.fields ? undefined : bodySchema(tool), request.keep);
  const shrank = shrunk.steps.length > 0;
  const notes: ContentBlock[] = shrank ? [{ type: "text", text: leftOutNote(shrunk, first.text.length, request) }] : [];
  const shaped: CallToolResult = {
    ...result,
    content: [{ type: "text", text: shrunk.text }, ...notes, ...result.content.slice(1)],
  };
  if (result.structuredContent !== undefined)
    shaped.structuredContent = checkedStructure(tool, slot, shrunk, validator, request.fields ? "fields" : "budget");
  return shrank ? { result: shaped, leftOut: first.text } : { result: shaped };
}

/**
 * The shaped value as `structuredContent`, or in the fallback shape when the documented shape
 * refuses it; a fallback (this one, or the API's own) gets `items` when the budget left items out.
 */
function checkedStructure(
  tool: ToolDefinition,
  slot: BodySlot,
  shrunk: ShrinkOutcome,
  validator: SchemaValidator,
  reason: "budget" | "fields",
): Record<string, unknown> {
  const structured = slot.rewrap(shrunk.value);
  const key = tool.http.response.fallbackKey;
  if (!tool.outputSchema || key === undefined) return structured;
  const items = shrunk.items && { items: shrunk.items };
  const received = getOwn(structured, key);
  if (Object.prototype.hasOwnProperty.call(structured, key))
    return items && isRecord(received) ? replaceKey(structured, key, { ...received, ...items }) : structured;
  const outcome = validator.validate(tool.outputSchema, structured, `output of tool ${tool.name}`);
  if (outcome.ok) return structured;
  const why = reason === "fields" ? "the chosen fields leave out" : "the result's size budget left out";
  // The page's cursor is the server's, not the body's: it stays beside the fallback, where views and clients page.
  const cursor = structured.nextCursor === undefined ? {} : { nextCursor: structured.nextCursor };
  const problems = [`${why} what the documented shape requires`, ...outcome.errors.slice(0, 5)];
  return { [key]: { reason, body: shrunk.value, problems, ...items }, ...cursor };
}

/** The note after a shrunk body: what was left out and how to get it. */
function leftOutNote(shrunk: ShrinkOutcome, fullChars: number, request: ShapeRequest): string {
  const parts = [`Shortened to fit the result budget of ${request.budgetTokens} tokens (${shrunk.steps.join("; ")}).`];
  if (shrunk.items)
    parts.push(`${shrunk.items.shown} of ${shrunk.items.total} items are shown; ask for a smaller page for the rest.`);
  if (shrunk.fieldsLeftOut.length > 0)
    parts.push(
      `Fields left out: ${shrunk.fieldsLeftOut.join(", ")}. Pick the fields you need with ${request.fieldsArgument ?? "_fields"} (paths such as "a.b" or "list[].name").`,
    );
  parts.push(`The complete response (${fullChars} characters) is at the resource link below, if one follows.`);
  return parts.join(" ");
}

/** A text result over the budget, cut at the last line break within it (it is not JSON), with a note. */
function cutText(result: CallToolResult, text: string, maxChars: number): ShapedResult {
  const lineEnd = text.lastIndexOf("\n", maxChars);
  const cut = text.slice(0, lineEnd > maxChars / 2 ? lineEnd : maxChars);
  const note = `… [${text.length - cut.length} more characters left out to fit the result budget; the complete text is at the resource link below, if one follows]`;
  return {
    result: { ...result, content: [{ type: "text", text: `${cut}\n${note}` }, ...result.content.slice(1)] },
    leftOut: text,
  };
}
