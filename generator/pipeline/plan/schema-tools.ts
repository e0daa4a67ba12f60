import { isRecord, type JsonSchema, setOwn } from "../../shared/contract.js";
import type { SchemaIR } from "../ir/ir-types.js";
import { forEachSchema, mapSchema } from "../../shared/schema-walk.js";

type Obj = Record<string, unknown>;

/** Which side of the API a schema describes: `input` drops `readOnly` properties, `output` drops `writeOnly`. */
export type Direction = "input" | "output";

const DEF_PREFIX = "#/$defs/";

/** Name of the `$defs` entry a `$ref` points to, if it is one of ours. */
export function defName(schema: JsonSchema): string | undefined {
  if (typeof schema !== "object" || typeof schema.$ref !== "string" || !schema.$ref.startsWith(DEF_PREFIX))
    return undefined;
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
 * Per `defs` map (one planning run): each def's directly referenced def names in first-reference
 * order (as written, and per direction), and each def's copy per direction. Big APIs (MS Graph:
 * 22,000 operations over one web of thousands of schemas) reach the same defs from every tool;
 * walking and copying them once per tool took minutes and gigabytes.
 */
const caches = new WeakMap<
  Map<string, SchemaIR>,
  { refs: Map<string, string[]>; directedRefs: Map<string, string[]>; directed: Map<string, JsonSchema> }
>();

function cacheOf(defs: Map<string, SchemaIR>) {
  let cache = caches.get(defs);
  if (!cache) caches.set(defs, (cache = { refs: new Map(), directedRefs: new Map(), directed: new Map() }));
  return cache;
}

/** Def names a schema references directly (own `$ref`s at any depth), first-reference order, existing defs only. */
function directRefs(schema: JsonSchema, defs: Map<string, SchemaIR>): string[] {
  const names = new Set<string>();
  forEachSchema(schema, (node) => {
    const ref = node.$ref;
    if (typeof ref === "string" && ref.startsWith(DEF_PREFIX) && defs.has(ref.slice(DEF_PREFIX.length)))
      names.add(ref.slice(DEF_PREFIX.length));
  });
  return [...names];
}

/**
 * Depth-first pre-order walk over def names from `starts`: `children(name)` gives a def's direct
 * references. With an explicit stack (not recursion), so that a chain of thousands of defs cannot
 * exhaust the call stack; the order is the one a recursive walk would give.
 */
function walkDefs(starts: string[], children: (name: string) => string[], visit: (name: string) => void): void {
  const seen = new Set<string>();
  const stack = [...starts].reverse();
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    visit(name);
    const next = children(name);
    for (let i = next.length - 1; i >= 0; i--) if (!seen.has(next[i]!)) stack.push(next[i]!);
  }
}

/** Every `$defs` name reachable from `roots`, in first-reached (depth-first) order. */
export function reachableDefs(roots: JsonSchema[], defs: Map<string, SchemaIR>): string[] {
  const { refs } = cacheOf(defs);
  const found: string[] = [];
  const children = (name: string): string[] => {
    let list = refs.get(name);
    if (!list) refs.set(name, (list = directRefs(defs.get(name)!.schema, defs)));
    return list;
  };
  walkDefs(
    roots.flatMap((root) => directRefs(root, defs)),
    children,
    (name) => found.push(name),
  );
  return found;
}

/**
 * A copy of a shared def schema made by `transform`, made once per def and transform: big APIs
 * reach the same defs from thousands of tools. `transform` must be pure; the copy is shared too.
 */
export function sharedCopy(schema: JsonSchema, transform: (schema: JsonSchema) => JsonSchema): JsonSchema {
  if (typeof schema !== "object") return transform(schema);
  let copies = sharedCopies.get(transform);
  if (!copies) sharedCopies.set(transform, (copies = new WeakMap()));
  let copy = copies.get(schema);
  if (copy === undefined) copies.set(schema, (copy = transform(schema)));
  return copy;
}
const sharedCopies = new WeakMap<(schema: JsonSchema) => JsonSchema, WeakMap<object, JsonSchema>>();

const jsonLengths = new WeakMap<object, number>();

/**
 * `JSON.stringify(value).length` of a schema whose `$defs` entries are shared def schemas (from
 * `defsFor` / `sharedCopy`, never changed once made): their lengths are measured once.
 */
export function schemaJsonLength(schema: Obj): number {
  const $defs = schema.$defs as Obj | undefined;
  if ($defs === undefined || $defs === null || typeof $defs !== "object") return JSON.stringify(schema).length;
  const rest = JSON.stringify({ ...schema, $defs: {} }).length;
  let defsLength = 0;
  for (const [name, def] of Object.entries($defs)) {
    let length = def !== null && typeof def === "object" ? jsonLengths.get(def) : undefined;
    if (length === undefined) {
      length = JSON.stringify(def).length;
      if (def !== null && typeof def === "object") jsonLengths.set(def, length);
    }
    defsLength += JSON.stringify(name).length + 1 + length;
  }
  // `{}` became `{…}`: the entries and the commas between them.
  return rest + defsLength + Math.max(0, Object.keys($defs).length - 1);
}

const hiddenMemo = new WeakMap<Map<string, SchemaIR>, Map<string, boolean>>();

/** Bound on how deep {@link isHidden} follows refs and compositions (a ref cycle ends there). */
const HIDDEN_DEPTH = 16;

/**
 * Whether a property schema is `readOnly` (`writeOnly`) in effect: it says so itself, or through a
 * `$ref` to a def that does, an `allOf` member that does, or every non-null `anyOf`/`oneOf`
 * branch (3.0's `nullable` around a readOnly ref becomes such a union).
 */
export function isHidden(
  schema: unknown,
  keyword: "readOnly" | "writeOnly",
  defs: Map<string, SchemaIR> | undefined,
  depth = 0,
): boolean {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema) || depth > HIDDEN_DEPTH) return false;
  const node = schema as Obj;
  if (node[keyword] === true) return true;
  if (node[keyword] === false) return false;
  const name = defName(node as JsonSchema);
  if (name !== undefined && defs?.has(name)) {
    // Big APIs ask about the same defs from thousands of properties: once per def and keyword.
    const memo = hiddenMemo.get(defs) ?? new Map<string, boolean>();
    hiddenMemo.set(defs, memo);
    const key = `${keyword}:${name}`;
    let answer = memo.get(key);
    if (answer === undefined) {
      answer = isHidden(defs.get(name)!.schema, keyword, defs, depth + 1);
      // A "no" found deep down may only mean the depth bound was hit: kept only when found at the top.
      if (answer || depth === 0) memo.set(key, answer);
    }
    if (answer) return true;
  }
  if (Array.isArray(node.allOf) && node.allOf.some((member) => isHidden(member, keyword, defs, depth + 1))) return true;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    const typed = branches.filter((b) => !(b !== null && typeof b === "object" && (b as Obj).type === "null"));
    if (typed.length > 0 && typed.every((branch) => isHidden(branch, keyword, defs, depth + 1))) return true;
  }
  return false;
}

/** Names of the properties a schema (or the def it refers to) declares hidden in a direction. */
function hiddenNames(
  schema: unknown,
  keyword: "readOnly" | "writeOnly",
  defs: Map<string, SchemaIR> | undefined,
): string[] {
  if (schema === null || typeof schema !== "object") return [];
  const name = defName(schema as JsonSchema);
  const node = (name !== undefined ? defs?.get(name)?.schema : schema) as Obj | undefined;
  if (!node || typeof node !== "object" || node.properties === null || typeof node.properties !== "object") return [];
  return Object.entries(node.properties as Obj)
    .filter(([, sub]) => isHidden(sub, keyword, defs))
    .map(([prop]) => prop);
}

/** `required` of a node without `names`; the keyword goes when nothing is left. */
function withoutRequired(node: Obj, names: ReadonlySet<string>): Obj {
  if (!Array.isArray(node.required) || !(node.required as string[]).some((name) => names.has(name))) return node;
  const out = { ...node };
  const required = (node.required as string[]).filter((name) => !names.has(name));
  if (required.length > 0) out.required = required;
  else delete out.required;
  return out;
}

/**
 * Copy of a schema without the properties that do not exist in this direction (`readOnly` ones on
 * input, `writeOnly` ones on output), and without them in any `required` list, including the
 * `required` of an `allOf` member that names a property another member declares. With `defs`,
 * a property is recognised as hidden through `$ref`s too (see {@link isHidden}).
 */
export function applyDirection(schema: JsonSchema, direction: Direction, defs?: Map<string, SchemaIR>): JsonSchema {
  const hidden = direction === "input" ? "readOnly" : "writeOnly";
  // Names each rewritten node lost, so that an allOf parent can drop them from its siblings' `required`.
  const removedBy = new WeakMap<object, Set<string>>();
  return mapSchema(schema, (node) => {
    let out = node;
    const removed = new Set<string>();
    if (out.properties !== null && typeof out.properties === "object") {
      const properties: Obj = {};
      for (const [name, sub] of Object.entries(out.properties as Obj)) {
        if (isHidden(sub, hidden, defs)) removed.add(name);
        else setOwn(properties, name, sub);
      }
      if (removed.size > 0) out.properties = properties;
    }
    if (Array.isArray(out.allOf)) {
      const members = out.allOf as unknown[];
      for (const member of members) {
        const names =
          member !== null && typeof member === "object"
            ? (removedBy.get(member) ?? hiddenNames(member, hidden, defs))
            : [];
        for (const name of names) removed.add(name);
      }
      if (removed.size > 0)
        out.allOf = members.map((member) => (isRecord(member) ? withoutRequired(member, removed) : member));
    }
    if (removed.size === 0) return out;
    out = withoutRequired(out, removed);
    removedBy.set(out, removed);
    return out;
  });
}

/** A def adjusted to a direction, made once per def and direction (shared: copy before changing it). */
function directedCopy(name: string, defs: Map<string, SchemaIR>, direction: Direction): JsonSchema {
  const { directed } = cacheOf(defs);
  const key = `${direction}:${name}`;
  let schema = directed.get(key);
  if (schema === undefined) directed.set(key, (schema = applyDirection(defs.get(name)!.schema, direction, defs)));
  return schema;
}

/**
 * A schema with `$ref`s at its root followed (see {@link resolveSchema}) and adjusted to a
 * direction; a def's copy is shared (copy before changing it).
 */
export function resolveDirected(schema: JsonSchema, defs: Map<string, SchemaIR>, direction: Direction): JsonSchema {
  let name: string | undefined;
  let current = schema;
  for (let hops = 0; hops < 32; hops++) {
    const next = defName(current);
    if (next === undefined || !defs.has(next)) break;
    name = next;
    current = defs.get(next)!.schema;
  }
  return name === undefined ? applyDirection(schema, direction, defs) : directedCopy(name, defs, direction);
}

/**
 * The `$defs` block for a set of roots, each def adjusted to the direction. Undefined when empty.
 * The def schemas are shared between the tools of one run: copy before changing them.
 */
export function defsFor(roots: JsonSchema[], defs: Map<string, SchemaIR>, direction: Direction): Obj | undefined {
  const { directedRefs } = cacheOf(defs);
  const directedDef = (name: string): JsonSchema => directedCopy(name, defs, direction);
  // Reachability over the directed copies: a def only a hidden property referred to is left out.
  const out: Obj = {};
  const children = (name: string): string[] => {
    const key = `${direction}:${name}`;
    let list = directedRefs.get(key);
    if (!list) directedRefs.set(key, (list = directRefs(out[name] as JsonSchema, defs)));
    return list;
  };
  walkDefs(
    roots.flatMap((root) => directRefs(root, defs)),
    children,
    (name) => setOwn(out, name, directedDef(name)),
  );
  return Object.keys(out).length > 0 ? out : undefined;
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
  return (
    (resolved.properties !== undefined || resolved.additionalProperties !== undefined) &&
    resolved.anyOf === undefined &&
    resolved.oneOf === undefined
  );
}
