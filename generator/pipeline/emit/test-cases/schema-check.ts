/**
 * Whether a JSON Schema accepts a value, for the contract tests' sample values (sample-value.ts):
 * ajv configured like the generated server's validator (runtime/src/api/validation.ts: 2020-12,
 * formats on, own properties only), errors aside.
 *
 * Compiling is what costs here, not validating (each validator runs a few times at most), and a big
 * API repeats the same small schemas in hundreds of tools (GitHub: 11,894 input properties, 1,429
 * distinct), and the same `$defs` in thousands (MS Graph beta: bodies reach hundreds). So:
 * - each distinct schema is compiled once, found by its JSON text without annotations (the
 *   `description`s that make most parameters differ; ajv ignores them, see ANNOTATIONS), not once
 *   per schema object;
 * - each `$defs` entry is added to ajv once, under a stable `$id` (see DefsRegistry), and the
 *   schemas that use it refer to it there, so ajv compiles it once for every tool that reaches it
 *   (inlining the `$defs` into each schema compiled them all again per distinct schema);
 * - a schema of structural keywords only (see node-check.ts: `type`, `enum`, `const`, `properties`,
 *   `required`, `additionalProperties`, `items`, `minItems`, `maxItems`, `allOf`, `anyOf`, `oneOf`,
 *   a local `$ref`, annotations, and at the root its `$defs`) is checked here, keyword by keyword,
 *   each subschema through the same cache: those keywords are independent conditions, checked as
 *   ajv checks them, so the answer is ajv's for the whole schema. Only the schemas with other
 *   keywords (`pattern`, `format`, `minimum`…), mostly small leaves, go to ajv, whole. (Compiling
 *   is what costs, and cold: GitHub's input samples reached 126 compiled schemas, 0.2-0.3 CPU-s.)
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { isRecord, type JsonSchema } from "../../../shared/contract.js";
import { forEachSchema, mapSchema } from "../../../shared/schema-walk.js";
import { type Check, isAnnotation, nodeAccepts, nodeParts, type NodeParts, refName } from "./node-check.js";

type Schema = Record<string, unknown>;

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

const ALWAYS: Check = () => true;
/** The deepest nesting of split checks (see partsAccept); far beyond what the load stage lets a spec nest. */
const MAX_DEPTH = 2000;

/** Validates sample values; keeps every compiled schema, so one instance serves one project (or one check run). */
export class SchemaChecker {
  // inlineRefs and optimize off: compiling dominates here, and both halve it on large specs.
  private readonly ajv = new Ajv2020({
    allErrors: false,
    strict: false,
    validateSchema: false,
    logger: false,
    ownProperties: true,
    inlineRefs: false,
    code: { optimize: false },
  });
  private readonly defs = new DefsRegistry(this.ajv);
  /** Compiled validators by schema text (refs to `$defs` name their registry `$id`; null: ajv could not compile it). */
  private readonly compiled = new Map<string, ValidateFunction | null>();
  /** Checks by `$defs` object (or NO_DEFS), then by schema object. */
  private readonly checks = new WeakMap<object, WeakMap<object, Check>>();
  private readonly defsIds = new WeakMap<object, number>();
  private nextDefsId = 0;
  private readonly noDefs = {};
  /** How deep checks of split schemas are nested now (see partsAccept). */
  private depth = 0;

  constructor() {
    addFormats(this.ajv);
  }

  /** How many validators ajv compiled so far for the checked schemas (distinct schemas; for tests and measurements). */
  get compiledSchemas(): number {
    let count = 0;
    for (const validate of this.compiled.values()) if (validate) count += 1;
    return count;
  }

  /** How many `$defs` entries were added to ajv (each once per namespace; for tests and measurements). */
  get registeredDefs(): number {
    return this.defs.size;
  }

  /** Whether `schema` accepts `value`; local `$ref`s resolve against `root`'s `$defs`. True when ajv cannot compile the schema (nothing to check). */
  accepts(schema: JsonSchema | undefined, value: unknown, root: Schema = (schema as Schema) ?? {}): boolean {
    if (schema === undefined || schema === true) return true;
    if (schema === false) return false;
    if (typeof schema !== "object" || schema === null) return true;
    return this.checkFor(schema as Schema, root)(value);
  }

  private checkFor(schema: Schema, root: Schema): Check {
    const defs = isRecord(root.$defs) && schema !== root ? root.$defs : this.noDefs;
    let bySchema = this.checks.get(defs);
    if (!bySchema) this.checks.set(defs, (bySchema = new WeakMap()));
    let check = bySchema.get(schema);
    if (!check) bySchema.set(schema, (check = this.newCheck(schema, root, defs)));
    return check;
  }

  private newCheck(schema: Schema, root: Schema, defs: object): Check {
    // Split where the `$defs` in play (if any) are in the registry: each property that refers to
    // them then calls their validators, compiled once. (Without the registry, each such property
    // compiled every entry it reaches again: MS Graph's bodies reach hundreds.)
    const context = refContext(schema, defs === this.noDefs ? undefined : defs);
    const registered = context === undefined || this.defs.namespaceOf(context) !== undefined;
    // Own `$defs` are split off only at the root: the subschemas' refs resolve against the root's.
    const parts =
      registered && (schema.$defs === undefined || schema === root)
        ? nodeParts(schema, schema === root, context)
        : undefined;
    if (parts) return (value) => this.partsAccept(parts, value, root);
    const validate = this.validator(schema, defs);
    return validate ? (value) => validate(value) === true : ALWAYS;
  }

  /** `parts` on `value`, each subschema through the cache (nodeAccepts), with a bound on the nesting. */
  private partsAccept(parts: NodeParts, value: unknown, root: Schema): boolean {
    // A value is finite, but `$ref`s and combinators check the same value again: a schema that
    // refers to itself without end would recurse forever (ajv's validator overflows the stack too).
    if (++this.depth > MAX_DEPTH) throw new RangeError("Maximum call stack size exceeded: a schema refers to itself");
    try {
      return nodeAccepts(parts, value, (schema, item) => this.accepts(schema, item, root));
    } finally {
      this.depth -= 1;
    }
  }

  /**
   * The compiled validator of `schema`, compiled once per distinct text. Its `$ref`s resolve
   * against its own `$defs`, else against `defs`: through the registry when it takes them, else
   * (a `$defs` the registry refuses, see DefsRegistry) with the `$defs` attached, keyed by identity.
   */
  private validator(schema: Schema, defs: object): ValidateFunction | null {
    const context = refContext(schema, defs === this.noDefs ? undefined : defs);
    const namespace = context === undefined ? undefined : this.defs.namespaceOf(context);
    if (namespace !== undefined) {
      const linked = withoutAnnotations(schema);
      delete linked.$defs;
      if (linkRefs(linked, namespace, context)) return this.compile(JSON.stringify(linked), linked);
    }
    const bare = withoutAnnotations(schema);
    const text = JSON.stringify(bare);
    const attach = defs !== this.noDefs && schema.$defs === undefined && text.includes('"$ref"');
    return this.compile(attach ? `${this.defsId(defs)}\n${text}` : text, attach ? { ...bare, $defs: defs } : bare);
  }

  private compile(key: string, schema: Schema): ValidateFunction | null {
    let validate = this.compiled.get(key);
    if (validate !== undefined) return validate;
    try {
      validate = this.ajv.compile(schema);
    } catch {
      validate = null;
    }
    this.compiled.set(key, validate);
    return validate;
  }

  private defsId(defs: object): number {
    let id = this.defsIds.get(defs);
    if (id === undefined) this.defsIds.set(defs, (id = this.nextDefsId++));
    return id;
  }
}

/** The `$defs` a schema's local `$ref`s resolve against: its own, else the root's (undefined: none). */
function refContext(schema: Schema, rootDefs: object | undefined): Record<string, unknown> | undefined {
  if (schema.$defs !== undefined) return isRecord(schema.$defs) ? schema.$defs : undefined;
  return rootDefs as Record<string, unknown> | undefined;
}

/**
 * `$defs` entries added to ajv once each, under `$id`s `https://mcp-gen.invalid/defs/<namespace>/<name>`
 * (never fetched: ajv resolves them among its own schemas). The planner gives every tool its own
 * `$defs` object, holding the entries its schemas reach; the same name means the same schema in
 * most tools, but not all (input and output copies of a definition differ, see plan/schema-tools.ts),
 * so entries live in namespaces: a tool's `$defs` go to the first namespace whose entries agree with
 * all of its own (same name, same text without annotations), and the missing ones are added there;
 * where none agrees, a new namespace starts.
 *
 * A `$defs` whose schemas use `$ref`s other than `#/$defs/<name>` (a pointer into an entry, the
 * root `#`), or `$id`, `$anchor` or dynamic refs, which would resolve differently from another
 * `$id`, is refused: its schemas are compiled with it attached, as before the registry.
 */
class DefsRegistry {
  /** Per namespace: entry name → its text without annotations. */
  private readonly namespaces: Array<Map<string, string>> = [];
  /** Namespace of each `$defs` object seen (null: refused). */
  private readonly byDefs = new WeakMap<object, number | null>();
  /** Each entry's text without annotations and the names it refers to (null: refused), by entry object (the planner shares them between tools). */
  private readonly entries = new WeakMap<object, { text: string; refs: string[] } | null>();
  size = 0;

  constructor(private readonly ajv: Ajv2020) {}

  /** The base URI of a `$defs` object's namespace after adding its entries; undefined when refused. */
  namespaceOf(defs: Record<string, unknown>): string | undefined {
    let index = this.byDefs.get(defs);
    if (index === undefined) this.byDefs.set(defs, (index = this.register(defs)));
    return index === null ? undefined : namespaceBase(index);
  }

  private register(defs: Record<string, unknown>): number | null {
    const entries: Array<[name: string, text: string, schema: JsonSchema]> = [];
    for (const [name, schema] of Object.entries(defs)) {
      const text = this.textOf(schema as JsonSchema, defs);
      if (text === null) return null;
      entries.push([name, text, schema as JsonSchema]);
    }
    let index = this.namespaces.findIndex((known) =>
      entries.every(([name, text]) => (known.get(name) ?? text) === text),
    );
    if (index < 0) index = this.namespaces.push(new Map()) - 1;
    const namespace = this.namespaces[index]!;
    for (const [name, text, schema] of entries) {
      if (namespace.has(name)) continue;
      const bare = typeof schema === "object" && schema !== null ? withoutAnnotations(schema as Schema) : schema;
      if (typeof bare === "object") linkRefs(bare as Schema, namespaceBase(index));
      // A boolean schema cannot carry an `$id`: it is wrapped (`allOf`), which accepts the same values.
      this.ajv.addSchema(
        typeof bare === "object"
          ? { ...(bare as Schema), $id: entryId(index, name) }
          : { $id: entryId(index, name), allOf: [bare] },
      );
      namespace.set(name, text);
      this.size += 1;
    }
    return index;
  }

  /** An entry's text without annotations, or null when its refs cannot point into the registry. */
  private textOf(schema: JsonSchema, defs: Record<string, unknown>): string | null {
    if (typeof schema !== "object" || schema === null) return JSON.stringify(schema);
    let entry = this.entries.get(schema);
    if (entry === undefined) {
      const bare = withoutAnnotations(schema as Schema);
      entry = linkRefs(bare, "") ? { text: JSON.stringify(bare), refs: [...new Set(refNames(bare))] } : null;
      this.entries.set(schema, entry);
    }
    // Every entry a ref names must be in this `$defs` (the planner includes all that are reached).
    if (entry === null || !entry.refs.every((name) => Object.hasOwn(defs, name))) return null;
    return entry.text;
  }
}

const namespaceBase = (index: number): string => `https://mcp-gen.invalid/defs/${index}/`;
const entryId = (index: number, name: string): string => namespaceBase(index) + encodeURIComponent(name);

/** Keywords that give a schema resources or refs of their own, which the registry cannot move. */
const UNMOVABLE = ["$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"];

/** Names of the `$defs` entries a schema refers to. */
function refNames(schema: Schema): string[] {
  const names: string[] = [];
  forEachSchema(schema, (node) => {
    if (typeof node.$ref === "string") names.push(refName(node.$ref)!);
  });
  return names;
}

/**
 * Points every `#/$defs/<name>` ref of the (annotation-free, already copied) schema at the entry in
 * the namespace at `base` (changing it in place; `""`: only checks). False, and the schema left as
 * it is, when a ref has another form, names no entry of `defs` (when given: the namespace may hold
 * an entry of that name from another tool, which the server would not see), or a node has a keyword
 * of UNMOVABLE.
 */
function linkRefs(schema: Schema, base: string, defs?: Record<string, unknown>): boolean {
  const refs: Schema[] = [];
  let movable = true;
  forEachSchema(schema, (node) => {
    if (UNMOVABLE.some((keyword) => node[keyword] !== undefined)) movable = false;
    if (node.$ref === undefined) return;
    const name = typeof node.$ref === "string" ? refName(node.$ref) : undefined;
    if (name === undefined || (defs !== undefined && !Object.hasOwn(defs, name))) movable = false;
    else refs.push(node);
  });
  if (!movable) return false;
  if (base !== "") for (const node of refs) node.$ref = base + encodeURIComponent(refName(node.$ref as string)!);
  return true;
}

/** The schema without annotations at any depth (a copy; values such as `enum` or `const` stay as they are). */
function withoutAnnotations(schema: Schema): Schema {
  return mapSchema(schema, (node) => {
    for (const keyword of Object.keys(node)) if (isAnnotation(keyword)) delete node[keyword];
    return node;
  }) as Schema;
}
