/**
 * Structural knowledge of JSON Schema 2020-12: which keywords hold sub-schemas. Walking by keyword
 * (instead of by every nested object) keeps property *names* such as `examples` or `default` from
 * being mistaken for keywords.
 */
import { type JsonSchema, setOwn } from "./contract.js";

type Obj = Record<string, unknown>;

/** Keywords whose value is one sub-schema. */
export const SINGLE_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "items",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentSchema",
  "additionalItems",
]);
/** Keywords whose value is a list of sub-schemas. */
export const LIST_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords whose value maps names to sub-schemas. */
export const MAP_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
]);

/**
 * Returns a copy of `schema` where every sub-schema (at any depth) went through `visit` after its
 * own children did (bottom-up). Non-schema values (enum, const, default, examples…) are kept as is.
 */
export function mapSchema(schema: JsonSchema, visit: (node: Obj) => JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
    const input = node as Obj;
    const out: Obj = {};
    // for…in with an own-property check, not Object.entries: no array per node (a big API has millions).
    for (const key in input) {
      if (!Object.hasOwn(input, key)) continue;
      const value = input[key];
      if (SINGLE_SCHEMA_KEYWORDS.has(key)) out[key] = Array.isArray(value) ? value.map(walk) : walk(value);
      else if (LIST_SCHEMA_KEYWORDS.has(key) && Array.isArray(value)) out[key] = value.map(walk);
      else if (MAP_SCHEMA_KEYWORDS.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
        const map: Obj = {};
        for (const name in value as Obj) if (Object.hasOwn(value, name)) setOwn(map, name, walk((value as Obj)[name]));
        out[key] = map;
      } else setOwn(out, key, value);
    }
    return visit(out);
  };
  return walk(schema) as JsonSchema;
}

/** Calls `visit` on every sub-schema object of `schema` (pre-order, including the root). */
export function forEachSchema(schema: unknown, visit: (node: Obj) => void): void {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return;
  const node = schema as Obj;
  visit(node);
  // for…in with an own-property check, not Object.entries: no array per node (a big API has millions).
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    const value = node[key];
    if (SINGLE_SCHEMA_KEYWORDS.has(key)) {
      if (Array.isArray(value)) for (const sub of value) forEachSchema(sub, visit);
      else forEachSchema(value, visit);
    } else if (LIST_SCHEMA_KEYWORDS.has(key) && Array.isArray(value))
      for (const sub of value) forEachSchema(sub, visit);
    else if (MAP_SCHEMA_KEYWORDS.has(key) && value !== null && typeof value === "object") {
      for (const name in value as Obj) if (Object.hasOwn(value, name)) forEachSchema((value as Obj)[name], visit);
    }
  }
}
