import { type JsonSchema, setOwn } from "../../shared/contract.js";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import { childPointer, parsePointer, pointer, resolvePointer } from "../../shared/pointer.js";
import type { SpecVersion } from "../load/load-spec.js";
import { LIST_SCHEMA_KEYWORDS, MAP_SCHEMA_KEYWORDS, SINGLE_SCHEMA_KEYWORDS } from "../../shared/schema-walk.js";
import type { SchemaIR } from "./ir-types.js";

type SchemaObject = Record<string, unknown>;

/** OpenAPI-only or identity keywords that JSON Schema clients must not see. */
const DROPPED = new Set([
  "nullable",
  "x-nullable",
  "discriminator",
  "xml",
  "externalDocs",
  "example",
  "$schema",
  "$id",
  "id",
  "$anchor",
  "$dynamicAnchor",
  "$comment",
]);

/**
 * Formats kept in schemas: JSON Schema 2020-12's, OpenAPI's data type formats, and the others
 * ajv-formats knows. Any other `format` would make a strict validator refuse the whole schema.
 */
const KNOWN_FORMATS = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "idn-email",
  "hostname",
  "idn-hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "iri",
  "iri-reference",
  "uuid",
  "uri-template",
  "json-pointer",
  "relative-json-pointer",
  "regex",
  "int32",
  "int64",
  "float",
  "double",
  "byte",
  "binary",
  "password",
  "url",
  "iso-time",
  "iso-date-time",
  "json-pointer-uri-fragment",
]);

/** Keywords normalizeObject does more with than copy (every other keyword, unless DROPPED, is copied). */
const HANDLED: ReadonlySet<string> = new Set([
  ...SINGLE_SCHEMA_KEYWORDS,
  ...LIST_SCHEMA_KEYWORDS,
  ...MAP_SCHEMA_KEYWORDS,
  "items",
  "properties",
  "type",
  "format",
  "pattern",
  "required",
  "exclusiveMinimum",
  "exclusiveMaximum",
]);

/** A schema's `type` as a list (`"x"` → `["x"]`), empty when it has none. */
function typeList(type: unknown): string[] {
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
}

/** Whether a value of JSON type `type` can also be one of `types` (an integer is a number). */
function typesOverlap(type: string, types: readonly string[]): boolean {
  return (
    types.includes(type) ||
    (type === "integer" && types.includes("number")) ||
    (type === "number" && types.includes("integer"))
  );
}

const isObject = (value: unknown): value is SchemaObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Converts Swagger 2.0 / OpenAPI 3.0 / 3.1 schema objects into JSON Schema 2020-12.
 * Named targets of `$ref` become entries of a shared `$defs` registry (`#/$defs/<name>`), normalized
 * once; cycles are safe because a name is registered before its target is normalized.
 */
export class SchemaNormalizer {
  /** Normalized named schemas, in the order first referenced. */
  readonly defs = new Map<string, SchemaIR>();
  private readonly nameByPointer = new Map<string, string>();
  private readonly usedNames = new Set<string>();

  constructor(
    private readonly document: unknown,
    private readonly version: SpecVersion,
    private bag: DiagnosticBag,
  ) {}

  /** Normalizes one schema found at `at` (a JSON pointer used for diagnostics). */
  normalize(node: unknown, at: string): JsonSchema {
    if (typeof node === "boolean") return this.booleanSchema(node, at);
    if (node === null || typeof node !== "object" || Array.isArray(node)) return {};
    const input = node as SchemaObject;
    if (typeof input.$ref === "string") {
      const ref = { $ref: this.refToDef(input.$ref, at) };
      // Before 3.1, siblings of $ref are ignored by definition.
      if (this.version !== "3.1") return ref;
      const rest = this.normalizeObject({ ...input, $ref: undefined }, at);
      return Object.keys(rest).length === 0 ? ref : { ...ref, ...rest };
    }
    return this.normalizeObject(input, at);
  }

  /**
   * OpenAPI's `discriminator` picks the `oneOf`/`anyOf` branch by one property's value: a key of
   * `mapping` that names the branch, else the branch's schema name. JSON Schema has no such keyword,
   * and without it branches that differ only there (common: each extends the same base) all match,
   * so `oneOf` accepts no value at all. Each `$ref` branch therefore also requires the property to
   * be one of its values. A branch whose schema already fixes the property (`enum`/`const`) is
   * left as it is: the spec's own values win over implicit schema names.
   */
  private pinDiscriminator(input: SchemaObject, out: SchemaObject): void {
    const discriminator = input.discriminator as { propertyName?: unknown; mapping?: unknown } | undefined;
    const property = discriminator?.propertyName;
    if (typeof property !== "string" || property === "") return;
    const key = Array.isArray(out.oneOf) ? "oneOf" : Array.isArray(out.anyOf) ? "anyOf" : undefined;
    const original = key ? input[key] : undefined;
    if (!key || !Array.isArray(original)) return;
    const mapping =
      discriminator?.mapping && typeof discriminator.mapping === "object"
        ? Object.entries(discriminator.mapping as Record<string, unknown>)
        : [];
    out[key] = (out[key] as JsonSchema[]).map((branch, i) => {
      const ref = (original[i] as SchemaObject | undefined)?.$ref;
      if (typeof ref !== "string" || !ref.startsWith("#/")) return branch;
      const name = (parsePointer(ref) ?? []).at(-1) ?? "";
      const target = resolvePointer(this.document, ref) as SchemaObject | undefined;
      const own = (target?.properties as Record<string, SchemaObject> | undefined)?.[property];
      if (own && (own.enum !== undefined || own.const !== undefined)) return branch;
      const mapped = mapping.filter(([, to]) => to === ref || to === name).map(([value]) => value);
      const values = mapped.length > 0 ? mapped : [name];
      return {
        allOf: [branch, { type: "object", properties: { [property]: { enum: values } }, required: [property] }],
      };
    });
  }

  /** Name under `$defs` for a local pointer, normalizing the target the first time it is seen. */
  refToDef(ref: string, at: string): string {
    const existing = this.nameByPointer.get(ref);
    if (existing) return `#/$defs/${existing}`;
    const name = this.allocateName(ref);
    this.nameByPointer.set(ref, name);
    const target = resolvePointer(this.document, ref);
    const entry: SchemaIR = { name, pointer: ref, schema: {} };
    this.defs.set(name, entry);
    if (target === undefined) {
      // The load stage reports unresolved refs as errors; this is only reachable for refs it skipped.
      this.bag.warn(Codes.refUnresolved, `$ref "${ref}" points to nothing; it is treated as any value.`, at);
    } else {
      entry.schema = this.normalize(target, ref);
    }
    return `#/$defs/${name}`;
  }

  /**
   * The `$defs` names of the document's named schemas (3.x `components.schemas`, 2.0
   * `definitions`), in document order, each normalized (once: one the operations reference keeps
   * its name). Called after the operations, so the names those got do not depend on it.
   */
  componentDefs(): Array<{ component: string; def: string }> {
    const doc = this.document as Record<string, unknown> | undefined;
    const tokens = this.version === "2.0" ? ["definitions"] : ["components", "schemas"];
    const container = tokens.reduce<unknown>(
      (node, token) => (node !== null && typeof node === "object" ? (node as SchemaObject)[token] : undefined),
      doc,
    );
    if (container === null || typeof container !== "object" || Array.isArray(container)) return [];
    // The operations may have spelled a ref differently (percent-encoded): their names are found by the pointer's tokens.
    const byTokens = new Map<string, string>();
    for (const [ref, name] of this.nameByPointer) byTokens.set(JSON.stringify(parsePointer(ref) ?? [ref]), name);
    // Only types are made of the schemas no tool uses: what a tool schema would warn about does not apply.
    const bag = this.bag;
    this.bag = new DiagnosticBag();
    try {
      return Object.keys(container).map((component) => {
        const ref = pointer(...tokens, component);
        const known = byTokens.get(JSON.stringify([...tokens, component]));
        return { component, def: known ?? this.refToDef(ref, ref).slice("#/$defs/".length) };
      });
    } finally {
      this.bag = bag;
    }
  }

  private allocateName(ref: string): string {
    const tokens = parsePointer(ref) ?? [ref];
    const named =
      (tokens.length === 3 && tokens[0] === "components" && tokens[1] === "schemas") ||
      (tokens.length === 2 && tokens[0] === "definitions");
    const raw = named ? tokens[tokens.length - 1]! : tokens.filter((t) => t !== "components").join("_");
    const base = raw.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "") || "Schema";
    let name = base;
    for (let n = 2; this.usedNames.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    this.usedNames.add(name.toLowerCase());
    return name;
  }

  private normalizeObject(input: SchemaObject, at: string): SchemaObject {
    const out: SchemaObject = {};
    let dropped: string[] = [];
    for (const key in input) {
      if (!Object.hasOwn(input, key)) continue;
      const value = input[key];
      if (value === undefined || DROPPED.has(key) || key.startsWith("x-")) continue;
      // Most keywords are copied as they are: those are told apart with one look-up.
      if (!HANDLED.has(key)) {
        setOwn(out, key, value);
        continue;
      }
      // Only schema keywords and `pattern` use their pointer: it is not built for the others.
      const here = (): string => childPointer(at, key);
      if (key === "items") {
        // 2.0/3.0 allow only one schema; an array here is the draft-4 tuple form.
        if (Array.isArray(value)) out.prefixItems = value.map((s, i) => this.normalize(s, childPointer(here(), i)));
        else out.items = this.normalize(value, here());
      } else if (key === "additionalProperties" && typeof value === "boolean") {
        out[key] = value; // a boolean here is valid in every version
      } else if (SINGLE_SCHEMA_KEYWORDS.has(key)) out[key] = this.normalize(value, here());
      else if (LIST_SCHEMA_KEYWORDS.has(key) && Array.isArray(value))
        out[key] = value.map((s, i) => this.normalize(s, childPointer(here(), i)));
      else if (key === "properties" && value && typeof value === "object") {
        const properties = this.normalizeProperties(value as SchemaObject, here(), input);
        out.properties = properties.map;
        dropped = properties.dropped;
      } else if (MAP_SCHEMA_KEYWORDS.has(key) && value && typeof value === "object") {
        const map: SchemaObject = {};
        const base = here();
        for (const [name, sub] of Object.entries(value as SchemaObject))
          setOwn(map, name, this.normalize(sub, childPointer(base, name)));
        out[key === "definitions" ? "$defs" : key] = map;
      } else if (key === "type") {
        this.copyType(value, out);
      } else if (key === "format") {
        if (typeof value === "string" && KNOWN_FORMATS.has(value)) out.format = value;
      } else if (key === "pattern") {
        if (typeof value === "string" && this.patternCompiles(value, here())) out.pattern = value;
      } else if (key === "required") {
        if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
          if (value.length > 0) out.required = [...new Set(value)];
        }
      } else if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "boolean") {
        continue; // 3.0 boolean form, handled below.
      } else {
        setOwn(out, key, value);
      }
    }
    if (typeof input.format === "string" && !KNOWN_FORMATS.has(input.format)) {
      // Validators in strict mode (ajv's default) refuse unknown formats; the hint stays as prose.
      const note = `Format: ${input.format}.`;
      out.description = typeof out.description === "string" ? `${out.description} (${note})` : note;
    }
    if (dropped.length > 0 && Array.isArray(out.required)) {
      // A property whose schema is `false` cannot be sent, so it cannot be required either.
      const required = (out.required as string[]).filter((name) => !dropped.includes(name));
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
    if (input.example !== undefined && out.examples === undefined) out.examples = [input.example];
    if (Array.isArray(out.examples) === false && out.examples !== undefined) delete out.examples;
    this.convertExclusiveBounds(input, out);
    this.readContradictionAsUnion(out, at);
    this.pinDiscriminator(input, out);
    if (input.nullable === true || input["x-nullable"] === true) return this.makeNullable(out);
    return out;
  }

  /**
   * A boolean where a schema is expected. JSON Schema (OpenAPI 3.1) reads `true` as "anything" and
   * `false` as "nothing"; OpenAPI 3.0 and Swagger 2.0 allow only schema objects here (a boolean
   * only as `additionalProperties`), so such a document is read with a warning: `true` as `{}`,
   * `false` as `{ not: {} }`. Either way the tool schemas carry objects, which every client takes.
   */
  private booleanSchema(value: boolean, at: string): JsonSchema {
    if (this.version === "3.1") return value;
    this.bag.warn(
      Codes.booleanSchema,
      `A boolean schema (${value}) where OpenAPI ${this.version} allows only a schema object; it is read as ${value ? "{} (any value)" : "a value that cannot be sent"}.`,
      at,
      "Write a schema object here; to close an object, put `additionalProperties: false` next to `properties`, not inside it.",
    );
    return value ? {} : { not: {} };
  }

  /**
   * A `properties` map. A property whose schema is `true` accepts anything (`{}`); one whose schema
   * is `false` can never be present, so it is left out (and out of `required`), with a warning where
   * the version allows no booleans: written as `properties: { additionalProperties: false }`, it is
   * nearly always the keyword meant one level up. MCP clients refuse a whole `tools/list` when a
   * tool's root `properties` holds a boolean (the official SDK 1.x does), and a body's properties
   * become a tool's arguments.
   */
  private normalizeProperties(
    value: SchemaObject,
    at: string,
    owner: SchemaObject,
  ): { map: SchemaObject; dropped: string[] } {
    const map: SchemaObject = {};
    const dropped: string[] = [];
    for (const [name, sub] of Object.entries(value)) {
      const here = childPointer(at, name);
      if (typeof sub !== "boolean") setOwn(map, name, this.normalize(sub, here));
      else if (sub) setOwn(map, name, this.version === "3.1" ? {} : this.booleanSchema(true, here));
      else {
        dropped.push(name);
        if (this.version !== "3.1")
          this.bag.warn(
            Codes.booleanSchema,
            `Property "${name}" has the schema false, which OpenAPI ${this.version} does not allow; the property is left out (it could never be sent).`,
            here,
            name === "additionalProperties" && owner.additionalProperties === undefined
              ? "This looks like the keyword additionalProperties written inside properties: move it one level up."
              : "Write a schema object for the property, or remove it.",
          );
      }
    }
    return { map, dropped };
  }

  private copyType(value: unknown, out: SchemaObject): void {
    if (value === "file") {
      // Swagger 2.0 file uploads: binary content as a string.
      out.type = "string";
      out.format = "binary";
    } else if (typeof value === "string" || Array.isArray(value)) {
      out.type = value;
    }
  }

  /**
   * A `type` that no branch of the schema's `oneOf`/`anyOf` can have (`type: "null"` beside a string
   * and a number branch, `type: [X]` beside branches of other types) makes the schema
   * unsatisfiable as written: a conversion from OpenAPI 3.0 to 3.1 leaves it where the author meant
   * "one of these, or null". It is read as that union, the `type` becoming one more branch, with a
   * warning. Only when every branch's types are known (its own `type`, or a named schema's).
   */
  private readContradictionAsUnion(out: SchemaObject, at: string): void {
    // Most schemas have no union, or no type beside it: they are let go before any list is made.
    if (out.type === undefined || (!Array.isArray(out.oneOf) && !Array.isArray(out.anyOf))) return;
    const types = typeList(out.type);
    const keys = (["oneOf", "anyOf"] as const).filter((key) => Array.isArray(out[key]));
    if (types.length === 0 || keys.length !== 1) return;
    const key = keys[0]!;
    const branches = out[key] as JsonSchema[];
    const branchTypes = branches.map((branch) => this.typesOf(branch));
    if (branches.length === 0 || branchTypes.some((t) => t === undefined || t.length === 0)) return;
    if (branchTypes.some((t) => t!.some((type) => typesOverlap(type, types)))) return;
    delete out.type;
    out[key] = [...branches, { type: types.length === 1 ? types[0] : types }];
    this.bag.warn(
      Codes.typeContradictsUnion,
      `type ${JSON.stringify(types.length === 1 ? types[0] : types)} allows none of the ${key} branches (${branchTypes.map((t) => t!.join("|")).join(", ")}), so no value could match; it is read as one more branch: one of these, or ${types.join(" or ")}.`,
      childPointer(at, "type"),
      `Move the type into the ${key} as a branch (\`- type: ${types[0]}\`), or remove it.`,
    );
  }

  /** The JSON types a normalized schema declares (following `$defs` refs), undefined when it declares none. */
  private typesOf(schema: JsonSchema): string[] | undefined {
    let node: unknown = schema;
    for (let hops = 0; hops < 8 && isObject(node) && typeof node.$ref === "string" && node.type === undefined; hops++) {
      const name = node.$ref.startsWith("#/$defs/") ? node.$ref.slice("#/$defs/".length) : undefined;
      node = name === undefined ? undefined : this.defs.get(name)?.schema;
    }
    if (!isObject(node)) return undefined;
    const types = typeList(node.type);
    return types.length > 0 ? types : undefined;
  }

  /** OpenAPI 3.0 / Swagger 2.0: `exclusiveMinimum: true` qualifies `minimum`; 2020-12 uses a number. */
  private convertExclusiveBounds(input: SchemaObject, out: SchemaObject): void {
    if (input.exclusiveMinimum === true && typeof input.minimum === "number") {
      out.exclusiveMinimum = input.minimum;
      delete out.minimum;
    }
    if (input.exclusiveMaximum === true && typeof input.maximum === "number") {
      out.exclusiveMaximum = input.maximum;
      delete out.maximum;
    }
  }

  /** `nullable: true` → `null` allowed in `type` / `enum`, or `anyOf` with null when there is no type. */
  private makeNullable(out: SchemaObject): SchemaObject {
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (typeof out.type === "string") {
      out.type = [out.type, "null"];
      return out;
    }
    if (Array.isArray(out.type)) {
      if (!out.type.includes("null")) out.type = [...out.type, "null"];
      return out;
    }
    if (Array.isArray(out.enum)) return out;
    return { anyOf: [out, { type: "null" }] };
  }

  /** ajv compiles patterns with the `u` flag; a pattern JavaScript cannot compile is dropped, with a warning. */
  private patternCompiles(pattern: string, at: string): boolean {
    try {
      new RegExp(pattern, "u");
      return true;
    } catch (error) {
      this.bag.warn(
        Codes.patternInvalid,
        `pattern ${JSON.stringify(pattern)} is not a valid ECMAScript (unicode) regular expression; it is left out of the tool schema.`,
        at,
        "Rewrite the pattern in ECMAScript syntax (e.g. no possessive quantifiers or \\Z).",
      );
      return false;
    }
  }
}
