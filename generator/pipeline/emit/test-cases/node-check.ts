/**
 * The structural keywords of a JSON Schema node, checked without compiling it (schema-check.ts):
 * `type`, `enum`, `const`, `properties`, `required`, `additionalProperties`, `items`, `minItems`,
 * `maxItems`, `allOf`, `anyOf`, `oneOf` and a local `$ref`, each as the generated server's ajv
 * checks it (2020-12, `strict` off, own properties only; ajv's own deep equality for `enum` and
 * `const`). Each is a condition of its own on the value, so a node of these keywords only accepts
 * a value when every condition does, the subschemas answered by the caller (through its cache).
 * A node with any other keyword (`pattern`, `format`, `minimum`, `prefixItems`, `nullable`…),
 * or a form ajv reads otherwise (`items` as an array, an empty `anyOf`), is not split: ajv
 * checks it whole.
 */
import equalModule from "ajv/dist/runtime/equal.js";
import { getOwn, isRecord, type JsonSchema } from "../../../shared/contract.js";

type Schema = Record<string, unknown>;
/** Whether a value is accepted. */
export type Check = (value: unknown) => boolean;
/** Whether the subschema `schema` accepts `value` (the caller resolves its refs and caches its checks). */
export type SubCheck = (schema: JsonSchema, value: unknown) => boolean;

// A CommonJS module with `exports.default`: under NodeNext its default import is the module object.
const equal = ((equalModule as unknown as { default?: unknown }).default ?? equalModule) as (
  a: unknown,
  b: unknown,
) => boolean;

/**
 * Keywords that never change ajv's answer with the options used here (no `useDefaults`, `strict`
 * off: unknown keywords such as OpenAPI's `example` are ignored), and extension keywords (`x-…`).
 */
const ANNOTATIONS = new Set([
  "title",
  "description",
  "$comment",
  "examples",
  "example",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** Whether ajv ignores `keyword` (an annotation or an extension). */
export const isAnnotation = (keyword: string): boolean => ANNOTATIONS.has(keyword) || keyword.startsWith("x-");

const JSON_TYPES = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);

/** The conditions of a node of structural keywords (see the module comment); absent: no such keyword. */
export interface NodeParts {
  types?: string[];
  enum?: unknown[];
  const?: { value: unknown };
  object?: { properties: Record<string, JsonSchema>; required: string[]; additional?: JsonSchema };
  array?: { items?: JsonSchema; min?: number; max?: number };
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  /** The `$defs` entry a local `$ref` names. */
  ref?: JsonSchema;
}

/** The `$defs` entry name a `#/$defs/<name>` ref points to (undefined for any other ref). */
export function refName(ref: string): string | undefined {
  const match = /^#\/\$defs\/([^/]+)$/.exec(ref);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!).replace(/~1/g, "/").replace(/~0/g, "~");
  } catch {
    return undefined;
  }
}

const isSchema = (value: unknown): value is JsonSchema => typeof value === "boolean" || isRecord(value);
const isSchemaList = (value: unknown): value is JsonSchema[] =>
  Array.isArray(value) && value.length > 0 && value.every(isSchema);
const isCount = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * The conditions of `schema`, or undefined when it has a keyword (or a form) not split here.
 * `ownDefs`: its `$defs` are allowed (the root's); `defs`: what a local `$ref` resolves against.
 */
export function nodeParts(
  schema: Schema,
  ownDefs: boolean,
  defs: Record<string, unknown> | undefined,
): NodeParts | undefined {
  const parts: NodeParts = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (isAnnotation(keyword) || (ownDefs && keyword === "$defs")) continue;
    if (!addPart(parts, keyword, value, defs)) return undefined;
  }
  if (schema.properties !== undefined || schema.required !== undefined || schema.additionalProperties !== undefined)
    parts.object = {
      properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
      required: (schema.required ?? []) as string[],
      ...(schema.additionalProperties !== undefined ? { additional: schema.additionalProperties as JsonSchema } : {}),
    };
  if (schema.items !== undefined || schema.minItems !== undefined || schema.maxItems !== undefined)
    parts.array = {
      ...(schema.items !== undefined ? { items: schema.items as JsonSchema } : {}),
      ...(schema.minItems !== undefined ? { min: schema.minItems as number } : {}),
      ...(schema.maxItems !== undefined ? { max: schema.maxItems as number } : {}),
    };
  return parts;
}

/** Adds one keyword's condition to `parts` (the object and array ones are only checked here); false: not split. */
function addPart(
  parts: NodeParts,
  keyword: string,
  value: unknown,
  defs: Record<string, unknown> | undefined,
): boolean {
  switch (keyword) {
    case "type": {
      const types = typeof value === "string" ? [value] : value;
      if (!Array.isArray(types) || types.length === 0 || !types.every((type) => JSON_TYPES.has(type as string)))
        return false;
      parts.types = types as string[];
      return true;
    }
    case "enum":
      if (!Array.isArray(value)) return false;
      parts.enum = value;
      return true;
    case "const":
      parts.const = { value };
      return true;
    case "properties":
      return isRecord(value) && Object.values(value).every(isSchema);
    case "required":
      return Array.isArray(value) && value.every((name) => typeof name === "string");
    case "additionalProperties":
    case "items":
      return isSchema(value);
    case "minItems":
    case "maxItems":
      return isCount(value);
    case "allOf":
    case "anyOf":
    case "oneOf":
      if (!isSchemaList(value)) return false;
      parts[keyword] = value;
      return true;
    case "$ref": {
      const name = typeof value === "string" ? refName(value) : undefined;
      if (name === undefined || defs === undefined || !Object.hasOwn(defs, name)) return false;
      parts.ref = defs[name] as JsonSchema;
      return isSchema(parts.ref);
    }
    default:
      return false;
  }
}

/** Whether `value` has the JSON type `type`, as ajv tells (`strictNumbers` off, as `strict` is). */
function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    case "integer":
      return typeof value === "number" && !(value % 1) && !Number.isNaN(value);
    default:
      return typeof value === type;
  }
}

/** Whether every condition of `parts` accepts `value`; `sub` answers for the subschemas. */
export function nodeAccepts(parts: NodeParts, value: unknown, sub: SubCheck): boolean {
  if (parts.types && !parts.types.some((type) => hasType(value, type))) return false;
  if (parts.enum && !parts.enum.some((option) => equal(option, value))) return false;
  if (parts.const && !equal(parts.const.value, value)) return false;
  if (parts.object && isRecord(value) && !objectAccepts(parts.object, value, sub)) return false;
  if (parts.array && Array.isArray(value) && !arrayAccepts(parts.array, value, sub)) return false;
  if (parts.allOf && !parts.allOf.every((schema) => sub(schema, value))) return false;
  if (parts.anyOf && !parts.anyOf.some((schema) => sub(schema, value))) return false;
  if (parts.oneOf && parts.oneOf.filter((schema) => sub(schema, value)).length !== 1) return false;
  return parts.ref === undefined || sub(parts.ref, value);
}

/**
 * The object keywords, as ajv with `ownProperties`: a property counts when it is the object's own
 * and not undefined (`required`, `properties`); every other own key is additional.
 */
function objectAccepts(object: NonNullable<NodeParts["object"]>, value: Schema, sub: SubCheck): boolean {
  for (const name of object.required) if (getOwn(value, name) === undefined) return false;
  for (const key of Object.keys(value)) {
    const item = getOwn(value, key);
    if (Object.hasOwn(object.properties, key)) {
      if (item !== undefined && !sub(object.properties[key]!, item)) return false;
    } else if (object.additional !== undefined && !sub(object.additional, item)) {
      return false;
    }
  }
  return true;
}

function arrayAccepts(array: NonNullable<NodeParts["array"]>, value: unknown[], sub: SubCheck): boolean {
  if (array.min !== undefined && value.length < array.min) return false;
  if (array.max !== undefined && value.length > array.max) return false;
  return array.items === undefined || value.every((item) => sub(array.items!, item));
}
