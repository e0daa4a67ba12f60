import type { JsonSchema } from "../../runtime/src/types.js";
import type { SchemaIR } from "../ir/types.js";
import { forEachSchema, mapSchema } from "../schema-walk.js";

type Obj = Record<string, unknown>;

/** Which side of the API a schema describes: `input` drops `readOnly` properties, `output` drops `writeOnly`. */
export type Direction = "input" | "output";

const DEF_PREFIX = "#/$defs/";

/** Name of the `$defs` entry a `$ref` points to, if it is one of ours. */
export function defName(schema: JsonSchema): string | undefined {
  if (typeof schema !== "object" || typeof schema.$ref !== "string" || !schema.$ref.startsWith(DEF_PREFIX)) return undefined;
  return schema.$ref.slice(DEF_PREFIX.length);
}

/** Follows `$ref`s to the schema they name (bounded, so a ref cycle ends). */
export function resolveSchema(schema: JsonSchema, defs: Map<string, SchemaIR>): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 32; hops++) {
    const name = defName(current);
    const next = name === undefined ? undefined : defs.get(name);
    if (!next) return current;
    current = next.schema;
  }
  return current;
}

/**
 * Per-run caches keyed by the spec's `$defs` map. Big APIs (MS Graph: 22,000 operations over a few
 * thousand deeply linked schemas) reach the same named schemas from thousands of tools; walking and
 * copying each one once instead of once per tool takes planning from minutes to seconds.
 */
interface DefCaches {
  /** Names each def refers to directly, in walk order. */
  refs: Map<string, string[]>;
  /** Each def adjusted to a direction (shared, never mutated). */
  directed: Map<string, JsonSchema>;
}
const caches = new WeakMap<Map<string, SchemaIR>, DefCaches>();

function cachesFor(defs: Map<string, SchemaIR>): DefCaches {
  let entry = caches.get(defs);
  if (!entry) caches.set(defs, (entry = { refs: new Map(), directed: new Map() }));
  return entry;
}

/** Names of the `$defs` a schema refers to directly (not through other defs), in walk order. */
function directRefs(schema: JsonSchema): string[] {
  const names: string[] = [];
  forEachSchema(schema, (node) => {
    const ref = node.$ref;
    if (typeof ref === "string" && ref.startsWith(DEF_PREFIX)) {
      const name = ref.slice(DEF_PREFIX.length);
      if (!names.includes(name)) names.push(name);
    }
  });
  return names;
}

/** Every `$defs` name reachable from `roots`, in first-reached order. */
export function reachableDefs(roots: JsonSchema[], defs: Map<string, SchemaIR>): string[] {
  const { refs } = cachesFor(defs);
  const found: string[] = [];
  const seen = new Set<string>();
  const refsOfDef = (name: string): string[] => {
    let list = refs.get(name);
    if (!list) refs.set(name, (list = directRefs(defs.get(name)!.schema)));
    return list;
  };
  // Iterative depth-first walk (deep schema chains must not exhaust the stack); same order as recursion.
  const visitAll = (names: string[]): void => {
    const stack: Array<{ names: string[]; index: number }> = [{ names, index: 0 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.index >= frame.names.length) {
        stack.pop();
        continue;
      }
      const name = frame.names[frame.index++]!;
      if (seen.has(name) || !defs.has(name)) continue;
      seen.add(name);
      found.push(name);
      stack.push({ names: refsOfDef(name), index: 0 });
    }
  };
  for (const root of roots) visitAll(directRefs(root));
  return found;
}

/** One def adjusted to a direction, computed once per run and shared: callers must not mutate it. */
export function directedDef(name: string, defs: Map<string, SchemaIR>, direction: Direction): JsonSchema {
  const { directed } = cachesFor(defs);
  const key = `${direction}:${name}`;
  let schema = directed.get(key);
  if (schema === undefined) directed.set(key, (schema = applyDirection(defs.get(name)!.schema, direction)));
  return schema;
}

/** Copy of a schema without the properties that do not exist in this direction. */
export function applyDirection(schema: JsonSchema, direction: Direction): JsonSchema {
  const hidden = direction === "input" ? "readOnly" : "writeOnly";
  return mapSchema(schema, (out) => {
    if (out.properties === null || typeof out.properties !== "object") return out;
    const properties: Obj = {};
    const removed = new Set<string>();
    for (const [name, sub] of Object.entries(out.properties as Obj)) {
      if (sub !== null && typeof sub === "object" && (sub as Obj)[hidden] === true) removed.add(name);
      else properties[name] = sub;
    }
    if (removed.size === 0) return out;
    out.properties = properties;
    if (Array.isArray(out.required)) {
      const required = (out.required as string[]).filter((name) => !removed.has(name));
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
    return out;
  });
}

/** The `$defs` block for a set of roots, each def adjusted to the direction. Undefined when empty. */
export function defsFor(roots: JsonSchema[], defs: Map<string, SchemaIR>, direction: Direction): Obj | undefined {
  const names = reachableDefs(roots, defs);
  if (names.length === 0) return undefined;
  const out: Obj = {};
  for (const name of names) out[name] = directedDef(name, defs, direction);
  return out;
}

/** The single JSON type of a schema after resolving refs, or undefined when it has none or several. */
export function singleType(schema: JsonSchema, defs: Map<string, SchemaIR>): string | undefined {
  const resolved = resolveSchema(schema, defs);
  if (typeof resolved !== "object") return undefined;
  return typeof resolved.type === "string" ? resolved.type : undefined;
}

/** Whether every instance of the schema is a JSON object (so it can be `structuredContent` as is). */
export function isObjectSchema(schema: JsonSchema, defs: Map<string, SchemaIR>, depth = 0): boolean {
  if (depth > 16) return false;
  const resolved = resolveSchema(schema, defs);
  if (typeof resolved !== "object") return false;
  if (resolved.type === "object") return true;
  if (resolved.type !== undefined) return false;
  if (Array.isArray(resolved.allOf) && resolved.allOf.length > 0) {
    return (resolved.allOf as JsonSchema[]).some((member) => isObjectSchema(member, defs, depth + 1));
  }
  return (resolved.properties !== undefined || resolved.additionalProperties !== undefined) && resolved.anyOf === undefined && resolved.oneOf === undefined;
}
