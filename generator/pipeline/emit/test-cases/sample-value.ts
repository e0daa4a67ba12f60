/**
 * Sample values for the generated contract tests (`test/cases.json`): arguments a tool's input
 * schema accepts and upstream answers its output schema accepts. Values come from the schema's own
 * examples when they are valid, else from json-schema-faker (seeded, so the files are byte-identical
 * across runs), which honours `pattern`, `format`, `multipleOf`, `minItems`, `uniqueItems`, `const`,
 * `oneOf`… Every candidate is checked with ajv configured like the generated server's validator
 * (2020-12, formats on, own properties only; schema-check.ts), so a sample is only used when the
 * server itself would accept it.
 */
import { createGeneratorSync } from "json-schema-faker";
import { getOwn, isRecord, type JsonSchema, setOwn } from "../../../shared/contract.js";
import { SchemaChecker } from "./schema-check.js";

type Schema = Record<string, unknown>;

/** Seeds tried in order; the first valid sample wins (fixed, so the output never changes between runs). */
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

/**
 * Largest string length, array length or property count a sample gets. json-schema-faker picks a
 * length between the schema's minimum and maximum before it applies its own caps, so an AWS-style
 * `maxLength: 2147483647` would build a 2 GB string: bounds above this are lowered before faking
 * (a tighter bound keeps every value valid).
 */
const MAX_SIZE = 64;
/** Largest minimum kept as it is (a larger one is lowered to this, see `boundedSizes`). */
const MAX_MINIMUM = 4096;
const SIZE_BOUNDS: [min: string, max: string][] = [
  ["minLength", "maxLength"],
  ["minItems", "maxItems"],
  ["minProperties", "maxProperties"],
];

/** Keywords whose object values are data, not schemas (left as they are). */
const VALUE_KEYS = new Set(["enum", "const", "default", "example", "examples"]);

/** Faking attempts per project: a spec whose samples keep failing costs bounded time (plain values are kept then). */
const FAKE_BUDGET = 4000;

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

/** Keywords that a plain value may break: a node that has one is checked, and faked when it fails. */
const CONSTRAINTS = [
  "pattern",
  "format",
  "multipleOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "contains",
  "minProperties",
  "maxProperties",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "not",
  "if",
  "oneOf",
  "anyOf",
  "allOf",
  "const",
  "enum",
];

/**
 * Samples values and checks them. One per generated project: its checker keeps every compiled
 * schema, so the instance is dropped with the project's test cases.
 */
export class Sampler {
  private readonly checker = new SchemaChecker();
  private readonly bounded = new WeakMap<object, unknown>();
  private fakesLeft = FAKE_BUDGET;

  /** Whether `schema` accepts `value` (true when ajv cannot compile the schema: nothing to check); see schema-check.ts. */
  accepts(schema: JsonSchema | undefined, value: unknown, root: Schema = (schema as Schema) ?? {}): boolean {
    return this.checker.accepts(schema, value, root);
  }

  /**
   * A value that satisfies a schema, for generated tests: the schema's own example, default, const
   * or enum value when the schema accepts it, else a plain value built node by node (each node's
   * own valid example, else "example", 1, true, required properties only; a node with constraints
   * that its plain value breaks is filled by json-schema-faker), else json-schema-faker's value for
   * the whole schema (seeded; the first of a few seeds that the schema accepts).
   */
  sample(schema: JsonSchema | undefined, root: Schema = (schema as Schema) ?? {}): unknown {
    if (schema === undefined || schema === true || schema === false) return null;
    // Fast path (most schemas): the plain value taken unchecked, then checked once as a whole.
    const quick = this.plain(schema, root, 0, false);
    if (this.accepts(schema, quick, root)) return quick;
    const value = this.plain(schema, root, 0, true);
    if (this.accepts(schema, value, root)) return value;
    return this.faked(schema as Schema, root) ?? value;
  }

  /** An argument value that a schema refuses, for the refused-argument case; undefined when none is obvious. */
  invalid(schema: JsonSchema | undefined, root: Schema): unknown {
    if (!schema || schema === true) return undefined;
    const s = resolve(schema as Schema, root);
    const type = Array.isArray(s.type) ? undefined : (s.type as string | undefined);
    const candidates: unknown[] = [];
    if (Array.isArray(s.enum)) candidates.push("__not_one_of_the_allowed_values__");
    if (type === "string") candidates.push(12345);
    if (type === "integer" || type === "number" || type === "boolean") candidates.push("not-a-" + type);
    if (type === "array" || type === "object") candidates.push("not-an-" + type);
    return candidates.find((value) => !this.accepts(schema, value, root));
  }

  /**
   * json-schema-faker's first valid value over a few seeds, or undefined. The first half of the
   * seeds take nested examples and defaults as they are (they read well in the test file); the
   * rest generate every value (for specs whose examples break their own schema).
   */
  private faked(schema: Schema, root: Schema): unknown {
    const full = this.boundedSizes(withDefs(schema, root)) as Schema;
    for (const [index, seed] of SEEDS.entries()) {
      if (this.fakesLeft <= 0) return undefined;
      this.fakesLeft -= 1;
      let value: unknown;
      try {
        const useExamples = index < SEEDS.length / 2;
        value = createGeneratorSync({
          seed,
          optionalsProbability: 0,
          useExamplesValue: useExamples,
          useDefaultValue: useExamples,
          maxDepth: 6,
          refDepthMax: 2,
          maxDefaultItems: 1,
          failOnInvalidTypes: false,
          formats: EXTRA_FORMATS,
        }).generate(full as never);
      } catch {
        continue;
      }
      value = declaredOnly(value, schema, root, 0);
      if (value !== undefined && this.accepts(schema, value, root)) return value;
    }
    return undefined;
  }

  /**
   * The schema with its size bounds made small (see MAX_SIZE), sharing every node that needs no
   * change. A maximum above MAX_SIZE comes down to MAX_SIZE (or the minimum, when that is larger);
   * a minimum above MAX_MINIMUM comes down to it, which makes the schema's samples invalid, so they
   * are dropped by the check that follows, at a bounded cost.
   */
  private boundedSizes(schema: unknown): unknown {
    if (typeof schema !== "object" || schema === null) return schema;
    const cached = this.bounded.get(schema);
    if (cached !== undefined) return cached;
    this.bounded.set(schema, schema); // guards against cycles (never in parsed JSON, but cheap)
    let result: unknown = schema;
    if (Array.isArray(schema)) {
      const items = schema.map((item) => this.boundedSizes(item));
      if (items.some((item, i) => item !== schema[i])) result = items;
    } else {
      const copy: Schema = { ...(schema as Schema) };
      let changed = false;
      for (const [min, max] of SIZE_BOUNDS) {
        if (typeof copy[min] === "number" && (copy[min] as number) > MAX_MINIMUM) {
          copy[min] = MAX_MINIMUM;
          changed = true;
        }
        const floor = typeof copy[min] === "number" ? (copy[min] as number) : 0;
        if (typeof copy[max] === "number" && (copy[max] as number) > Math.max(MAX_SIZE, floor)) {
          copy[max] = Math.max(MAX_SIZE, floor);
          changed = true;
        }
      }
      for (const [key, value] of Object.entries(copy)) {
        if (typeof value !== "object" || value === null || VALUE_KEYS.has(key)) continue;
        const bounded = this.boundedSizes(value);
        if (bounded !== value) {
          setOwn(copy, key, bounded);
          changed = true;
        }
      }
      if (changed) result = copy;
    }
    this.bounded.set(schema, result);
    return result;
  }

  /**
   * The plain value of one node (see `sample`). `checked`: each node's examples and value are
   * checked against the node (else the first example is taken as is). Depth is bounded, so
   * recursive schemas end.
   */
  private plain(schema: JsonSchema | undefined, root: Schema, depth: number, checked: boolean): unknown {
    if (schema === undefined || schema === true || schema === false) return null;
    const s = resolve(schema as Schema, root);
    const own = ownExamples(s);
    if (!checked && own.length > 0) return declaredOnly(own[0], s, root, 0);
    for (const example of own) {
      const value = declaredOnly(example, s, root, 0);
      if (this.accepts(s, value, root)) return value;
    }
    const value = this.plainByType(s, root, depth, checked);
    if (!checked || depth > 6 || !CONSTRAINTS.some((key) => s[key] !== undefined) || this.accepts(s, value, root))
      return value;
    return this.faked(s, root) ?? value;
  }

  private plainByType(s: Schema, root: Schema, depth: number, checked: boolean): unknown {
    for (const key of ["oneOf", "anyOf"]) {
      const options = s[key] as JsonSchema[] | undefined;
      if (!Array.isArray(options) || options.length === 0) continue;
      const ordered = [
        ...options.filter((o) => (o as Schema).type !== "null"),
        ...options.filter((o) => (o as Schema).type === "null"),
      ];
      if (!checked) return this.plain(ordered[0], root, depth + 1, false);
      const values = ordered.map((option) => this.plain(option, root, depth + 1, true));
      return values.find((value) => this.accepts(s, value, root)) ?? values[0];
    }
    if (Array.isArray(s.allOf)) {
      const merged: Record<string, unknown> = {};
      for (const part of s.allOf as JsonSchema[]) {
        // A part that only annotates (`{ description }`, `{}`) says nothing about the value's shape:
        // its plain value ("example") must not replace the typed parts' value.
        if (typeof part === "object" && part !== null && !describesValue(resolve(part as Schema, root))) continue;
        const value = this.plain(part, root, depth + 1, checked);
        if (isRecord(value)) Object.assign(merged, value);
        else if (value !== null) return value;
      }
      // Siblings of allOf (properties, required) add to the merged object; a required name may be
      // declared by a part only (codat.io's Account: `required` beside an allOf of properties).
      if (s.properties || s.required) {
        const properties = { ...objectShape(s, root, 0).declared, ...((s.properties as object | undefined) ?? {}) };
        Object.assign(
          merged,
          this.plainByType({ ...s, allOf: undefined, type: "object", properties }, root, depth, checked),
        );
      }
      return merged;
    }
    const types = Array.isArray(s.type)
      ? (s.type as string[]).filter((t) => t !== "null")
      : [s.type as string | undefined];
    const type = types[0] ?? (s.properties || s.required ? "object" : s.items ? "array" : undefined);
    switch (type) {
      case "string": {
        const text = FORMAT_SAMPLES[s.format as string] ?? "example";
        const min = typeof s.minLength === "number" ? s.minLength : 0;
        return text.length >= min ? text : text.padEnd(Math.min(min, MAX_MINIMUM), "x");
      }
      case "integer":
      case "number": {
        const min =
          typeof s.minimum === "number"
            ? s.minimum
            : typeof s.exclusiveMinimum === "number"
              ? s.exclusiveMinimum + 1
              : 1;
        const max = typeof s.maximum === "number" ? s.maximum : undefined;
        const step = typeof s.multipleOf === "number" && s.multipleOf > 0 ? s.multipleOf : undefined;
        const value = max !== undefined && min > max ? max : Math.ceil(min);
        return step ? Math.ceil(value / step) * step : value;
      }
      case "boolean":
        return true;
      case "array": {
        if (depth > 4) return [];
        const count = typeof s.minItems === "number" && s.minItems > 0 ? s.minItems : 1;
        return Array.from({ length: Math.min(count, 3) }, () =>
          this.plain(s.items as JsonSchema, root, depth + 1, checked),
        );
      }
      case "object": {
        const result: Record<string, unknown> = {};
        if (depth > 4) return result;
        const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
        for (const name of (s.required as string[] | undefined) ?? [])
          setOwn(result, name, this.plain((getOwn(properties, name) as JsonSchema) ?? {}, root, depth + 1, checked));
        // minProperties beyond the required ones (an object parameter that must not be empty):
        // the declared properties first, in order, rather than invented ones.
        const least = typeof s.minProperties === "number" ? s.minProperties : 0;
        for (const name of Object.keys(properties)) {
          if (Object.keys(result).length >= least) break;
          if (!Object.hasOwn(result, name))
            setOwn(result, name, this.plain(getOwn(properties, name) as JsonSchema, root, depth + 1, checked));
        }
        return result;
      }
      case "null":
        return null;
      default:
        return "example";
    }
  }
}

/** The schema with the root's `$defs` attached, so local `$ref`s resolve when it is used alone. */
function withDefs(schema: Schema, root: Schema): Schema {
  if (schema === root || schema.$defs !== undefined || root.$defs === undefined) return schema;
  return { ...schema, $defs: root.$defs };
}

/** Keywords that say something about a value's type or shape (a node with none only annotates). */
const SHAPE_KEYS = [
  "type",
  "properties",
  "required",
  "items",
  "prefixItems",
  "enum",
  "const",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "format",
  "pattern",
  "additionalProperties",
  "patternProperties",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "example",
  "examples",
  "default",
];

/** Whether a (resolved) node constrains or shows the value, as opposed to only describing it. */
function describesValue(s: Schema): boolean {
  return SHAPE_KEYS.some((key) => s[key] !== undefined);
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
 * The value with the undeclared keys of its objects dropped, at any depth the schema describes.
 * The project's types (schema-to-ts.ts) declare an object schema with properties as exactly those
 * properties, so an example with more keys (valid JSON Schema unless `additionalProperties: false`;
 * api.video's player example has 12 undeclared ones) would not type-check as the tool's `…Input` in
 * the user's code or in the cases' type test. Where the type stays open (a record part, a union),
 * undeclared keys are kept; declared ones are reduced by their own schemas. The caller checks the
 * result against the schema, so a dropped key that was required only makes it try another value.
 */
function declaredOnly(value: unknown, schema: JsonSchema | undefined, root: Schema, depth: number): unknown {
  if (depth > 8 || typeof schema !== "object" || schema === null) return value;
  const s = resolve(schema as Schema, root);
  if (Array.isArray(value))
    return typeof s.items === "object" && s.items !== null
      ? value.map((item) => declaredOnly(item, s.items as JsonSchema, root, depth + 1))
      : value;
  if (!isRecord(value)) return value;
  const shape = objectShape(s, root, 0);
  if (Object.keys(shape.declared).length === 0) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (Object.hasOwn(shape.declared, key))
      setOwn(result, key, declaredOnly(item, getOwn(shape.declared, key) as JsonSchema, root, depth + 1));
    else if (shape.open) setOwn(result, key, item);
  }
  return result;
}

/**
 * The properties an object schema declares (its required names included), with those of its `allOf` parts at any depth, and
 * whether its type also takes other keys: a part with no properties (a record), a union, or
 * `additionalProperties` on a schema without properties (see schema-to-ts.ts).
 */
function objectShape(s: Schema, root: Schema, depth: number): { declared: Record<string, unknown>; open: boolean } {
  const declared: Record<string, unknown> = {};
  const hasProperties = isRecord(s.properties) && Object.keys(s.properties).length > 0;
  if (hasProperties)
    for (const [key, property] of Object.entries(s.properties as object)) setOwn(declared, key, property);
  let open = s.oneOf !== undefined || s.anyOf !== undefined || depth > 8;
  const parts = Array.isArray(s.allOf) ? (s.allOf as JsonSchema[]) : [];
  // A schema that is only its allOf parts (and annotations) is as open as they are.
  if (!hasProperties && parts.length === 0 && describesValue(s)) open = true;
  for (const part of parts) {
    if (depth > 8 || typeof part !== "object" || part === null) continue;
    const node = resolve(part as Schema, root);
    if (!describesValue(node)) continue; // annotations only
    const inner = objectShape(node, root, depth + 1);
    open ||= inner.open;
    for (const [key, property] of Object.entries(inner.declared))
      if (!Object.hasOwn(declared, key)) setOwn(declared, key, property);
  }
  // A required name that no part declares is a member of the type too (unknown, schema-to-ts.ts).
  if (Array.isArray(s.required))
    for (const key of s.required)
      if (typeof key === "string" && !Object.hasOwn(declared, key)) setOwn(declared, key, {});
  return { declared, open };
}

/** Resolves a local `#/$defs/Name` against the root schema; other refs resolve to nothing. */
function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = match ? (root[match[1]!] as Record<string, Schema> | undefined) : undefined;
  return (match && defs?.[decodeURIComponent(match[2]!).replace(/~1/g, "/").replace(/~0/g, "~")]) || {};
}

const shared = new Sampler();

/** `Sampler.sample` on a shared sampler (for tests and one-off use). */
export function sampleValue(schema: JsonSchema | undefined, root: Schema = (schema as Schema) ?? {}): unknown {
  return shared.sample(schema, root);
}

/** `Sampler.accepts` on a shared sampler. */
export function accepts(
  schema: JsonSchema | undefined,
  value: unknown,
  root: Schema = (schema as Schema) ?? {},
): boolean {
  return shared.accepts(schema, value, root);
}

/** `Sampler.invalid` on a shared sampler. */
export function invalidValue(schema: JsonSchema | undefined, root: Schema): unknown {
  return shared.invalid(schema, root);
}
