import type { JsonSchema, ObjectJsonSchema, PaginationBinding, ParameterBinding } from "../../shared/contract.js";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import type { OperationIR, SchemaIR } from "../ir/ir-types.js";
import { resolveSchema } from "./schema-tools.js";

type Obj = Record<string, unknown>;

/** Request parameters that carry a continuation token. */
const CURSOR_PARAMS = [
  "cursor",
  "page_token",
  "pagetoken",
  "next_token",
  "nexttoken",
  "continuation",
  "continuationtoken",
  "continuation_token",
  "after",
  "marker",
  "next_cursor",
  "nextcursor",
  "pagination_token",
];
/** Response fields that carry the next token. */
const NEXT_TOKEN_FIELDS = [
  "next_page",
  "nextpage",
  "next_cursor",
  "nextcursor",
  "nextpagetoken",
  "next_page_token",
  "next_token",
  "nexttoken",
  "continuation",
  "continuationtoken",
  "continuation_token",
  "next_marker",
  "nextmarker",
  "end_cursor",
  "endcursor",
  "cursor",
];
/** Containers where APIs put paging metadata (Slack's `response_metadata`, `meta`, `pagination`…). */
const META_FIELDS = ["meta", "metadata", "response_metadata", "pagination", "paging", "page_info", "pageinfo", "links"];
/** Response fields holding the next page's URL. */
const NEXT_URL_FIELDS = ["next", "nextlink", "next_url", "nexturl", "@odata.nextlink", "next_page_url", "nextpageurl"];
const PAGE_PARAMS = ["page", "page_number", "pagenumber", "pageno"];
const OFFSET_PARAMS = ["offset", "skip", "start", "$skip"];
const LIMIT_PARAMS = [
  "per_page",
  "perpage",
  "page_size",
  "pagesize",
  "limit",
  "size",
  "count",
  "max_results",
  "maxresults",
  "$top",
  "top",
];
/** Preferred names of the array that holds a page's items. */
const ITEM_FIELDS = ["data", "items", "results", "records", "values", "value", "entries", "list"];

/** The properties of an object schema (refs resolved, allOf members merged shallowly). */
function propertiesOf(schema: JsonSchema | undefined, defs: Map<string, SchemaIR>, depth = 0): Obj {
  if (schema === undefined || depth > 8) return {};
  const resolved = resolveSchema(schema, defs);
  if (typeof resolved !== "object") return {};
  const own = (resolved.properties && typeof resolved.properties === "object" ? resolved.properties : {}) as Obj;
  const merged: Obj = {};
  for (const member of Array.isArray(resolved.allOf) ? resolved.allOf : [])
    Object.assign(merged, propertiesOf(member as JsonSchema, defs, depth + 1));
  return { ...merged, ...own };
}

function typeOf(schema: unknown, defs: Map<string, SchemaIR>): string | undefined {
  const resolved = resolveSchema(schema as JsonSchema, defs);
  if (typeof resolved !== "object") return undefined;
  if (typeof resolved.type === "string") return resolved.type;
  if (Array.isArray(resolved.type)) return (resolved.type as string[]).find((t) => t !== "null");
  return resolved.properties ? "object" : resolved.items ? "array" : undefined;
}

/** Finds a property by case-insensitive name among `candidates`; returns its real name. */
function findProperty(
  properties: Obj,
  candidates: string[],
  type: string | undefined,
  defs: Map<string, SchemaIR>,
): string | undefined {
  for (const candidate of candidates) {
    const name = Object.keys(properties).find((key) => key.toLowerCase() === candidate);
    if (name && (type === undefined || typeOf(properties[name], defs) === type)) return name;
  }
  return undefined;
}

/** A string field for the next token/URL, at the top level or one container down. */
function findNextField(properties: Obj, candidates: string[], defs: Map<string, SchemaIR>): string[] | undefined {
  const top = findProperty(properties, candidates, "string", defs);
  if (top) return [top];
  for (const container of Object.keys(properties).filter((key) => META_FIELDS.includes(key.toLowerCase()))) {
    const inner = findProperty(propertiesOf(properties[container] as JsonSchema, defs), candidates, "string", defs);
    if (inner) return [container, inner];
  }
  return undefined;
}

/** Where a page's items are: `[]` for a root array, or the preferred/only array property. */
function findItems(body: JsonSchema, defs: Map<string, SchemaIR>): string[] | undefined {
  if (typeOf(body, defs) === "array") return [];
  const properties = propertiesOf(body, defs);
  const preferred = findProperty(properties, ITEM_FIELDS, "array", defs);
  if (preferred) return [preferred];
  const arrays = Object.keys(properties).filter((key) => typeOf(properties[key], defs) === "array");
  return arrays.length === 1 ? [arrays[0]!] : undefined;
}

/** The input argument bound to a query parameter with one of these names. */
function queryArgument(parameters: ParameterBinding[], candidates: string[]): string | undefined {
  for (const candidate of candidates) {
    const match = parameters.find((p) => p.in === "query" && p.name.toLowerCase() === candidate);
    if (match) return match.argument;
  }
  return undefined;
}

/** Facts the detector needs about one planned tool. */
export interface PaginationInput {
  op: OperationIR;
  parameters: ParameterBinding[];
  /** The raw (unwrapped) success JSON schema. */
  body?: JsonSchema;
  /** Argument names already used by the tool. */
  taken: Set<string>;
}

/**
 * Detects how an operation pages (the `x-mcp-pagination` extension first, then the shape of its
 * parameters and response) and returns the binding, or undefined when it does not page.
 */
export function detectPagination(
  input: PaginationInput,
  defs: Map<string, SchemaIR>,
  bag: DiagnosticBag,
): PaginationBinding | undefined {
  const { op, parameters, body } = input;
  if (op.method !== "get" || body === undefined) return undefined;
  const cursorArgument = input.taken.has("cursor")
    ? input.taken.has("pageCursor")
      ? "mcp_cursor"
      : "pageCursor"
    : "cursor";
  const hint = op.paginationHint;
  if (hint === false) return undefined;
  if (hint !== undefined) return fromHint(hint, input, cursorArgument, bag);
  const properties = propertiesOf(body, defs);
  const success = op.responses.find((r) => /^2/.test(r.status));
  const limitArgument = queryArgument(parameters, LIMIT_PARAMS);
  const withLimit = limitArgument ? { limitArgument } : {};

  // Where the items are matters to page/offset styles, and lets every style collect several pages.
  const items = findItems(body, defs);
  const withItems = items ? { itemsPath: items } : {};
  if (success?.headers?.includes("link")) return { style: "link", cursorArgument, ...withItems };
  const nextUrl = findNextField(properties, NEXT_URL_FIELDS, defs);
  if (nextUrl) return { style: "nextUrl", cursorArgument, nextPath: nextUrl, ...withItems };
  // A string-typed `page` parameter is a token (Stripe search: `page` + `next_page`), not a number.
  const stringPage = parameters.find(
    (p) =>
      p.in === "query" &&
      PAGE_PARAMS.includes(p.name.toLowerCase()) &&
      typeOf(op.parameters.find((q) => q.in === "query" && q.name === p.name)?.schema, defs) === "string",
  );
  const tokenArgument = queryArgument(parameters, CURSOR_PARAMS) ?? stringPage?.argument;
  const nextToken = tokenArgument ? findNextField(properties, NEXT_TOKEN_FIELDS, defs) : undefined;
  if (tokenArgument && nextToken)
    return {
      style: "cursor",
      cursorArgument: tokenArgument === "cursor" ? "cursor" : cursorArgument,
      targetArgument: tokenArgument,
      nextPath: nextToken,
      ...withItems,
    };
  const startingAfter = queryArgument(parameters, ["starting_after"]);
  const hasMore = findProperty(properties, ["has_more", "hasmore"], "boolean", defs);
  if (startingAfter && hasMore && items && items.length > 0) {
    return {
      style: "cursor",
      cursorArgument,
      targetArgument: startingAfter,
      hasMorePath: [hasMore],
      itemsPath: items,
      idField: "id",
    };
  }
  if (!items) return undefined;
  const pageArgument = stringPage ? undefined : queryArgument(parameters, PAGE_PARAMS);
  if (pageArgument)
    return { style: "page", cursorArgument, targetArgument: pageArgument, itemsPath: items, ...withLimit };
  const offsetArgument = queryArgument(parameters, OFFSET_PARAMS);
  if (offsetArgument)
    return { style: "offset", cursorArgument, targetArgument: offsetArgument, itemsPath: items, ...withLimit };
  return undefined;
}

/** `x-mcp-pagination: { style, param, next, items, limit, hasMore, idField, firstPage }`. */
function fromHint(
  hint: unknown,
  input: PaginationInput,
  cursorArgument: string,
  bag: DiagnosticBag,
): PaginationBinding | undefined {
  const at = `${input.op.pointer}/x-mcp-pagination`;
  const h = (hint && typeof hint === "object" ? hint : {}) as Obj;
  const styles = ["cursor", "page", "offset", "link", "nextUrl"];
  if (!styles.includes(h.style as string)) {
    bag.warn(Codes.paginationInvalid, `x-mcp-pagination needs a style (${styles.join(", ")}); it is ignored.`, at);
    return undefined;
  }
  const path = (value: unknown) => (typeof value === "string" && value !== "" ? value.split(".") : undefined);
  const argumentFor = (name: unknown) => input.parameters.find((p) => p.in === "query" && p.name === name)?.argument;
  const target = argumentFor(h.param);
  if ((h.style === "cursor" || h.style === "page" || h.style === "offset") && !target) {
    bag.warn(
      Codes.paginationInvalid,
      `x-mcp-pagination.param must name a query parameter of the operation; pagination is ignored.`,
      at,
    );
    return undefined;
  }
  const limit = argumentFor(h.limit);
  const binding: PaginationBinding = { style: h.style as PaginationBinding["style"], cursorArgument };
  if (target) binding.targetArgument = target;
  if (path(h.next)) binding.nextPath = path(h.next)!;
  if (path(h.hasMore)) binding.hasMorePath = path(h.hasMore)!;
  if (typeof h.idField === "string") binding.idField = h.idField;
  if (typeof h.items === "string") binding.itemsPath = h.items === "" || h.items === "." ? [] : h.items.split(".");
  if (limit) binding.limitArgument = limit;
  if (typeof h.firstPage === "number") binding.firstPage = h.firstPage;
  return binding;
}

/** Adds the cursor argument to the input schema and `nextCursor` to the output schema. */
export function applyPaginationContract(
  binding: PaginationBinding,
  inputSchema: ObjectJsonSchema,
  outputSchema: ObjectJsonSchema | undefined,
): void {
  const properties = (inputSchema.properties ??= {});
  if (!(binding.cursorArgument in properties)) {
    properties[binding.cursorArgument] = {
      type: "string",
      description: "nextCursor of the previous result.",
    };
  } else {
    const existing = properties[binding.cursorArgument];
    if (typeof existing === "object")
      properties[binding.cursorArgument] = {
        ...existing,
        description: `${existing.description ? `${existing.description} ` : ""}Also accepts nextCursor from a previous call.`,
      };
  }
  // Several pages in one call need to know where each page's items are.
  if (binding.itemsPath && !("maxPages" in properties)) {
    properties.maxPages = {
      type: "integer",
      minimum: 1,
      maximum: 10,
      description: "Pages to fetch and merge into one result (default 1).",
    };
    binding.maxPagesArgument = "maxPages";
  }
  if (outputSchema) {
    outputSchema.properties = {
      ...outputSchema.properties,
      // No description: the cursor argument's says where nextCursor goes, and every paginated tool lists this.
      nextCursor: { type: "string" },
    };
  }
}
