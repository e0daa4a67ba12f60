/**
 * The two steps of an operation call that size its result for a model: before the upstream call,
 * the caller's `_fields` are checked and taken out of the arguments; after it, the result is
 * shaped (upstream/result-shape.ts) and, when the budget left something out or a binary body is
 * larger than {@link INLINE_BINARY_CHARS}, the complete content is kept one link away
 * (result-links.ts) and the result carries a `resource_link` to it.
 */
import type { CallToolResult, ContentBlock } from "../api/mcp-types.js";
import { textResult } from "../api/tool-outcome.js";
import type { ToolDefinition } from "../api/types.js";
import type { SchemaValidator } from "../api/validation.js";
import { getOwn } from "../protocol/own.js";
import { checkFields, topLevelPaths } from "../upstream/result-fields.js";
import { shapeResult } from "../upstream/result-shape.js";
import type { HandlerContext } from "./request-context.js";
import { RESULT_LINK_TTL_MS, resultOwner, type ResultLinks } from "./result-links.js";

type Args = Record<string, unknown>;

/** Base64 characters of a binary result shown inline at most (about 48 KB of content); larger ones are linked. */
export const INLINE_BINARY_CHARS = 65_536;
/** Paths one `_fields` may name at most. */
const MAX_FIELDS = 100;
/** The first revision with `resource_link` content; older clients get the link's URI in the text. */
const LINK_REVISION = "2025-06-18";

/** What the result step of a server works with. */
export interface ResultShaping {
  /** Tokens of a result's text (result-tokens.ts). */
  budgetTokens: number;
  links: ResultLinks;
  validator: SchemaValidator;
  /** The item fields the caller's view of `tool` shows (feature `apps`), kept first by the budget; undefined: none. */
  viewFields?: (tool: ToolDefinition, call: HandlerContext) => string[] | undefined;
}

/** The arguments without the fields argument and its checked paths, or the `isError` result that names valid ones. */
export function takeFields(
  tool: ToolDefinition,
  args: Args,
): { args: Args; fields?: string[][] } | { result: CallToolResult } {
  const name = tool.http.response.fieldsArgument;
  const requested = name === undefined ? undefined : (getOwn(args, name) ?? tool.http.response.defaultFields);
  if (name === undefined || requested === undefined) return { args };
  // An empty list (which the input schema admits: it carries no minItems) selects nothing: the whole result.
  if (Array.isArray(requested) && requested.length === 0) {
    const { [name]: _empty, ...rest } = args;
    return { args: rest };
  }
  if (
    !Array.isArray(requested) ||
    requested.length > MAX_FIELDS ||
    !requested.every((path) => typeof path === "string")
  )
    return {
      result: textResult(
        `Invalid arguments for tool ${tool.name}: ${name} must be a list of up to ${MAX_FIELDS} paths such as "id" or "items[].name".`,
        true,
      ),
    };
  const known = tool.http.response.fields ?? [];
  const checked = checkFields(requested as string[], known);
  if (!checked.ok)
    return {
      result: textResult(
        `Invalid arguments for tool ${tool.name}: unknown ${name} path(s) ${checked.unknown.map((p) => JSON.stringify(p)).join(", ")}. ` +
          `Known paths near them: ${checked.nearest.join(", ")}. Top-level fields: ${topLevelPaths(known).join(", ")}. ` +
          "A path is property names joined by dots; [] marks a list, whose items are crossed.",
        true,
      ),
    };
  const { [name]: _fields, ...rest } = args;
  return { args: rest, fields: checked.paths };
}

/**
 * The result as the caller gets it: shaped by `fields` and, when `budgeted`, the budget; the left-out
 * content linked. Code's `api` calls are not budgeted: the script, not a model, reads the value.
 * Synchronous when nothing is linked (the usual call: no await added to its path).
 */
export function shapeOperationResult(
  tool: ToolDefinition,
  result: CallToolResult,
  fields: string[][] | undefined,
  budgeted: boolean,
  shaping: ResultShaping,
  call: HandlerContext,
  mediaType?: string,
): CallToolResult | Promise<CallToolResult> {
  const shaped = shapeResult(
    tool,
    result,
    {
      budgetTokens: budgeted ? (tool.http.response.budgetTokens ?? shaping.budgetTokens) : undefined,
      fields,
      fieldsArgument: tool.http.response.fieldsArgument,
      keep: budgeted ? shaping.viewFields?.(tool, call) : undefined,
    },
    shaping.validator,
  );
  const binaries = budgeted && shaped.result.content.some((block) => largeBinary(block) !== undefined);
  if (shaped.leftOut === undefined && !binaries) return shaped.result;
  const linked = { mimeType: linkedType(result, mediaType), binaries };
  return linkLeftOut(tool, shaped.result, shaped.leftOut, linked, shaping, call);
}

/** The shaped result with links to what it left out: the complete body, binaries over the inline size. */
async function linkLeftOut(
  tool: ToolDefinition,
  shaped: CallToolResult,
  leftOut: string | undefined,
  { mimeType, binaries }: { mimeType: string; binaries: boolean },
  shaping: ResultShaping,
  call: HandlerContext,
): Promise<CallToolResult> {
  let out = shaped;
  const owner = () => resultOwner(call.ctx);
  const links = linksSupported(call);
  if (leftOut !== undefined) {
    const uri = await shaping.links.save(owner(), leftOut, mimeType);
    if (uri) out = { ...out, content: [...out.content, linkBlock(uri, tool, leftOut.length, mimeType, links)] };
  }
  return binaries ? linkLargeBinaries(out, tool, shaping, owner, links) : out;
}

/** A base64 block over the inline size: its data and media type. */
function largeBinary(block: ContentBlock): { data: string; mimeType: string } | undefined {
  if ((block.type === "image" || block.type === "audio") && block.data.length > INLINE_BINARY_CHARS)
    return { data: block.data, mimeType: block.mimeType };
  if (block.type === "resource" && typeof block.resource.blob === "string")
    return block.resource.blob.length > INLINE_BINARY_CHARS
      ? { data: block.resource.blob, mimeType: block.resource.mimeType ?? "application/octet-stream" }
      : undefined;
  return undefined;
}

/**
 * The media type of a shortened body's link: the upstream's (parameters such as charset kept), else
 * JSON for a result with structured content and plain text for one without.
 */
function linkedType(result: CallToolResult, upstream: string | undefined): string {
  const given = upstream?.trim();
  if (given && !/[\r\n]/.test(given)) return given;
  return result.structuredContent !== undefined ? "application/json" : "text/plain";
}

function linksSupported(call: HandlerContext): boolean {
  return call.era.version === undefined || call.era.version >= LINK_REVISION;
}

/** A `resource_link` block (or, for a client older than links, a text naming the URI). */
function linkBlock(uri: string, tool: ToolDefinition, size: number, mimeType: string, asLink: boolean): ContentBlock {
  const description = `The complete result of ${tool.name} (${size} characters), readable with resources/read by this caller for ${RESULT_LINK_TTL_MS / 60_000} minutes.`;
  if (!asLink) return { type: "text", text: `${description} URI: ${uri}` };
  return { type: "resource_link", uri, name: `${tool.name} result`, mimeType, description };
}

/** Images, audio and embedded binary resources above the inline size, kept one link away instead of base64. */
async function linkLargeBinaries(
  result: CallToolResult,
  tool: ToolDefinition,
  shaping: ResultShaping,
  owner: () => string,
  asLink: boolean,
): Promise<CallToolResult> {
  const content: ContentBlock[] = [];
  for (const block of result.content) {
    const binary = largeBinary(block);
    const uri = binary && (await shaping.links.save(owner(), binary.data, binary.mimeType, true));
    if (!binary || !uri) {
      content.push(block);
      continue;
    }
    const description = `${binary.mimeType} content of ${tool.name} (${Math.floor((binary.data.length * 3) / 4)} bytes), readable with resources/read by this caller for ${RESULT_LINK_TTL_MS / 60_000} minutes.`;
    content.push(
      asLink
        ? { type: "resource_link", uri, name: `${tool.name} content`, mimeType: binary.mimeType, description }
        : { type: "text", text: `${description} URI: ${uri}` },
    );
  }
  return { ...result, content };
}
