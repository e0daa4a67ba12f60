/**
 * Which fields identify an object, by one general rule on property names (no API's vocabulary):
 * a scalar property whose name, or the last word of it (`node_id`, `displayName`, `issue-key`),
 * is an identifier word. The names come from the schema where it describes the object, else from
 * the value itself (upstreams send properties their spec does not list).
 */
import { isRecord } from "../protocol/own.js";
import type { JsonSchema } from "../api/types.js";

/** Words that name or identify a thing in an API's objects: ids, keys, names, titles, numbers, states. */
const IDENTIFIER_WORDS = new Set([
  "id",
  "uuid",
  "key",
  "name",
  "title",
  "number",
  "state",
  "status",
  "slug",
  "login",
  "username",
]);

/** The last word of a property name: `node_id` → `id`, `displayName` → `name`, `issue-key` → `key`. */
function lastWord(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_\-.]+/)
    .filter(Boolean);
  return (words.at(-1) ?? "").toLowerCase();
}

/** Whether a property of this name identifies its object. */
export function isIdentifyingName(name: string): boolean {
  return IDENTIFIER_WORDS.has(lastWord(name));
}

function isScalar(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** The property names a schema gives an object (its own and those of its `allOf`/`anyOf` branches). */
export function schemaPropertyNames(schema: JsonSchema | undefined): string[] {
  if (!isRecord(schema)) return [];
  const names = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
  for (const key of ["allOf", "anyOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const branch of branches) names.push(...schemaPropertyNames(branch));
  }
  return [...new Set(names)];
}

/**
 * The identifying fields of `value` that it has, as scalars: those the schema lists when it lists
 * any the value has, else chosen among the value's own keys; in the value's key order.
 */
export function identifyingKeys(value: Record<string, unknown>, schema?: JsonSchema): string[] {
  const scalars = Object.keys(value).filter((key) => isScalar(value[key]));
  const listed = new Set(schemaPropertyNames(schema).filter(isIdentifyingName));
  const fromSchema = scalars.filter((key) => listed.has(key));
  return fromSchema.length > 0 ? fromSchema : scalars.filter(isIdentifyingName);
}

/** The sub-schema of property `key` of an object schema, or of the items of an array schema (`key` undefined). */
export function childSchema(schema: JsonSchema | undefined, key?: string): JsonSchema | undefined {
  if (!isRecord(schema)) return undefined;
  if (key === undefined) {
    if (schema.items !== undefined) return schema.items as JsonSchema;
  } else if (isRecord(schema.properties) && Object.prototype.hasOwnProperty.call(schema.properties, key)) {
    return schema.properties[key] as JsonSchema;
  }
  for (const branchKey of ["allOf", "anyOf"] as const) {
    const branches = schema[branchKey];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const found = childSchema(branch as JsonSchema, key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
