/**
 * Whether a JSON Schema accepts a value, for the contract tests' sample values (sample-value.ts):
 * ajv configured like the generated server's validator (runtime/src/validation.ts: 2020-12,
 * formats on, own properties only), errors aside.
 *
 * Compiling is what costs here, not validating (each validator runs a few times at most), and a big
 * API repeats the same small schemas in hundreds of tools (GitHub: 11,894 input properties, 1,429
 * distinct). So:
 * - each distinct schema is compiled once, found by its JSON text without annotations (the
 *   `description`s that make most parameters differ; ajv ignores them, see ANNOTATIONS) and the
 *   `$defs` it resolves against, not once per schema object;
 * - a plain object schema (only `type: "object"`, `properties`, `required`, a boolean
 *   `additionalProperties`, annotations; no `$defs` in play) is checked property by property, each property's schema
 *   through the same cache. Those keywords are independent conditions on the object's own keys, so
 *   the answer is ajv's for the whole schema; anything else goes to ajv whole.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { getOwn, isRecord, type JsonSchema } from "../contract.js";
import { mapSchema } from "../schema-walk.js";

type Schema = Record<string, unknown>;
type Check = (value: unknown) => boolean;

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/**
 * Keywords that never change ajv's answer with the options used here (no `useDefaults`, `strict`
 * off: unknown keywords such as OpenAPI's `example` are ignored), and extension keywords (`x-…`).
 */
const ANNOTATIONS = new Set([
  "title",
  "description",
  "$comment",
  "examples",
  "example",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
const isAnnotation = (keyword: string): boolean => ANNOTATIONS.has(keyword) || keyword.startsWith("x-");

/** The keywords of a schema checked property by property (see the module comment), annotations aside. */
const SPLIT_KEYWORDS = new Set(["type", "properties", "required", "additionalProperties"]);

/** A plain object schema's conditions. */
interface ObjectParts {
  properties: Record<string, JsonSchema>;
  required: string[];
  /** `additionalProperties: false`. */
  closed: boolean;
  /** `type: "object"`: other values are refused (without it, they are accepted). */
  typed: boolean;
}

const ALWAYS: Check = () => true;
const NEVER: Check = () => false;

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
  /** Compiled validators by schema text + `$defs` identity (null: ajv could not compile it). */
  private readonly compiled = new Map<string, ValidateFunction | null>();
  /** Checks by `$defs` object (or NO_DEFS), then by schema object. */
  private readonly checks = new WeakMap<object, WeakMap<object, Check>>();
  private readonly defsIds = new WeakMap<object, number>();
  private nextDefsId = 0;
  private readonly noDefs = {};

  constructor() {
    addFormats(this.ajv);
  }

  /** How many validators ajv compiled so far (distinct schemas; for tests and measurements). */
  get compiledSchemas(): number {
    let count = 0;
    for (const validate of this.compiled.values()) if (validate) count += 1;
    return count;
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
    // Split only where no `$defs` are in play: each property that refers to them would compile every
    // entry it reaches again (MS Graph's bodies reach hundreds), where the whole schema compiles them once.
    const parts = schema.$defs === undefined && root.$defs === undefined ? objectParts(schema) : undefined;
    if (parts) return (value) => this.objectAccepts(parts, value, root);
    const validate = this.validator(schema, defs);
    return validate ? (value) => validate(value) === true : ALWAYS;
  }

  private objectAccepts(parts: ObjectParts, value: unknown, root: Schema): boolean {
    if (!isRecord(value)) return !parts.typed;
    for (const name of parts.required) if (!Object.hasOwn(value, name)) return false;
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(parts.properties, key)) {
        if (parts.closed) return false;
        continue;
      }
      const property = parts.properties[key];
      const check =
        property === true || property === undefined
          ? ALWAYS
          : property === false
            ? NEVER
            : this.checkFor(property as Schema, root);
      if (!check(getOwn(value, key))) return false;
    }
    return true;
  }

  /**
   * The compiled validator of `schema`, compiled once per distinct text. `defs` are attached when the
   * schema has `$ref`s and no `$defs` of its own; they are then part of the key (by identity).
   */
  private validator(schema: Schema, defs: object): ValidateFunction | null {
    const bare = withoutAnnotations(schema);
    const text = JSON.stringify(bare);
    const attach = defs !== this.noDefs && schema.$defs === undefined && text.includes('"$ref"');
    const key = attach ? `${this.defsId(defs)}\n${text}` : text;
    let validate = this.compiled.get(key);
    if (validate !== undefined) return validate;
    try {
      validate = this.ajv.compile(attach ? { ...bare, $defs: defs } : bare);
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

/** The schema without annotations at any depth (a copy; values such as `enum` or `const` stay as they are). */
function withoutAnnotations(schema: Schema): Schema {
  return mapSchema(schema, (node) => {
    for (const keyword of Object.keys(node)) if (isAnnotation(keyword)) delete node[keyword];
    return node;
  }) as Schema;
}

/** The conditions of a plain object schema, or undefined when the schema has any other keyword. */
function objectParts(schema: Schema): ObjectParts | undefined {
  for (const key of Object.keys(schema)) if (!SPLIT_KEYWORDS.has(key) && !isAnnotation(key)) return undefined;
  const { type, properties = {}, required = [], additionalProperties } = schema;
  if (type !== undefined && type !== "object") return undefined;
  if (!isRecord(properties) || !Array.isArray(required) || !required.every((name) => typeof name === "string"))
    return undefined;
  if (additionalProperties !== undefined && typeof additionalProperties !== "boolean") return undefined;
  return {
    properties: properties as Record<string, JsonSchema>,
    required: required as string[],
    closed: additionalProperties === false,
    typed: type === "object",
  };
}
