import { setOwn, type JsonSchema } from "../../../shared/contract.js";

/** Whether a change can break existing callers (input) or consumers of results (output). */
export type Verdict = "breaking" | "compatible";

/** One difference between two versions of a schema. */
export interface SchemaChange {
  /** Where, as a dotted argument path (`owner.name`, `tags[]`); empty for the root. */
  at: string;
  verdict: Verdict;
  message: string;
}

type Direction = "input" | "output";
type Schema = JsonSchema & Record<string, unknown>;

function asSchema(value: unknown): Schema | undefined {
  return value && typeof value === "object" ? (value as Schema) : undefined;
}

/** The JSON types a schema admits; undefined when it does not say (anything goes). */
function typesOf(schema: Schema): Set<string> | undefined {
  const type = schema.type;
  if (typeof type === "string") return new Set(type === "integer" ? ["integer"] : [type]);
  if (Array.isArray(type)) return new Set(type as string[]);
  return undefined;
}

/** a ⊆ b, where "undefined" is the set of everything and integer ⊂ number. */
function subset(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  if (b === undefined) return true;
  if (a === undefined) return false;
  return [...a].every((t) => b.has(t) || (t === "integer" && b.has("number")));
}

const label = (types: Set<string> | undefined) => (types ? [...types].sort().join("|") : "any");
const join = (at: string, key: string) => (at ? `${at}.${key}` : key);

/** Context of one comparison: the two root schemas (for `$defs`) and the refs being followed. */
interface Roots {
  before: Schema;
  after: Schema;
  following: Set<string>;
  /**
   * How deep both schemas describe the value (output-compact.ts `OutputDetail`): nodes at this
   * depth are compared by type only, deeper ones not at all; 0 compares the root's property names,
   * -1 its required names only. Undefined: the whole schemas.
   */
  detail?: number;
}

/** Follows a local `#/$defs/…` reference; returns the schema itself when it is not one. */
function deref(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const target = match
    ? (root[match[1]!] as Record<string, unknown> | undefined)?.[match[2]!.replace(/~1/g, "/").replace(/~0/g, "~")]
    : undefined;
  return asSchema(target) ?? schema;
}

/**
 * Compares two schemas of the same value. For inputs, accepting less (a new required property, a
 * removed property, a narrower type or enum) breaks callers; for outputs, promising less (a removed
 * property, a wider type or enum) breaks consumers. Recurses into object properties and array items
 * and follows local `$defs` references (a recursive reference is compared once). Keywords it does not
 * understand are not reported.
 */
export function compareSchemas(
  before: unknown,
  after: unknown,
  direction: Direction,
  at = "",
  roots?: Roots,
  detail?: number,
): SchemaChange[] {
  const rootA = asSchema(before);
  const rootB = asSchema(after);
  if (!rootA || !rootB) return [];
  const context = roots ?? {
    before: rootA,
    after: rootB,
    following: new Set<string>(),
    ...(detail !== undefined ? { detail } : {}),
  };
  return compareAt(rootA, rootB, direction, at, context, 0);
}

/** {@link compareSchemas} of two sub-schemas at `depth` (properties add one level; array items do not). */
function compareAt(
  a: Schema | undefined,
  b: Schema | undefined,
  direction: Direction,
  at: string,
  context: Roots,
  depth: number,
): SchemaChange[] {
  if (!a || !b) return [];
  if (context.detail !== undefined && depth > Math.max(context.detail, 0)) return [];
  const refKey = `${String(a.$ref)}|${String(b.$ref)}`;
  const followsRef = typeof a.$ref === "string" || typeof b.$ref === "string";
  if (followsRef && context.following.has(refKey)) return [];
  if (followsRef) context.following.add(refKey);
  try {
    return compareResolved(deref(a, context.before), deref(b, context.after), direction, at, context, depth);
  } finally {
    if (followsRef) context.following.delete(refKey);
  }
}

/**
 * The types a compacted output node stands for, as output-compact.ts `typeOnly` reads them: its
 * `type`, the union of its branches' types, an `allOf` member's type, `object` for properties.
 */
function cutTypes(schema: Schema, depth = 0): Set<string> | undefined {
  if (depth > 8) return undefined;
  const own = typesOf(schema);
  const types = own ?? unionTypes(schema, depth);
  if (types?.has("number")) types.delete("integer");
  return types;
}

function unionTypes(schema: Schema, depth: number): Set<string> | undefined {
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(branches) && branches.length > 0) {
    const union = new Set<string>();
    for (const branch of branches) {
      const types = asSchema(branch) && cutTypes(branch as Schema, depth + 1);
      if (!types) return undefined;
      for (const type of types) union.add(type);
    }
    return union;
  }
  if (Array.isArray(schema.allOf))
    for (const member of schema.allOf) {
      const types = asSchema(member) && cutTypes(member as Schema, depth + 1);
      if (types) return types;
    }
  return schema.properties !== undefined ? new Set(["object"]) : undefined;
}

/** The changes two schemas cut at `detail` show: the type at the cut, the required names at -1. */
function compareCut(a: Schema, b: Schema, direction: Direction, at: string, detail: number): SchemaChange[] {
  const widened: Verdict = direction === "input" ? "compatible" : "breaking";
  const narrowed: Verdict = direction === "input" ? "breaking" : "compatible";
  if (detail < 0) {
    // Only the required names are kept: a field no longer required is no longer guaranteed.
    const ra = new Set(Array.isArray(a.required) ? (a.required as string[]) : []);
    const rb = new Set(Array.isArray(b.required) ? (b.required as string[]) : []);
    const noun = direction === "input" ? "argument" : "field";
    return [
      ...[...ra]
        .filter((key) => !rb.has(key))
        .map((key) => ({ at: join(at, key), verdict: widened, message: `${noun} is no longer required` })),
      ...[...rb]
        .filter((key) => !ra.has(key))
        .map((key) => ({ at: join(at, key), verdict: narrowed, message: `${noun} is now required` })),
    ];
  }
  // At the cut both sides keep only their type (a side that says nothing is not compared).
  const ta = cutTypes(a);
  const tb = cutTypes(b);
  if (!ta || !tb || label(ta) === label(tb)) return [];
  const verdict: Verdict = subset(tb, ta) ? narrowed : subset(ta, tb) ? widened : "breaking";
  return [{ at, verdict, message: `type changed from ${label(ta)} to ${label(tb)}` }];
}

function compareResolved(
  a: Schema,
  b: Schema,
  direction: Direction,
  at: string,
  roots: Roots,
  depth: number,
): SchemaChange[] {
  const detail = roots.detail;
  if (detail !== undefined && (detail < 0 || (detail > 0 && depth === detail)))
    return compareCut(a, b, direction, at, detail);
  const changes: SchemaChange[] = [];
  // Narrowing hurts inputs; widening hurts outputs.
  const narrowed: Verdict = direction === "input" ? "breaking" : "compatible";
  const widened: Verdict = direction === "input" ? "compatible" : "breaking";

  if (typeof a.$ref === "string" || typeof b.$ref === "string") {
    // An unresolvable (non-local) reference: compare by name only.
    if (a.$ref !== b.$ref)
      changes.push({
        at,
        verdict: "breaking",
        message: `schema reference changed from ${String(a.$ref ?? "inline")} to ${String(b.$ref ?? "inline")}`,
      });
    return changes;
  }

  const ta = typesOf(a);
  const tb = typesOf(b);
  if (label(ta) !== label(tb)) {
    const verdict: Verdict = subset(tb, ta) ? narrowed : subset(ta, tb) ? widened : "breaking";
    changes.push({ at, verdict, message: `type changed from ${label(ta)} to ${label(tb)}` });
  }

  const ea = Array.isArray(a.enum) ? a.enum.map((v) => JSON.stringify(v)) : undefined;
  const eb = Array.isArray(b.enum) ? b.enum.map((v) => JSON.stringify(v)) : undefined;
  if (ea || eb) {
    const removed = ea && eb ? ea.filter((v) => !eb.includes(v)) : [];
    const added = ea && eb ? eb.filter((v) => !ea.includes(v)) : [];
    if (!ea) changes.push({ at, verdict: narrowed, message: `now limited to ${eb!.join(", ")}` });
    else if (!eb) changes.push({ at, verdict: widened, message: "no longer limited to a list of values" });
    if (removed.length > 0)
      changes.push({ at, verdict: narrowed, message: `value(s) ${removed.join(", ")} no longer allowed` });
    if (added.length > 0) changes.push({ at, verdict: widened, message: `value(s) ${added.join(", ")} now allowed` });
  }

  const ra = new Set(Array.isArray(a.required) ? (a.required as string[]) : []);
  const rb = new Set(Array.isArray(b.required) ? (b.required as string[]) : []);
  const pa = declaredNames(asSchema(a.properties), ra);
  const pb = declaredNames(asSchema(b.properties), rb);
  const noun = direction === "input" ? "argument" : "field";
  for (const key of Object.keys(pa)) {
    if (!(key in pb)) {
      // Callers passing it are refused (or silently ignored); consumers reading it find nothing.
      changes.push({ at: join(at, key), verdict: "breaking", message: `${noun} removed` });
    }
  }
  for (const key of Object.keys(pb)) {
    if (!(key in pa)) {
      const breaks = direction === "input" && rb.has(key);
      changes.push({
        at: join(at, key),
        verdict: breaks ? "breaking" : "compatible",
        message: `${breaks ? "required" : "optional"} ${noun} added`,
      });
      continue;
    }
    if (ra.has(key) !== rb.has(key)) {
      const nowRequired = rb.has(key);
      // Input: newly required breaks callers. Output: no longer guaranteed breaks consumers.
      const verdict: Verdict =
        direction === "input" ? (nowRequired ? "breaking" : "compatible") : nowRequired ? "compatible" : "breaking";
      changes.push({
        at: join(at, key),
        verdict,
        message: nowRequired ? `${noun} is now required` : `${noun} is now optional`,
      });
    }
    changes.push(...compareAt(asSchema(pa[key]), asSchema(pb[key]), direction, join(at, key), roots, depth + 1));
  }
  if (a.items !== undefined || b.items !== undefined)
    changes.push(...compareAt(asSchema(a.items), asSchema(b.items), direction, `${at}[]`, roots, depth));
  return changes;
}

/**
 * The properties of an object schema with its required names that it does not declare, as properties
 * that accept anything (what they are to a validator; a names-only output schema lists a required name
 * only in `required`).
 */
function declaredNames(
  properties: Record<string, unknown> | undefined,
  required: ReadonlySet<string>,
): Record<string, unknown> {
  const all: Record<string, unknown> = { ...properties };
  for (const name of required) if (!Object.hasOwn(all, name)) setOwn(all, name, {});
  return all;
}
