import type { JsonSchema } from "../../runtime/src/types.js";
import { getOwn, setOwn } from "../../runtime/src/own.js";

type Schema = Record<string, unknown>;

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

/** Resolves a local `#/$defs/Name` against the root schema; other refs resolve to nothing. */
function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = match ? (root[match[1]!] as Record<string, Schema> | undefined) : undefined;
  return (match && defs?.[decodeURIComponent(match[2]!).replace(/~1/g, "/").replace(/~0/g, "~")]) || {};
}

/**
 * A value that satisfies a schema, for generated tests: the schema's own `example`, `examples[0]`,
 * `default`, `const` or first `enum` value when it has one, else a small value of the right type
 * (format-aware strings, minimums respected, only required properties). Depth is bounded, so
 * recursive schemas end.
 */
export function sampleValue(schema: JsonSchema | undefined, root: Schema = (schema as Schema) ?? {}, depth = 0): unknown {
  if (schema === undefined || schema === true || schema === false) return null;
  const s = resolve(schema as Schema, root);
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ["oneOf", "anyOf"]) {
    const options = s[key] as JsonSchema[] | undefined;
    if (Array.isArray(options) && options.length > 0) return sampleValue(options.find((o) => (o as Schema).type !== "null") ?? options[0], root, depth + 1);
  }
  if (Array.isArray(s.allOf)) {
    const merged: Record<string, unknown> = {};
    for (const part of s.allOf as JsonSchema[]) Object.assign(merged, sampleValue(part, root, depth + 1) as object);
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
      const value = max !== undefined && min > max ? max : Math.ceil(min);
      return value;
    }
    case "boolean":
      return true;
    case "array": {
      if (depth > 4) return [];
      const count = typeof s.minItems === "number" && s.minItems > 0 ? s.minItems : 1;
      return Array.from({ length: Math.min(count, 3) }, () => sampleValue(s.items as JsonSchema, root, depth + 1));
    }
    case "object": {
      const result: Record<string, unknown> = {};
      if (depth > 4) return result;
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      for (const name of (s.required as string[] | undefined) ?? []) setOwn(result, name, sampleValue((getOwn(properties, name) as JsonSchema | undefined) ?? {}, root, depth + 1));
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
  if (Array.isArray(s.enum)) return "__not_one_of_the_allowed_values__";
  if (type === "string") return 12345;
  if (type === "integer" || type === "number" || type === "boolean") return "not-a-" + type;
  if (type === "array" || type === "object") return "not-an-" + type;
  return undefined;
}
