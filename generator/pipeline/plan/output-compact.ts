/**
 * Compact output schemas. SDK clients compile every tool's `outputSchema` with ajv while listing
 * tools (the official 1.x client does, with `allErrors` and ajv-formats), and each typed sub-schema
 * costs tens of microseconds of code generation; on APIs like GitHub (1,200 tools, deeply nested
 * responses) the full response schemas take seconds to list and megabytes to send.
 *
 * An output schema only has to let a client rely on the result's shape, and must never reject a
 * real response for no good reason (the runtime puts deviating responses into a fallback shape, but
 * each such case is less useful to the caller). So every rule here *loosens* or keeps the schema
 * equivalent, never tightens it:
 * - refs are inlined (each schema is self-contained; nothing is shared across tools);
 * - only shape keywords are kept (`type`, `properties`, `required`, `items`, `enum`, `const`,
 *   `anyOf`, `allOf`, map-valued `additionalProperties`); prose, formats, patterns, bounds,
 *   `additionalProperties: false` and other validation-only keywords are dropped;
 * - `oneOf` becomes `anyOf` (overlapping branches no longer reject a response);
 * - below a nesting depth a sub-schema keeps only its `type` (an open object, array…);
 * - identical `anyOf` branches are merged, type-only branches become one type list, a branch that
 *   accepts anything makes the whole `anyOf` accept anything, plain `allOf` members are merged;
 * - the depth shrinks until the schema fits a budget of typed nodes (a proxy for compile time)
 *   and of characters; at depth 0 the root's properties keep only their names (only the required
 *   ones when even the names are over the character budget).
 */
import { getOwn, isRecord, type JsonSchema, setOwn } from "../../shared/contract.js";
import type { SchemaIR } from "../ir/ir-types.js";
import { defName, isHidden } from "./schema-tools.js";

type Obj = Record<string, unknown>;

/** Nesting depth kept at most: at depth 3 the root's properties' properties keep only their types. */
export const OUTPUT_MAX_DEPTH = 3;
/**
 * Typed nodes (sub-schemas that make a validator generate code) one output schema may have at
 * most. The depth shrinks until the documented shape fits: at depth 1 the root's properties keep
 * only their types; below that (depth 0) only their names.
 */
export const OUTPUT_NODE_BUDGET = 128;
/**
 * JSON characters one documented shape may have: the deepest level within both budgets is taken,
 * and a shape whose property names alone exceed it keeps only its required properties.
 */
export const OUTPUT_BYTE_BUDGET = 4_000;
/**
 * Typed nodes all output schemas of an API may have together, roughly: what the official SDK
 * client compiles in well under a second. Each tool gets a share (see {@link outputNodeBudget}).
 */
export const OUTPUT_API_BUDGET = 8_192;
/** The smallest share of one tool. */
export const OUTPUT_MIN_NODE_BUDGET = 4;

/**
 * The node budget a new tool gets in an API of `toolCount` tools: the API budget divided by the tool
 * count rounded up to a power of two, within [{@link OUTPUT_MIN_NODE_BUDGET}, {@link OUTPUT_NODE_BUDGET}].
 * A tool keeps the budget it was first given (the tool lock records it, tool-lock.ts), so operations
 * added to the API never change the output schemas of the tools already there; only newcomers get
 * the smaller share of a grown API.
 */
export function outputNodeBudget(toolCount: number): number {
  const share = OUTPUT_API_BUDGET / 2 ** Math.ceil(Math.log2(Math.max(1, toolCount)));
  return Math.max(OUTPUT_MIN_NODE_BUDGET, Math.min(OUTPUT_NODE_BUDGET, share));
}

/** Keywords that describe the shape of a result and are kept. */
const SHAPE_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "items",
  "prefixItems",
  "additionalProperties",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
]);

/** Whether a schema accepts every value. */
export function acceptsAnything(schema: JsonSchema): boolean {
  return schema === true || (typeof schema === "object" && Object.keys(schema).length === 0);
}

/** The `type` of a schema as a list, or undefined when it has none. */
function typeList(schema: Obj): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type) && schema.type.every((t) => typeof t === "string")) return schema.type as string[];
  return undefined;
}

function withType(types: string[]): Obj {
  const unique = [...new Set(types.includes("number") ? types.filter((t) => t !== "integer") : types)];
  return { type: unique.length === 1 ? unique[0] : unique };
}

/** The loosest schema that still says what the value is: its type alone (or anything). */
function typeOnly(schema: Obj, defs: Map<string, SchemaIR>, seen: Set<string> = new Set()): Obj {
  const name = defName(schema as JsonSchema);
  if (name !== undefined) {
    const target = defs.get(name);
    if (!target || seen.has(name)) return {};
    seen.add(name);
    const resolved = typeof target.schema === "object" ? typeOnly(target.schema, defs, seen) : {};
    const own = typeList(schema);
    return own ? withType(own) : resolved;
  }
  const own = typeList(schema);
  if (own) return withType(own);
  // A union of typed branches has the union of their types.
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    const types: string[] = [];
    for (const branch of branches) {
      if (typeof branch !== "object") return {};
      const t = typeList(typeOnly(branch, defs, seen));
      if (!t) return {};
      types.push(...t);
    }
    return withType(types);
  }
  const members = schema.allOf as JsonSchema[] | undefined;
  if (Array.isArray(members)) {
    for (const member of members) {
      if (typeof member !== "object") continue;
      const t = typeOnly(member, defs, seen);
      if (t.type !== undefined) return t;
    }
  }
  if (schema.properties !== undefined && schema.anyOf === undefined && schema.oneOf === undefined)
    return { type: "object" };
  return {};
}

/** Compacts one output schema (see the module comment) to at most `maxDepth` levels. */
export function compactSchema(schema: JsonSchema, defs: Map<string, SchemaIR>, maxDepth: number): JsonSchema {
  const walk = (node: JsonSchema, depth: number, expanding: ReadonlySet<string>): Obj => {
    if (typeof node !== "object" || node === null) return {};
    if (depth >= maxDepth) return typeOnly(node, defs);
    const name = defName(node);
    if (name !== undefined) {
      const target = defs.get(name);
      // A ref that loops without nesting (A = anyOf [A, …]) or points nowhere accepts anything.
      if (!target || expanding.has(name)) return {};
      const resolved = walk(target.schema, depth, new Set([...expanding, name]));
      const { $ref: _ref, ...siblings } = node;
      if (Object.keys(siblings).length === 0) return resolved;
      return simplifyAllOf({ allOf: [resolved, walk(siblings, depth, expanding)] });
    }
    const out: Obj = {};
    const writeOnly = new Set<string>();
    for (const [key, value] of Object.entries(node)) {
      if (!SHAPE_KEYWORDS.has(key)) continue;
      if (key === "properties" && value && typeof value === "object") {
        const properties: Obj = {};
        for (const [prop, sub] of Object.entries(value as Obj)) {
          // A response never carries writeOnly properties.
          if (isHidden(sub, "writeOnly", defs)) writeOnly.add(prop);
          else setOwn(properties, prop, walk(sub as JsonSchema, depth + 1, new Set()));
        }
        out.properties = properties;
      } else if (key === "additionalProperties") {
        // false is left out: upstreams add fields, a client should not reject them.
        if (typeof value === "object" && value !== null) {
          const sub = walk(value as JsonSchema, depth + 1, new Set());
          if (!acceptsAnything(sub as JsonSchema)) out.additionalProperties = sub;
        }
      } else if (key === "items") {
        // An array's items are at the array's own depth: a list of X shows as much of X as X would.
        if (isRecord(value)) {
          // Same depth, so the refs being expanded stay in force: an array of itself (a JSON-value
          // type: anyOf [string, …, array of JsonValue]) would otherwise expand forever.
          const sub = walk(value as JsonSchema, depth, expanding);
          if (!acceptsAnything(sub as JsonSchema)) out.items = sub;
        }
      } else if (key === "prefixItems" && Array.isArray(value)) {
        out.prefixItems = value.map((sub) => walk(sub as JsonSchema, depth + 1, new Set()));
      } else if ((key === "anyOf" || key === "oneOf") && Array.isArray(value)) {
        const branches = value.map((sub) => walk(sub as JsonSchema, depth, expanding));
        out.anyOf = out.anyOf ? [...(out.anyOf as Obj[]), ...branches] : branches;
      } else if (key === "allOf" && Array.isArray(value)) {
        out.allOf = value.map((sub) => walk(sub as JsonSchema, depth, expanding));
      } else if (key === "required") {
        if (Array.isArray(value) && value.length > 0) out.required = value;
      } else if (key !== "$ref") {
        setOwn(out, key, value);
      }
    }
    if (Array.isArray(out.required) && writeOnly.size > 0) {
      const required = (out.required as string[]).filter((name) => !writeOnly.has(name));
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
    if (Array.isArray(out.prefixItems) && (out.prefixItems as Obj[]).every((s) => acceptsAnything(s as JsonSchema)))
      delete out.prefixItems;
    return simplifyAllOf(simplifyAnyOf(out));
  };
  return walk(schema, 0, new Set());
}

/** Merges identical or type-only `anyOf` branches; a branch accepting anything makes the node accept anything. */
export function simplifyAnyOf(node: Obj): Obj {
  if (!Array.isArray(node.anyOf)) return node;
  const branches: Obj[] = [];
  const seen = new Set<string>();
  for (const branch of node.anyOf as Obj[]) {
    if (acceptsAnything(branch as JsonSchema)) {
      const { anyOf: _anyOf, ...rest } = node;
      return rest;
    }
    const key = JSON.stringify(branch);
    if (!seen.has(key)) (branches.push(branch), seen.add(key));
  }
  const { anyOf: _anyOf, ...rest } = node;
  // Branches that only name types are one node with a type list.
  if (branches.every((b) => Object.keys(b).length === 1 && typeList(b))) {
    return mergeInto(rest, withType(branches.flatMap((b) => typeList(b)!)));
  }
  // `X or null` where X has one type: X with null added to its type (and enum).
  const nulls = branches.filter((b) => Object.keys(b).length === 1 && b.type === "null");
  const others = branches.filter((b) => !nulls.includes(b));
  if (
    nulls.length === 1 &&
    others.length === 1 &&
    typeof others[0]!.type === "string" &&
    others[0]!.anyOf === undefined &&
    others[0]!.allOf === undefined &&
    others[0]!.const === undefined
  ) {
    const other = { ...others[0]! };
    other.type = [other.type as string, "null"];
    if (Array.isArray(other.enum) && !other.enum.includes(null)) other.enum = [...other.enum, null];
    return mergeInto(rest, other);
  }
  if (branches.length === 1) return mergeInto(rest, branches[0]!);
  return { ...rest, anyOf: branches };
}

/** Puts `extra` into `node` when their keywords do not overlap; otherwise an `allOf` of both. */
function mergeInto(node: Obj, extra: Obj): Obj {
  if (Object.keys(node).length === 0) return extra;
  if (Object.keys(extra).some((key) => key in node)) return simplifyAllOf({ allOf: [node, extra] });
  return { ...node, ...extra };
}

/** Keywords a member may have for `allOf` members to be merged into one object schema. */
const MERGEABLE = new Set(["type", "properties", "required", "additionalProperties"]);

/**
 * Merges `allOf` members that are plain object schemas (type, properties, required) into the node;
 * members accepting anything are dropped. Others stay in `allOf`.
 */
export function simplifyAllOf(node: Obj): Obj {
  if (!Array.isArray(node.allOf)) return node;
  const { allOf, ...rest } = node;
  const kept: Obj[] = [];
  let merged: Obj = rest;
  for (const member of allOf as Obj[]) {
    if (acceptsAnything(member as JsonSchema)) continue;
    const plain =
      Object.keys(member).every((key) => MERGEABLE.has(key)) &&
      Object.keys(merged).every((key) => MERGEABLE.has(key) || key === "allOf");
    const next = plain ? mergeObjects(merged, member) : undefined;
    if (next) merged = next;
    else kept.push(member);
  }
  if (kept.length === 0) return merged;
  if (Object.keys(merged).length === 0 && kept.length === 1) return kept[0]!;
  return { ...merged, allOf: kept };
}

/** The conjunction of two plain object schemas as one, or undefined when they cannot be merged exactly. */
function mergeObjects(a: Obj, b: Obj): Obj | undefined {
  const out: Obj = { ...a };
  const ta = typeList(a);
  const tb = typeList(b);
  if (ta && tb) {
    const both = ta.filter((t) => tb.includes(t));
    if (both.length === 0) return undefined;
    out.type = both.length === 1 ? both[0] : both;
  } else if (tb) out.type = b.type;
  if (a.additionalProperties !== undefined || b.additionalProperties !== undefined) return undefined;
  if (b.properties) {
    const properties: Obj = { ...((a.properties as Obj) ?? {}) };
    for (const [name, sub] of Object.entries(b.properties as Obj)) {
      const existing = getOwn(properties, name);
      if (existing === undefined || acceptsAnything(existing as JsonSchema)) setOwn(properties, name, sub);
      else if (!acceptsAnything(sub as JsonSchema) && JSON.stringify(existing) !== JSON.stringify(sub))
        setOwn(properties, name, { allOf: [existing, sub] });
    }
    out.properties = properties;
  }
  if (Array.isArray(b.required))
    out.required = [...new Set([...((a.required as string[]) ?? []), ...(b.required as string[])])];
  return out;
}

/** Number of sub-schemas that make a validator generate code (the root included). */
export function typedNodes(schema: JsonSchema): number {
  if (typeof schema !== "object" || schema === null || Object.keys(schema).length === 0) return 0;
  let count = 1;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && value && typeof value === "object")
      for (const sub of Object.values(value as Obj)) count += typedNodes(sub as JsonSchema);
    else if ((key === "items" || key === "additionalProperties") && typeof value === "object")
      count += typedNodes(value as JsonSchema);
    else if ((key === "anyOf" || key === "allOf" || key === "prefixItems") && Array.isArray(value))
      for (const sub of value) count += typedNodes(sub as JsonSchema);
  }
  return count;
}

/**
 * How much of a documented shape a compacted output schema keeps: `n` ≥ 1, the nodes above depth
 * `n` whole and those at depth `n` as their types ({@link compactSchema} with `maxDepth` n);
 * {@link NAMES_ONLY}, the root's property names; {@link REQUIRED_ONLY}, its required property names.
 * The diff compares two versions of a tool's output only down to the lesser detail of the two
 * (schema-changes.ts), so that a change of detail is never read as a change of the API.
 */
export type OutputDetail = number;
/** Detail of a shape that keeps only the root's property names (see {@link namesOnly}). */
export const NAMES_ONLY: OutputDetail = 0;
/** Detail of a shape that keeps only the root's required property names. */
export const REQUIRED_ONLY: OutputDetail = -1;

/**
 * The compacted documented shape: the deepest depth (≤ {@link OUTPUT_MAX_DEPTH}) whose schema has at
 * most {@link OUTPUT_NODE_BUDGET} typed nodes, else depth 1.
 */
export function compactOutput(
  schema: JsonSchema,
  defs: Map<string, SchemaIR>,
  budget = OUTPUT_NODE_BUDGET,
  maxDepth = OUTPUT_MAX_DEPTH,
  byteBudget = OUTPUT_BYTE_BUDGET,
): JsonSchema {
  return compactOutputDetailed(schema, defs, budget, maxDepth, byteBudget).schema;
}

/** {@link compactOutput} with the detail it kept. */
export function compactOutputDetailed(
  schema: JsonSchema,
  defs: Map<string, SchemaIR>,
  budget = OUTPUT_NODE_BUDGET,
  maxDepth = OUTPUT_MAX_DEPTH,
  byteBudget = OUTPUT_BYTE_BUDGET,
): { schema: JsonSchema; detail: OutputDetail } {
  // Shallow first: a deeper cut only adds nodes and bytes, so the first depth that does not fit
  // ends the search (on big APIs most shapes do not fit at depth 1, and deeper cuts cost the most).
  const shallowest = compactSchema(schema, defs, 1);
  let fitting: { schema: JsonSchema; detail: OutputDetail } | undefined;
  for (let depth = 1; depth <= maxDepth; depth++) {
    const compacted = depth === 1 ? shallowest : compactSchema(schema, defs, depth);
    if (typedNodes(compacted) > budget || JSON.stringify(compacted).length > byteBudget) break;
    fitting = { schema: compacted, detail: depth };
  }
  if (fitting !== undefined) return fitting;
  const names = namesOnly(shallowest);
  return JSON.stringify(names).length <= byteBudget
    ? { schema: names, detail: NAMES_ONLY }
    : { schema: requiredOnly(names), detail: REQUIRED_ONLY };
}

/** A names-only shape without its optional names (for shapes with very many properties): `required` lists the rest. */
function requiredOnly(schema: JsonSchema): JsonSchema {
  if (typeof schema !== "object" || schema === null) return schema;
  const { properties: _optional, ...out } = schema as Obj;
  for (const key of ["anyOf", "allOf"])
    if (Array.isArray(out[key])) out[key] = (out[key] as JsonSchema[]).map(requiredOnly);
  return out;
}

/**
 * Depth 0 of a compacted object schema: its properties accept anything, `required` stays. Every name
 * stays once, for readers: a required one in `required`, an optional one as a property `{}` (a
 * required name's `{}` would say nothing more, on every tool of a large API's listing).
 */
export function namesOnly(schema: JsonSchema): JsonSchema {
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Obj = {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]) : []);
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && value && typeof value === "object") {
      const optional = Object.keys(value as Obj).filter((name) => !required.has(name));
      if (optional.length > 0) out.properties = Object.fromEntries(optional.map((name) => [name, {}]));
    } else if ((key === "anyOf" || key === "allOf") && Array.isArray(value))
      out[key] = value.map((sub) => namesOnly(sub as JsonSchema));
    else if (key === "type" || key === "required" || key === "enum" || key === "const") out[key] = value;
  }
  return simplifyAllOf(simplifyAnyOf(out));
}
