/**
 * Empty values in parameters. `""` for a path parameter makes an empty path segment (another URL);
 * a query parameter may be empty only with `allowEmptyValue`; servers refuse required headers with
 * empty values. The input schema says so (`minLength: 1`, for arrays `minItems: 1`), so that
 * argument validation refuses such a value before any request is made.
 */
import type { JsonSchema } from "../../shared/contract.js";
import type { ParameterIR, SchemaIR } from "../ir/ir-types.js";
import { resolveSchema } from "./schema-tools.js";

type Obj = Record<string, unknown>;

/** Whether the spec allows no empty value for this parameter (see the module comment). */
export function forbidsEmpty(param: Pick<ParameterIR, "in" | "required" | "allowEmptyValue">): boolean {
  switch (param.in) {
    case "path":
      return true;
    case "query":
      return param.allowEmptyValue !== true;
    case "header":
      return param.required;
    default:
      return false;
  }
}

/**
 * Whether an empty array makes a request the spec refuses: an empty path segment or header, or a
 * required query parameter left out. The runtime leaves an empty list out of the query in every
 * style (RFC 6570: an empty list is undefined; runtime/src/upstream/serialize.ts), so an optional query
 * array sends nothing for `[]`, as if it were left out: that is fine.
 */
export function emptyArrayMatters(param: Pick<ParameterIR, "in" | "required" | "explode">): boolean {
  return !(param.in === "query" && !param.required);
}

/** The JSON types a schema names, or undefined when it names none. */
function types(schema: Obj): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  return undefined;
}

/**
 * The parameter schema with `minLength: 1` when a string value is possible (`minItems: 1` for an
 * array, `minProperties: 1` for an object), unless the schema (or the def it refers to) already decides: a `minLength`/`minItems`
 * of its own (even 0: the spec's explicit choice), an `enum` or `const`, a `pattern` that refuses
 * `""`. Refs keep their target: the keyword is added beside the `$ref`, which JSON Schema 2020-12
 * applies together with it. `arrays: false` leaves arrays and objects alone (see {@link emptyArrayMatters}).
 * `segment` (a path parameter): no value may be empty, whatever the spec lists — `""` in an
 * `enum`, a `const: ""` or `minLength: 0` would make an empty path segment, that is another URL,
 * which the runtime refuses — so `minLength: 1` is added there too.
 */
export function withoutEmpty(
  schema: JsonSchema,
  defs: Map<string, SchemaIR>,
  arrays = true,
  segment = false,
): JsonSchema {
  const own: Obj = typeof schema === "object" ? schema : {};
  if (schema === false) return schema;
  const resolved = resolveSchema(schema, defs);
  const target: Obj = typeof resolved === "object" ? resolved : {};
  // A list of allowed values or a constant is the spec's own word on emptiness: kept as is.
  const listed = [own.enum, target.enum].find(Array.isArray);
  if (listed || "const" in own || "const" in target) {
    const allowsEmpty = listed?.includes("") || own.const === "" || (!("const" in own) && target.const === "");
    return segment && allowsEmpty ? { ...own, minLength: 1 } : schema;
  }
  const named = types(own) ?? types(target);
  if (named?.includes("array") && named.length === 1) {
    if (!arrays || own.minItems !== undefined || target.minItems !== undefined) return schema;
    return { ...own, minItems: 1 };
  }
  // An empty object serialises to nothing in every style (RFC 6570: an empty map is undefined),
  // like an empty array: the same rule, with minProperties.
  if (named?.includes("object") && named.length === 1) {
    const requires = [own.required, target.required].some((list) => Array.isArray(list) && list.length > 0);
    if (!arrays || requires || own.minProperties !== undefined || target.minProperties !== undefined) return schema;
    return { ...own, minProperties: 1 };
  }
  if (named !== undefined && !named.includes("string")) return schema;
  if (own.minLength !== undefined || target.minLength !== undefined)
    return segment && (own.minLength ?? target.minLength) === 0 ? { ...own, minLength: 1 } : schema;
  const pattern = own.pattern ?? target.pattern;
  if (typeof pattern === "string" && !matchesEmpty(pattern)) return schema;
  return { ...own, minLength: 1 };
}

/** Whether a schema is the null type alone (`{type: "null"}`, `const: null`, `enum: [null]`). */
function onlyNull(schema: JsonSchema): boolean {
  if (typeof schema !== "object") return false;
  if (schema.type === "null") return true;
  if ("const" in schema) return schema.const === null;
  return Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((value) => value === null);
}

/**
 * A required parameter's schema without `null`. A query, header, cookie or path value cannot carry
 * null (RFC 6570 reads it as undefined: the parameter is left out), so a required parameter is never
 * null on the wire, whatever its schema allows (`type: [array, "null"]`, `nullable: true`, a `oneOf`
 * or `anyOf` branch of null): the input schema refuses it up front instead of sending `name=` or
 * nothing. Removes `"null"` from a type list and from an `enum`, drops null branches (one branch
 * left becomes the schema), and beside a `$ref` to a nullable type list adds the list without null
 * (JSON Schema 2020-12 applies both).
 */
export function withoutNull(schema: JsonSchema, defs: Map<string, SchemaIR>): JsonSchema {
  if (typeof schema !== "object") return schema;
  let own: Obj = { ...schema };
  if (Array.isArray(own.type) && own.type.includes("null")) {
    const left = (own.type as unknown[]).filter((t) => t !== "null");
    own.type = left.length === 1 ? left[0] : left;
  }
  if (Array.isArray(own.enum) && own.enum.includes(null)) own.enum = own.enum.filter((value) => value !== null);
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = own[key];
    if (!Array.isArray(branches) || !branches.some(onlyNull)) continue;
    const left = (branches as JsonSchema[]).filter((branch) => !onlyNull(branch));
    if (left.length === 0) continue;
    delete own[key];
    // One branch left: it is the schema (a $ref keeps its target; the parameter's own keywords stay beside it).
    if (left.length === 1 && typeof left[0] === "object") own = { ...left[0], ...own };
    else own[key] = left;
  }
  const target = own.$ref === undefined ? undefined : resolveSchema(own as JsonSchema, defs);
  if (
    own.type === undefined &&
    typeof target === "object" &&
    Array.isArray(target.type) &&
    target.type.includes("null")
  ) {
    const left = (target.type as unknown[]).filter((t) => t !== "null");
    if (left.length > 0) own.type = left.length === 1 ? left[0] : left;
  }
  return own as JsonSchema;
}

/** Whether a `pattern` accepts `""` (an invalid pattern counts as accepting it). */
function matchesEmpty(pattern: string): boolean {
  try {
    return new RegExp(pattern, "u").test("");
  } catch {
    return true;
  }
}

/**
 * For a required field of a form body: `minProperties`/`minItems` 1 on an object or array (an
 * empty one is sent as nothing, so the required field would be missing); other types as they are
 * (`""` is sent as `name=`, which is present).
 */
export function withoutEmptyContainer(schema: JsonSchema, defs: Map<string, SchemaIR>): JsonSchema {
  const own: Obj = typeof schema === "object" ? schema : {};
  const resolved = resolveSchema(schema, defs);
  const named = types(own) ?? types(typeof resolved === "object" ? resolved : {});
  if (!named || named.length !== 1 || (named[0] !== "object" && named[0] !== "array")) return schema;
  return withoutEmpty(schema, defs);
}
