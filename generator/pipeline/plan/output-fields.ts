/**
 * The `_fields` argument of an operation that answers JSON: the paths a caller may choose from its
 * response schema (the full schema, not the compacted output schema), listed for the runtime to
 * check (`http.response.fields`) and, for the model, in the argument's schema when they are few.
 *
 * Paths are listed breadth first, to {@link FIELD_PATH_DEPTH} names and at most
 * {@link MAX_FIELD_PATHS} of them; an object whose properties are not listed (a map, a free-form
 * object, or one beyond the depth or the count) is listed as `path.*`: anything below it goes.
 */
import type { JsonSchema, ObjectJsonSchema } from "../../shared/contract.js";
import { isRecord } from "../../shared/contract.js";
import type { SchemaIR } from "../ir/ir-types.js";
import { resolveSchema } from "./schema-tools.js";

type Obj = Record<string, unknown>;

/** Names in a listed path at most (`head.repo.name`). */
export const FIELD_PATH_DEPTH = 3;
/** Paths listed per operation at most (the data file carries them for every tool). */
export const MAX_FIELD_PATHS = 100;
/** Paths at most that the argument's schema lists as an enum (which also types it in code mode's `api`). */
export const MAX_ENUM_PATHS = 8;
/**
 * Characters at most of the compact listing ({@link compactPaths}) the argument's description carries
 * when the paths are too many for an enum; a longer listing is left out. Every tool of a big API
 * takes the argument and a client gives every listing to the model: on GitHub (926 tools) listing
 * every tool's paths, even written this way, would add ~0.4 MB to `tools/list`, while a wrong path
 * costs one refused call that names the known paths near it and the top-level ones (result-step.ts).
 */
export const MAX_LISTING_CHARS = 120;
/** The argument's name, and the prefix added while an operation has a parameter of that name. */
export const FIELDS_ARGUMENT = "_fields";

/** What a schema node offers a path: its properties, whether it is a list, whether it is open below. */
interface Shape {
  properties: Map<string, JsonSchema>;
  array: boolean;
  /** An object whose properties are not all known (a map, no properties). */
  open: boolean;
}

/**
 * Shapes already merged, by `defs` map and then by resolved schema object. A big API's responses
 * reach the same definitions again and again (GitHub: `simple-user` below most of its 1,000
 * operations), and each listing asks every child's shape twice (to name it, then to expand it).
 */
const shapes = new WeakMap<Map<string, SchemaIR>, WeakMap<object, Shape>>();

/** The merged shape of a schema (see {@link mergedShape}), kept per resolved schema object (callers only read it). */
function shapeOf(schema: JsonSchema, defs: Map<string, SchemaIR>): Shape {
  const resolved = resolveSchema(schema, defs);
  if (!isRecord(resolved)) return mergedShape(schema, defs, 0);
  let known = shapes.get(defs);
  if (!known) shapes.set(defs, (known = new WeakMap()));
  let shape = known.get(resolved);
  if (!shape) known.set(resolved, (shape = mergedShape(schema, defs, 0)));
  return shape;
}

/** The merged shape of a schema: refs resolved, `allOf`/`anyOf`/`oneOf` members' properties together, arrays crossed. */
function mergedShape(schema: JsonSchema, defs: Map<string, SchemaIR>, depth: number): Shape {
  const shape: Shape = { properties: new Map(), array: false, open: false };
  const resolved = resolveSchema(schema, defs);
  if (!isRecord(resolved) || depth > 8) return shape;
  if (resolved.type === "array" || resolved.items !== undefined) {
    const inner = mergedShape((resolved.items ?? {}) as JsonSchema, defs, depth + 1);
    return { ...inner, array: true };
  }
  if (isRecord(resolved.properties))
    for (const [name, sub] of Object.entries(resolved.properties)) shape.properties.set(name, sub as JsonSchema);
  if (isRecord(resolved.additionalProperties)) shape.open = true;
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const members = resolved[key];
    if (!Array.isArray(members)) continue;
    for (const member of members as JsonSchema[]) {
      const inner = mergedShape(member, defs, depth + 1);
      for (const [name, sub] of inner.properties) if (!shape.properties.has(name)) shape.properties.set(name, sub);
      shape.open ||= inner.open;
    }
  }
  const isObject = resolved.type === "object" || shape.properties.size > 0;
  if (isObject && shape.properties.size === 0) shape.open = true;
  return shape;
}

/** Listed paths by root shape: the tools that return the same def share one listing (callers only read it). */
const listings = new WeakMap<Shape, string[]>();

/** The paths of a response body's schema, breadth first (see the module comment). */
export function listOutputFields(body: JsonSchema, defs: Map<string, SchemaIR>): string[] {
  const root = shapeOf(body, defs);
  let paths = listings.get(root);
  if (!paths) listings.set(root, (paths = listPaths(root, defs)));
  return paths;
}

function listPaths(root: Shape, defs: Map<string, SchemaIR>): string[] {
  const paths: string[] = [];
  const queue: Array<{ prefix: string; shape: Shape; depth: number }> = [{ prefix: "", shape: root, depth: 0 }];
  for (let index = 0; index < queue.length; index++) {
    const next = queue[index]!;
    for (const [name, sub] of next.shape.properties) {
      if (paths.length >= MAX_FIELD_PATHS) return paths;
      const child = shapeOf(sub, defs);
      const path = `${next.prefix}${name}${child.array ? "[]" : ""}`;
      const hasBelow = child.properties.size > 0 || child.open;
      const expand = child.properties.size > 0 && next.depth + 1 < FIELD_PATH_DEPTH;
      paths.push(hasBelow && !expand ? `${path}.*` : path);
      if (expand) queue.push({ prefix: `${path}.`, shape: child, depth: next.depth + 1 });
    }
  }
  return paths;
}

/** What the argument does (its name and type say the rest; a refusal explains the path form). */
const FIELDS_DESCRIPTION = "Fields to return";

/**
 * The input property of the argument: an enum of the paths when few and exact; else any strings,
 * described with the paths in compact form when that is short. The runtime checks every call's list
 * itself (result-step.ts: 1 to 100 known paths, with a message that names the valid ones near a
 * wrong one), so the schema carries no `minItems` or `pattern`.
 */
export function fieldsProperty(paths: readonly string[]): Obj {
  const exact = paths.length > 0 && paths.length <= MAX_ENUM_PATHS && !paths.some((path) => path.endsWith(".*"));
  if (exact) return { type: "array", description: FIELDS_DESCRIPTION, items: { type: "string", enum: [...paths] } };
  // Most responses have too many fields for the listing: their names alone tell, it is not written out.
  const listing =
    paths.length > 0 && listingLengthAtLeast(paths, MAX_LISTING_CHARS) <= MAX_LISTING_CHARS
      ? compactPaths(paths)
      : undefined;
  const listed = listing !== undefined && listing.length <= MAX_LISTING_CHARS;
  return {
    type: "array",
    description: listed ? `${FIELDS_DESCRIPTION}: ${listing}` : FIELDS_DESCRIPTION,
    items: { type: "string" },
  };
}

/**
 * At most the length of the compact listing of `paths`, which writes each node of their tree once
 * with at least one character between two names: the names of the nodes the paths end at (and of
 * the open parent of an `x.*`), one character apart. Counting stops past `limit`.
 */
function listingLengthAtLeast(paths: readonly string[], limit: number): number {
  const nodes = new Set<string>();
  for (const path of paths) {
    nodes.add(path);
    if (path.endsWith(".*")) nodes.add(path.slice(0, -2));
  }
  let length = -1;
  for (const node of nodes) {
    length += node.length - node.lastIndexOf(".");
    if (length > limit) break;
  }
  return length;
}

/** A tree of path segments, in the order the paths list them. */
type PathTree = Map<string, PathTree>;

/**
 * Paths written once per shared prefix, as brace expansion reads: `id, user.{login, id},
 * labels[].name, extra.*` for `id`, `user`, `user.login`, `user.id`, `labels[]`, `labels[].name`,
 * `extra.*`. A name stands for itself and everything below it, so a listed parent is not repeated.
 */
export function compactPaths(paths: readonly string[]): string {
  const root: PathTree = new Map();
  for (const path of paths) {
    let node = root;
    for (const segment of path.split(".")) {
      let child = node.get(segment);
      if (!child) node.set(segment, (child = new Map()));
      node = child;
    }
  }
  return writeTree(root);
}

function writeTree(tree: PathTree): string {
  return [...tree]
    .map(([name, below]) =>
      below.size === 0 ? name : `${name}.${below.size === 1 ? writeTree(below) : `{${writeTree(below)}}`}`,
    )
    .join(", ");
}

/** The argument's name: `_fields`, with more `_` in front while the input already has that name. */
export function fieldsArgumentName(inputSchema: ObjectJsonSchema): string {
  let name = FIELDS_ARGUMENT;
  while (Object.prototype.hasOwnProperty.call(inputSchema.properties ?? {}, name)) name = `_${name}`;
  return name;
}
