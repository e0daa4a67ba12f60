/**
 * The two steps of an operation call that size its result for a model: before the upstream call,
 * the caller's `_fields` are checked and taken out of the arguments; after it, the result is
 * shaped (upstream/result-shape.ts) and, when the budget left something out, the complete content
 * is kept one link away (result-links.ts) and the result carries a `resource_link` to it; so is
 * binary content over the inline size with feature `binary-links`.
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

/** Paths one `_fields` may name at most. */
const MAX_FIELDS = 100;
/** The first revision with `resource_link` content; older clients get the link's URI in the text. */
const LINK_REVISION = "2025-06-18";

/**
 * The result with its large binary blocks kept one link away (`save` keeps base64 data, resolves
 * to the link's URI; `asLink`: the client reads `resource_link` blocks); undefined when it has
 * none (feature `binary-links`).
 */
export type LinkBinaries = (
  result: CallToolResult,
  tool: ToolDefinition,
  save: (data: string, mimeType: string) => Promise<string | undefined>,
  asLink: boolean,
) => Promise<CallToolResult> | undefined;

/** What the result step of a server works with. */
export interface ResultShaping {
  /** Tokens of a result's text (result-tokens.ts). */
  budgetTokens: number;
  links: ResultLinks;
  validator: SchemaValidator;
  /** The item fields the caller's view of `tool` shows (feature `apps`), kept first by the budget; undefined: none. */
  viewFields?: (tool: ToolDefinition, call: HandlerContext) => string[] | undefined;
  /** Links large binary content (feature `binary-links`); undefined: binary content stays inline. */
  linkBinaries?: LinkBinaries | undefined;
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
  const owner = () => resultOwner(call.ctx);
  const asLink = linksSupported(call);
  const save = (data: string, mimeType: string) => shaping.links.save(owner(), data, mimeType, true);
  const linked = budgeted ? shaping.linkBinaries?.(shaped.result, tool, save, asLink) : undefined;
  if (shaped.leftOut === undefined && linked === undefined) return shaped.result;
  return linkLeftOut(tool, linked ?? shaped.result, shaped.leftOut, linkedType(result, mediaType), shaping, call);
}

/** The shaped result (its binaries linked already, when they are) with a link to the complete body it left out. */
async function linkLeftOut(
  tool: ToolDefinition,
  shaped: CallToolResult | Promise<CallToolResult>,
  leftOut: string | undefined,
  mimeType: string,
  shaping: ResultShaping,
  call: HandlerContext,
): Promise<CallToolResult> {
  const out = await shaped;
  const uri = leftOut === undefined ? undefined : await shaping.links.save(resultOwner(call.ctx), leftOut, mimeType);
  if (!uri) return out;
  return { ...out, content: [...out.content, linkBlock(uri, tool, leftOut!.length, mimeType, linksSupported(call))] };
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
