/**
 * Measures of an input schema that clients limit: nesting depth, properties, enum values, keywords
 * they do not support, and the places where strict mode's shape (every property required, closed
 * objects) does not hold. One walk over the schema and its `$defs`; refs are not followed (each
 * definition is measured once, where it is defined).
 */
import { isRecord, type JsonSchema } from "../../shared/contract.js";

/** What one walk found. */
export interface SchemaShape {
  /** Deepest nesting of object properties and array items (the root object is level 1). */
  depth: number;
  /** Properties declared anywhere. */
  properties: number;
  /** Enum values anywhere. */
  enumValues: number;
  /** Keywords found, of those asked about (e.g. allOf, not, if). */
  keywords: Set<string>;
  /** Objects with a property that is not required (strict mode requires every one). */
  optionalProperties: number;
  /** Objects that are not closed with `additionalProperties: false`. */
  openObjects: number;
}

const NESTING_MAPS = ["properties", "patternProperties", "$defs", "definitions"];
const NESTING_ONE = ["items", "additionalProperties", "contains", "not", "if", "then", "else", "propertyNames"];
const NESTING_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];

/** Walks `schema` (see the module comment); `keywords` are the ones to look for. */
export function schemaShape(schema: JsonSchema, keywords: readonly string[] = []): SchemaShape {
  const shape: SchemaShape = {
    depth: 0,
    properties: 0,
    enumValues: 0,
    keywords: new Set(),
    optionalProperties: 0,
    openObjects: 0,
  };
  const visit = (node: unknown, level: number, guard: number): void => {
    if (!isRecord(node) || guard > 64) return;
    shape.depth = Math.max(shape.depth, level);
    for (const key of keywords) if (node[key] !== undefined) shape.keywords.add(key);
    if (Array.isArray(node.enum)) shape.enumValues += node.enum.length;
    const isObject = node.type === "object" || isRecord(node.properties);
    if (isObject) {
      const names = isRecord(node.properties) ? Object.keys(node.properties) : [];
      shape.properties += names.length;
      const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
      if (names.some((name) => !required.has(name))) shape.optionalProperties++;
      if (node.additionalProperties !== false) shape.openObjects++;
    }
    for (const key of NESTING_MAPS) {
      const map = node[key];
      if (!isRecord(map)) continue;
      // $defs do not nest the value: a definition is measured from the root's level.
      const next = key === "$defs" || key === "definitions" ? 1 : level + 1;
      for (const child of Object.values(map)) visit(child, next, guard + 1);
    }
    for (const key of NESTING_ONE)
      if (node[key] !== undefined)
        visit(node[key], key === "items" || key === "additionalProperties" ? level + 1 : level, guard + 1);
    for (const key of NESTING_LISTS)
      if (Array.isArray(node[key])) for (const child of node[key] as unknown[]) visit(child, level, guard + 1);
  };
  visit(schema, 1, 0);
  return shape;
}
