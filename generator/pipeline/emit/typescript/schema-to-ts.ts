import type { JsonSchema } from "../../../shared/contract.js";
import { isIdentifier } from "../../plan/names.js";

type Obj = Record<string, unknown>;

/** Writes a property key as TypeScript: bare when it is an identifier, else a JSON string literal. */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : JSON.stringify(name);
}

/** Makes text safe inside a JSDoc block. */
export function docText(text: string): string {
  return text.replace(/\*\//g, "*\\/").trim();
}

/** Longest brief doc comment (a property's, a named type's), in characters. */
const MAX_BRIEF_CHARS = 200;

/** The first paragraph of `text`, at most MAX_BRIEF_CHARS, JSDoc-safe; undefined when empty. */
export function brief(text: string): string | undefined {
  const paragraph = docText(text)
    .split(/\r?\n\s*\r?\n/)[0]!
    .replace(/\s+/g, " ")
    .trim();
  if (paragraph === "") return undefined;
  return paragraph.length <= MAX_BRIEF_CHARS ? paragraph : `${paragraph.slice(0, MAX_BRIEF_CHARS - 1).trimEnd()}…`;
}

/**
 * Turns a JSON Schema into a TypeScript type expression. `$ref: "#/$defs/X"` becomes the type name
 * that `refName` gives for X. The result only ever contains JSON-escaped literals and known names.
 */
export function schemaToType(schema: JsonSchema | undefined, refName: (def: string) => string, depth = 0): string {
  if (schema === undefined || schema === true) return "unknown";
  if (schema === false) return "never";
  if (depth > 24) return "unknown";
  const s = schema as Obj;
  const next = (sub: unknown) => schemaToType(sub as JsonSchema, refName, depth + 1);
  const parts: string[] = [];
  if (typeof s.$ref === "string") {
    parts.push(s.$ref.startsWith("#/$defs/") ? refName(s.$ref.slice(8)) : "unknown");
  }
  if (s.const !== undefined) return literal(s.const);
  if (Array.isArray(s.enum)) return union(s.enum.map(literal));
  if (Array.isArray(s.allOf) && s.allOf.length > 0) parts.push(s.allOf.map((m) => wrap(next(m))).join(" & "));
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = s[key];
    if (Array.isArray(members) && members.length > 0) parts.push(wrap(union(members.map(next))));
  }
  let types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? (s.type as string[]) : [];
  // `type: object` beside a composition or $ref only restates it; an extra Record<> would be noise.
  const bareObject = s.properties === undefined && s.additionalProperties === undefined;
  if (parts.length > 0 && bareObject && types.length === 1 && types[0] === "object") types = [];
  if (types.length > 0) parts.push(wrap(union(types.map((t) => typeFor(t, s, next)))));
  else if (parts.length === 0) {
    if (s.properties || s.additionalProperties !== undefined) parts.push(typeFor("object", s, next));
    else if (s.items || s.prefixItems) parts.push(typeFor("array", s, next));
    // `required` alone (a branch of an object's `anyOf`, such as an output schema's fallback) names an object's keys.
    else if (Array.isArray(s.required) && s.required.length > 0)
      parts.push(objectType({ ...s, properties: Object.fromEntries(s.required.map((name) => [name, {}])) }, next));
  }
  if (parts.length === 0) return "unknown";
  return parts.length === 1 ? parts[0]! : parts.join(" & ");
}

function typeFor(type: string, s: Obj, next: (sub: unknown) => string): string {
  switch (type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      if (Array.isArray(s.prefixItems)) return `[${s.prefixItems.map((i) => `${next(i)}?`).join(", ")}]`;
      return `Array<${s.items === undefined ? "unknown" : next(s.items)}>`;
    case "object":
      return objectType(s, next);
    default:
      return "unknown";
  }
}

function objectType(s: Obj, next: (sub: unknown) => string): string {
  const properties = (s.properties && typeof s.properties === "object" ? s.properties : {}) as Obj;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  // A required name the schema does not declare still must be there, with any value.
  const undeclared = [...required].filter((name) => typeof name === "string" && !Object.hasOwn(properties, name));
  const names = [...Object.keys(properties), ...undeclared];
  const extra = s.additionalProperties;
  const record =
    extra === false
      ? "Record<string, never>"
      : `Record<string, ${extra === undefined || extra === true ? "unknown" : next(extra)}>`;
  if (names.length === 0) return record;
  const members = names.map(
    (name) =>
      `${propertyKey(name)}${required.has(name) ? "" : "?"}: ${Object.hasOwn(properties, name) ? next(properties[name]) : "unknown"};`,
  );
  // Without declared properties the object stays a record that must also have the required names.
  const declared = Object.keys(properties).length > 0;
  return declared || extra === false ? `{ ${members.join(" ")} }` : `{ ${members.join(" ")} } & ${record}`;
}

function literal(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return JSON.stringify(value);
  return "unknown";
}

function union(members: string[]): string {
  const unique = [...new Set(members)];
  if (unique.includes("unknown")) return "unknown";
  return unique.length === 0 ? "never" : unique.join(" | ");
}

function wrap(type: string): string {
  // Redundant parentheses are removed again by prettier.
  return /[|&]/.test(type) ? `(${type})` : type;
}
