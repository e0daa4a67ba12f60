/**
 * Sample values for the generated contract tests (`test/cases.json`): arguments a tool's input
 * schema accepts and upstream answers its output schema accepts. Values come from the schema's own
 * examples when they are valid, else from json-schema-faker (seeded, so the files are byte-identical
 * across runs), which honours `pattern`, `format`, `multipleOf`, `minItems`, `uniqueItems`, `const`,
 * `oneOf`… Every candidate is checked with ajv configured like the generated server's validator
 * (2020-12, formats on), so a sample is only used when the server itself would accept it.
 */
import { createGeneratorSync } from "json-schema-faker";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "../../runtime/src/types.js";

type Schema = Record<string, unknown>;

/** Seeds tried in order; the first valid sample wins (fixed, so the output never changes between runs). */
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

const FORMAT_SAMPLES: Record<string, string> = {
  "date-time": "2024-01-01T00:00:00Z",
  date: "2024-01-01",
  time: "00:00:00Z",
  email: "user@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  hostname: "example.com",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  byte: "AA==",
};

/** Formats ajv-formats checks that json-schema-faker does not generate. */
const EXTRA_FORMATS: Record<string, () => string> = {
  byte: () => "ZXhhbXBsZQ==",
  url: () => "https://example.com/",
  "uri-template": () => "https://example.com/{id}",
  regex: () => "^[a-z]+$",
  password: () => "secret",
  binary: () => "example",
  int32: () => "1",
  int64: () => "1",
  float: () => "1.5",
  double: () => "1.5",
};

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

let ajvInstance: Ajv2020 | undefined;
/** Same options as the runtime's validator (runtime/src/validation.ts). */
function ajv(): Ajv2020 {
  if (ajvInstance) return ajvInstance;
  ajvInstance = new Ajv2020({ allErrors: false, strict: false, validateSchema: false, logger: false });
  addFormats(ajvInstance);
  return ajvInstance;
}

const validators = new WeakMap<object, ValidateFunction | null>();

/** A validator for `schema` with `root`'s `$defs` in scope; null when ajv cannot compile it. */
function validatorFor(schema: JsonSchema, root: Schema): ValidateFunction | null {
  if (typeof schema !== "object" || schema === null) return null;
  const cached = validators.get(schema);
  if (cached !== undefined) return cached;
  let compiled: ValidateFunction | null;
  try {
    compiled = ajv().compile(withDefs(schema as Schema, root));
  } catch {
    compiled = null;
  }
  validators.set(schema, compiled);
  return compiled;
}

/** The schema with the root's `$defs` attached, so local `$ref`s resolve when it is used alone. */
function withDefs(schema: Schema, root: Schema): Schema {
  if (schema === root || schema.$defs !== undefined || root.$defs === undefined) return schema;
  return { ...schema, $defs: root.$defs };
}

/** Whether `schema` accepts `value` (true when the schema cannot be compiled: nothing to check). */
export function accepts(schema: JsonSchema | undefined, value: unknown, root: Schema = (schema as Schema) ?? {}): boolean {
  if (schema === undefined || schema === true) return true;
  if (schema === false) return false;
  const validate = validatorFor(schema, root);
  return validate ? validate(value) === true : true;
}

/** The schema's own example values, in the order a reader would take them. */
function ownExamples(s: Schema): unknown[] {
  const values: unknown[] = [];
  if (s.example !== undefined) values.push(s.example);
  if (Array.isArray(s.examples)) values.push(...s.examples);
  if (s.default !== undefined) values.push(s.default);
  if (s.const !== undefined) values.push(s.const);
  if (Array.isArray(s.enum)) values.push(...s.enum);
  return values;
}

/**
 * json-schema-faker's value for one seed, or undefined when it gives up on the schema. With
 * `useExamples`, nested examples and defaults are taken as they are (they read well in the test
 * file); without, every value is generated (for specs whose examples break their own schema).
 */
function faked(schema: Schema, seed: number, useExamples: boolean): unknown {
  try {
    return createGeneratorSync({
      seed,
      optionalsProbability: 0,
      useExamplesValue: useExamples,
      useDefaultValue: useExamples,
      maxDepth: 6,
      refDepthMax: 2,
      maxDefaultItems: 1,
      failOnInvalidTypes: false,
      formats: EXTRA_FORMATS,
    }).generate(schema as never);
  } catch {
    return undefined;
  }
}

/**
 * A value that satisfies a schema, for generated tests: the schema's own example, default, const
 * or enum value when the schema accepts it, else a plain value of the right type when the schema
 * accepts it, else json-schema-faker's (seeded; the first of a few
 * seeds that the schema accepts, the later ones ignoring the spec's examples), else a small value of the right type. `root` holds the `$defs`
 * that `$ref`s point to.
 */
export function sampleValue(schema: JsonSchema | undefined, root: Schema = (schema as Schema) ?? {}): unknown {
  if (schema === undefined || schema === true || schema === false) return null;
  const s = resolve(schema as Schema, root);
  for (const value of ownExamples(s)) if (accepts(schema, value, root)) return value;
  // A plain value ("example", 1, required properties only) reads best in the test file: used when valid.
  const simple = simpleValue(schema, root);
  if (accepts(schema, simple, root)) return simple;
  const full = withDefs(schema as Schema, root);
  for (const [index, seed] of SEEDS.entries()) {
    const value = faked(full, seed, index < SEEDS.length / 2);
    if (value !== undefined && accepts(schema, value, root)) return value;
  }
  return simple;
}

/** Resolves a local `#/$defs/Name` against the root schema; other refs resolve to nothing. */
function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = match ? (root[match[1]!] as Record<string, Schema> | undefined) : undefined;
  return (match && defs?.[decodeURIComponent(match[2]!).replace(/~1/g, "/").replace(/~0/g, "~")]) || {};
}

/**
 * A plain value of the right type (format-aware strings, minimums respected, only
 * required properties). Depth is bounded, so recursive schemas end.
 */
function simpleValue(schema: JsonSchema | undefined, root: Schema, depth = 0): unknown {
  if (schema === undefined || schema === true || schema === false) return null;
  const s = resolve(schema as Schema, root);
  const own = ownExamples(s);
  if (own.length > 0) return own[0];
  for (const key of ["oneOf", "anyOf"]) {
    const options = s[key] as JsonSchema[] | undefined;
    if (Array.isArray(options) && options.length > 0) return simpleValue(options.find((o) => (o as Schema).type !== "null") ?? options[0], root, depth + 1);
  }
  if (Array.isArray(s.allOf)) {
    const merged: Record<string, unknown> = {};
    for (const part of s.allOf as JsonSchema[]) Object.assign(merged, simpleValue(part, root, depth + 1) as object);
    return merged;
  }
  const types = Array.isArray(s.type) ? (s.type as string[]).filter((t) => t !== "null") : [s.type as string | undefined];
  const type = types[0] ?? (s.properties ? "object" : s.items ? "array" : undefined);
  switch (type) {
    case "string": {
      const text = FORMAT_SAMPLES[s.format as string] ?? "example";
      const min = typeof s.minLength === "number" ? s.minLength : 0;
      return text.length >= min ? text : text.padEnd(min, "x");
    }
    case "integer":
    case "number": {
      const min = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1 : 1;
      const max = typeof s.maximum === "number" ? s.maximum : undefined;
      return max !== undefined && min > max ? max : Math.ceil(min);
    }
    case "boolean":
      return true;
    case "array": {
      if (depth > 4) return [];
      const count = typeof s.minItems === "number" && s.minItems > 0 ? s.minItems : 1;
      return Array.from({ length: Math.min(count, 3) }, () => simpleValue(s.items as JsonSchema, root, depth + 1));
    }
    case "object": {
      const result: Record<string, unknown> = {};
      if (depth > 4) return result;
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      for (const name of (s.required as string[] | undefined) ?? []) result[name] = simpleValue(properties[name] ?? {}, root, depth + 1);
      return result;
    }
    case "null":
      return null;
    default:
      return "example";
  }
}

/** An argument value that a schema refuses, for the invalid-argument case; undefined when none is obvious. */
export function invalidValue(schema: JsonSchema | undefined, root: Schema): unknown {
  if (!schema || schema === true) return undefined;
  const s = resolve(schema as Schema, root);
  const type = Array.isArray(s.type) ? undefined : (s.type as string | undefined);
  const candidates: unknown[] = [];
  if (Array.isArray(s.enum)) candidates.push("__not_one_of_the_allowed_values__");
  if (type === "string") candidates.push(12345);
  if (type === "integer" || type === "number" || type === "boolean") candidates.push("not-a-" + type);
  if (type === "array" || type === "object") candidates.push("not-an-" + type);
  return candidates.find((value) => !accepts(schema, value, root));
}
