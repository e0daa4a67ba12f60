/**
 * Input schemas rewritten for a client that cannot take them as they are (rules from its profile:
 * OpenAI's strict mode, Gemini's OpenAPI-3.0 subset). The rewrite keeps the meaning or loosens it:
 * `$ref`s are inlined, `oneOf` becomes `anyOf`, `allOf` members are merged, keywords the client does
 * not take move into the description, and a value the client's dialect cannot describe at all
 * (a free-form object or map, an array of anything, a union of types without `anyOf`, nesting past
 * the limit, recursion) is asked for as JSON text. Two rewrites change the wire form, and a
 * {@link Decoder} undoes them on the way in: JSON text is parsed, and a `null` the strict shape made
 * the model send for an optional property is dropped (so an optional property the API lets be null
 * can be left out but not set to null by such a client). The server then validates the decoded
 * arguments against the tool's full schema, as for every call.
 */
import { isRecord } from "../../protocol/own.js";
import type { JsonSchema, ObjectJsonSchema } from "../../api/types.js";

/** How one profile wants input schemas (see the `schema` section of profiles/clients/*.json). */
export interface SchemaRules {
  /** Keywords the client takes; others are removed (validation keywords are told in the description). */
  keywords: string[];
  /** Allowed `format` values per type (`string`, `number`, `integer`); another format moves to the description. */
  formats?: Record<string, string[]>;
  /** One type name per schema: `null` is written `nullable: true`, unions of types become `anyOf`. */
  singleType?: boolean;
  /** Every property required (strict mode): an optional one becomes nullable and `null` means absent. */
  allRequired?: boolean;
  /** Every object closed with `additionalProperties: false`. */
  closedObjects?: boolean;
  /** `enum` only on strings; other enums move to the description. */
  stringEnumsOnly?: boolean;
  /** Deepest nesting level of any value (the root object is level 1); an object or array whose members would go deeper is JSON text. */
  maxDepth?: number;
  /** Enum values in all, and properties in all; past them enums move to the description, objects become JSON text. */
  maxEnumValues?: number;
  maxProperties?: number;
}

/** How to undo the rewrite of one schema node on an argument value. */
export interface Decoder {
  /** The value was asked for as JSON text: parse it. */
  json?: true;
  /** Properties whose `null` means "absent" (made required by the strict shape). */
  dropNull?: string[];
  properties?: Record<string, Decoder>;
  items?: Decoder;
  /** Branches of a union that need decoding, each with the schema the client saw. */
  anyOf?: Array<{ schema: JsonSchema; decoder: Decoder }>;
}

/** A rewritten input schema and its decoder (undefined when the arguments need none). */
export interface ShapedSchema {
  schema: ObjectJsonSchema;
  decoder: Decoder | undefined;
}

/** Keywords that only annotate: dropped silently when the client does not take them. */
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$anchor",
  "$comment",
  "$defs",
  "definitions",
  "$dynamicAnchor",
  "deprecated",
  "readOnly",
  "writeOnly",
  "x-mcp-header",
  "contentMediaType",
  "contentEncoding",
  "discriminator",
  "xml",
  "externalDocs",
]);
/** Longest description text a rewrite adds to a node. */
const MAX_NOTE_CHARS = 600;

const TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];

interface Budget {
  enumValues: number;
  properties: number;
}

/** Rewrites a tool's input schema under `rules`. */
export function shapeInputSchema(schema: ObjectJsonSchema, rules: SchemaRules): ShapedSchema {
  const shaper = new Shaper(schema, rules);
  const { node, decoder } = shaper.shape(schema, 1, []);
  const root = isRecord(node) ? (node as ObjectJsonSchema) : { type: "object" as const };
  // The root stays an object whatever its keywords were (MCP and both model APIs require it).
  if (root.type !== "object") root.type = "object";
  if (rules.closedObjects && root.additionalProperties === undefined) root.additionalProperties = false;
  if (!root.properties) {
    root.properties = {};
    if (rules.allRequired) root.required = [];
  }
  return { schema: root, decoder: isEmpty(decoder) ? undefined : decoder };
}

/** A node in the client's form, and how to undo the rewrite on an argument value. */
interface Shaped {
  node: JsonSchema;
  decoder: Decoder;
}

/** One node being shaped: the node (rewritten in place), the input it came from, its type names, its depth, the `$ref`s being expanded, its decoder and the notes for its description. */
interface Shaping {
  readonly node: Record<string, unknown>;
  readonly input: Record<string, unknown>;
  readonly named: string[];
  readonly depth: number;
  readonly refs: string[];
  readonly decoder: Decoder;
  readonly notes: string[];
}

/** True for a schema that allows any value (`true`, or only annotations): asked for as JSON text. */
function isAnyValue(input: JsonSchema): boolean {
  if (input === true) return true;
  if (!isRecord(input)) return false;
  return (
    Object.keys(input).filter((key) => !ANNOTATIONS.has(key) && key !== "description" && key !== "title").length === 0
  );
}

class Shaper {
  private readonly allowed: Set<string>;
  private readonly budget: Budget;

  constructor(
    private readonly root: ObjectJsonSchema,
    private readonly rules: SchemaRules,
  ) {
    this.allowed = new Set(rules.keywords);
    this.budget = { enumValues: rules.maxEnumValues ?? Infinity, properties: rules.maxProperties ?? Infinity };
  }

  /**
   * The client's form of `input` at nesting `depth`; `refs` are the `$ref`s being expanded (recursion
   * guard). Steps: JSON text for any value, `$ref`s inlined, keywords the client lacks rewritten, types
   * split, then the object's properties, the array's items, the union's branches, and what is left told
   * in the description. A step that returns a shape ends there.
   */
  shape(input: JsonSchema, depth: number, refs: string[]): Shaped {
    if (isAnyValue(input)) return this.jsonText(isRecord(input) ? input : {}, "any JSON value");
    if (input === false || !isRecord(input)) return { node: input, decoder: {} };
    if (typeof input.$ref === "string") return this.shapeRef(input, input.$ref, depth, refs);
    const node = this.rewriteKeywords({ ...input }, refs);
    const mixed = this.splitTypes(node, input);
    if (mixed) return mixed;
    const named = typeList(node);
    const isObject =
      named.includes("object") ||
      (named.length === 0 && (isRecord(node.properties) || node.additionalProperties !== undefined));
    const isArray =
      named.includes("array") || (named.length === 0 && (node.items !== undefined || node.prefixItems !== undefined));
    // An object or array at the last level would put its members past it: the whole value is JSON text.
    if ((isObject || isArray) && depth >= (this.rules.maxDepth ?? Infinity))
      return this.jsonText(input, `nested deeper than ${this.rules.maxDepth} levels`);
    const shaping: Shaping = { node, input, named, depth, refs, decoder: {}, notes: [] };
    const ended =
      (isObject ? this.shapeObject(shaping) : undefined) ??
      (isArray ? this.shapeArray(shaping) : undefined) ??
      this.shapeAnyOf(shaping, isObject);
    if (ended) return ended;
    this.tellUnsupported(node, shaping.notes);
    return { node, decoder: shaping.decoder };
  }

  /** `$ref`: the definition, with the node's own keywords over it (JSON text when unknown or recursive). */
  private shapeRef(node: Record<string, unknown>, ref: string, depth: number, refs: string[]): Shaped {
    const target = this.resolve(ref);
    if (target === undefined || refs.includes(ref))
      return this.jsonText(node, refs.includes(ref) ? "a recursive structure" : "a value");
    const { $ref: _ref, ...rest } = node;
    return this.shape({ ...(isRecord(target) ? target : {}), ...rest }, depth, [...refs, ref]);
  }

  /** Keywords the client lacks, said another way: `allOf` merged, `oneOf` as `anyOf`, `const` as an enum. */
  private rewriteKeywords(node: Record<string, unknown>, refs: string[]): Record<string, unknown> {
    if (Array.isArray(node.allOf) && !this.allowed.has("allOf")) node = this.mergeAllOf(node, refs);
    if (Array.isArray(node.oneOf) && !this.allowed.has("oneOf")) {
      const oneOf = node.oneOf as unknown[];
      delete node.oneOf;
      node.anyOf = [...(Array.isArray(node.anyOf) ? node.anyOf : []), ...oneOf];
    }
    if (node.const !== undefined && !this.allowed.has("const")) {
      const value = node.const;
      delete node.const;
      node.enum = [value];
    }
    return node;
  }

  /** Unions of types: `anyOf` of single types where the client wants one type per schema, `null` as `nullable`. */
  private splitTypes(node: Record<string, unknown>, input: Record<string, unknown>): Shaped | undefined {
    if (!this.rules.singleType) return undefined;
    const types = typeList(node);
    if (types.filter((type) => type !== "null").length > 1) {
      if (!this.allowed.has("anyOf")) return this.jsonText(input, "a value of one of several types");
      delete node.type;
      node.anyOf = types.filter((type) => type !== "null").map((type) => ({ type }));
      if (types.includes("null")) node.nullable = true;
    } else if (types.length === 2 && types.includes("null")) {
      node.type = types.find((type) => type !== "null");
      node.nullable = true;
    }
    return undefined;
  }

  /** An object's properties, each shaped, required as the client wants; JSON text for a map or too many properties. */
  private shapeObject(shaping: Shaping): Shaped | undefined {
    const { node, input, named, depth, refs } = shaping;
    const properties = isRecord(node.properties) ? node.properties : {};
    const names = Object.keys(properties);
    const open =
      node.additionalProperties !== false && node.additionalProperties !== undefined ? true : names.length === 0;
    // A map or a free-form object: the closed dialects cannot name its keys.
    if (names.length === 0 && open && (this.rules.closedObjects || this.rules.singleType))
      return this.jsonText(input, "an object with keys of its own");
    if (names.length > this.budget.properties)
      return this.jsonText(input, "an object with more properties than the client takes");
    this.budget.properties -= names.length;
    const required = new Set(
      Array.isArray(node.required)
        ? (node.required as unknown[]).filter(
            (name): name is string => typeof name === "string" && names.includes(name),
          )
        : [],
    );
    this.shapeProperties(shaping, properties, names, required);
    if (named.length === 0) node.type = "object";
    const finalRequired = this.rules.allRequired ? names : names.filter((name) => required.has(name));
    if (finalRequired.length > 0 || this.rules.allRequired) node.required = finalRequired;
    else delete node.required;
    if (this.rules.closedObjects) node.additionalProperties = false;
    else if (isRecord(node.additionalProperties) || node.additionalProperties === true) {
      if (!this.allowed.has("additionalProperties")) delete node.additionalProperties;
      else if (isRecord(node.additionalProperties))
        node.additionalProperties = this.shape(node.additionalProperties, depth + 1, refs).node;
    }
    return undefined;
  }

  /** Shapes each property into `node.properties`; under `allRequired` an optional one takes `null` for absent. */
  private shapeProperties(
    shaping: Shaping,
    properties: Record<string, unknown>,
    names: string[],
    required: ReadonlySet<string>,
  ): void {
    const { node, depth, refs, decoder } = shaping;
    const shapedProperties: Record<string, JsonSchema> = {};
    const childDecoders: Record<string, Decoder> = {};
    const dropNull: string[] = [];
    for (const name of names) {
      const child = this.shape(properties[name] as JsonSchema, depth + 1, refs);
      let shaped = child.node;
      if (this.rules.allRequired && !required.has(name)) {
        // null stands for "absent" even where the API takes null: strict mode makes the model
        // fill every property, and a PATCH must not clear each field the model left alone.
        dropNull.push(name);
        shaped = withNull(shaped);
      }
      shapedProperties[name] = shaped;
      if (!isEmpty(child.decoder)) childDecoders[name] = child.decoder;
    }
    node.properties = shapedProperties;
    if (Object.keys(childDecoders).length > 0) decoder.properties = childDecoders;
    if (dropNull.length > 0) decoder.dropNull = dropNull;
  }

  /** An array's items shaped (tuples as a union of their members); JSON text for an array of anything in a closed dialect. */
  private shapeArray(shaping: Shaping): Shaped | undefined {
    const { node, input, named, depth, refs, decoder } = shaping;
    const items =
      isRecord(node.items) || node.items === true
        ? node.items
        : Array.isArray(node.prefixItems)
          ? { anyOf: node.prefixItems }
          : undefined;
    delete node.prefixItems;
    if (items === undefined) {
      if (this.rules.singleType || this.rules.closedObjects) return this.jsonText(input, "an array of any values");
    } else {
      const child = this.shape(items as JsonSchema, depth + 1, refs);
      node.items = child.node;
      if (!isEmpty(child.decoder)) decoder.items = child.decoder;
    }
    if (named.length === 0) node.type = "array";
    return undefined;
  }

  /** A union's branches shaped; constraint-only branches told, `null` branches as `nullable` in one-type dialects. */
  private shapeAnyOf(shaping: Shaping, isObject: boolean): Shaped | undefined {
    const { node, depth, refs, decoder, notes } = shaping;
    if (
      Array.isArray(node.anyOf) &&
      (node.type !== undefined || isObject) &&
      (node.anyOf as unknown[]).every((branch) => isRecord(branch) && constraintOnly(branch))
    ) {
      // Branches that only add constraints to a typed value ("one of these is required"): told, not kept.
      notes.push(`Also one of: ${compact(node.anyOf)}.`);
      delete node.anyOf;
    }
    if (Array.isArray(node.anyOf) && this.rules.singleType) {
      // `null` is a flag on the value in a one-type dialect, not a branch.
      const branches = node.anyOf as unknown[];
      const rest = branches.filter(
        (branch) => !(isRecord(branch) && branch.type === "null" && Object.keys(branch).length === 1),
      );
      if (rest.length < branches.length) {
        node.nullable = true;
        node.anyOf = rest;
      }
      if (rest.length === 1 && isRecord(rest[0]) && node.type === undefined) {
        const { anyOf: _anyOf, ...own } = node;
        return this.shape({ ...own, ...rest[0] }, depth, refs);
      }
    }
    if (Array.isArray(node.anyOf)) {
      const branches = (node.anyOf as JsonSchema[]).map((branch) => this.shape(branch, depth, refs));
      node.anyOf = branches.map((branch) => branch.node);
      const decoding = branches
        .filter((branch) => !isEmpty(branch.decoder))
        .map((branch) => ({ schema: branch.node, decoder: branch.decoder }));
      if (decoding.length > 0) decoder.anyOf = decoding;
    }
    return undefined;
  }

  /** Enums, formats and keywords the client does not take: removed, and told in the description. */
  private tellUnsupported(node: Record<string, unknown>, notes: string[]): void {
    if (Array.isArray(node.enum)) {
      const values = node.enum as unknown[];
      const strings = values.every((value) => typeof value === "string");
      if ((this.rules.stringEnumsOnly && !strings) || values.length > this.budget.enumValues) {
        notes.push(`One of: ${values.map((value) => JSON.stringify(value)).join(", ")}.`);
        delete node.enum;
      } else {
        this.budget.enumValues -= values.length;
        if (this.rules.stringEnumsOnly && node.type === undefined) node.type = "string";
      }
    }
    if (typeof node.format === "string" && this.rules.formats) {
      const allowed = this.rules.formats[typeof node.type === "string" ? node.type : ""] ?? [];
      if (!allowed.includes(node.format)) {
        notes.push(`Format: ${node.format}.`);
        delete node.format;
      }
    }
    for (const key of Object.keys(node)) {
      if (this.allowed.has(key) || node[key] === undefined) continue;
      if (!ANNOTATIONS.has(key) && !key.startsWith("x-") && key !== "nullable")
        notes.push(`${key}: ${compact(node[key])}.`);
      delete node[key];
    }
    if (node.nullable !== undefined && !this.allowed.has("nullable")) delete node.nullable;
    if (notes.length > 0) node.description = describe(node.description, notes.join(" "));
  }

  /** The node asked for as JSON text: a string whose description says what it holds. */
  private jsonText(original: Record<string, unknown>, what: string): Shaped {
    const { description: _description, ...shape } = original;
    const known = Object.keys(shape).length > 0 ? ` Its JSON Schema: ${compact(shape)}` : "";
    const node: Record<string, unknown> = {
      type: "string",
      description: describe(original.description, `JSON text of ${what}.${known}`),
    };
    // A value that may be null stays so (strict: a type list; one-type dialects: the nullable flag).
    if (typeList(original).includes("null") || original.nullable === true) {
      if (this.rules.singleType) node.nullable = true;
      else node.type = ["string", "null"];
    }
    return { node, decoder: { json: true } };
  }

  private resolve(ref: string): JsonSchema | undefined {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    if (!match) return undefined;
    const defs = this.root[match[1]!];
    const name = match[2]!.replace(/~1/g, "/").replace(/~0/g, "~");
    return isRecord(defs) && Object.hasOwn(defs, name) ? (defs[name] as JsonSchema) : undefined;
  }

  private mergeAllOf(node: Record<string, unknown>, refs: string[]): Record<string, unknown> {
    const { allOf, ...merged } = node;
    const properties: Record<string, unknown> = isRecord(merged.properties) ? { ...merged.properties } : {};
    const required = new Set(Array.isArray(merged.required) ? (merged.required as string[]) : []);
    for (let member of allOf as unknown[]) {
      for (let hops = 0; isRecord(member) && typeof member.$ref === "string" && hops < 16; hops++) {
        if (refs.includes(member.$ref)) break;
        const { $ref, ...rest } = member;
        member = { ...(this.resolve($ref as string) as Record<string, unknown> | undefined), ...rest };
      }
      if (!isRecord(member)) continue;
      if (Array.isArray(member.allOf)) member = this.mergeAllOf(member, refs);
      const part = member as Record<string, unknown>;
      if (isRecord(part.properties))
        for (const [name, schema] of Object.entries(part.properties)) properties[name] ??= schema;
      if (Array.isArray(part.required)) for (const name of part.required) required.add(name as string);
      for (const [key, value] of Object.entries(part))
        if (key !== "properties" && key !== "required" && merged[key] === undefined) merged[key] = value;
    }
    if (Object.keys(properties).length > 0) merged.properties = properties;
    if (required.size > 0) merged.required = [...required];
    return merged;
  }
}

/** A schema that only constrains (required keys, bounds), naming no type, shape or value of its own. */
function constraintOnly(node: Record<string, unknown>): boolean {
  return !["type", "properties", "items", "anyOf", "oneOf", "allOf", "enum", "const", "$ref"].some(
    (key) => node[key] !== undefined,
  );
}

/** The types a schema names (`type` as a string or a list). */
function typeList(node: Record<string, unknown>): string[] {
  if (typeof node.type === "string") return [node.type];
  return Array.isArray(node.type)
    ? (node.type as unknown[]).filter((type): type is string => typeof type === "string" && TYPES.includes(type))
    : [];
}

/** `schema` that also takes `null` (strict mode's way of saying "optional"). */
function withNull(schema: JsonSchema): JsonSchema {
  if (!isRecord(schema)) return schema;
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as JsonSchema[]).some((b) => isRecord(b) && b.type === "null")
      ? schema
      : { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  const types = typeList(schema);
  if (types.length === 0) return { anyOf: [schema, { type: "null" }] };
  const out: Record<string, unknown> = { ...schema, type: types.includes("null") ? types : [...types, "null"] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
  return out;
}

function isEmpty(decoder: Decoder): boolean {
  return (
    decoder.json === undefined &&
    decoder.dropNull === undefined &&
    decoder.properties === undefined &&
    decoder.items === undefined &&
    decoder.anyOf === undefined
  );
}

function compact(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_NOTE_CHARS ? `${text.slice(0, MAX_NOTE_CHARS)}…` : text;
}

function describe(description: unknown, note: string): string {
  return typeof description === "string" && description.length > 0 ? `${description}\n${note}` : note;
}

/**
 * Undoes the client's form on an argument value: JSON text parsed (text that does not parse is left
 * as it is, for validation to report), `null` of a property the strict shape made required dropped.
 */
export function decodeArguments(value: unknown, decoder: Decoder | undefined): unknown {
  if (!decoder) return value;
  if (decoder.json) {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  if (decoder.anyOf) {
    const branch = decoder.anyOf.find((candidate) => fits(value, candidate.schema));
    if (branch) return decodeArguments(value, branch.decoder);
  }
  if (Array.isArray(value) && decoder.items) return value.map((item) => decodeArguments(item, decoder.items));
  if (isRecord(value) && (decoder.properties || decoder.dropNull)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === null && decoder.dropNull?.includes(key)) continue;
      out[key] =
        decoder.properties && Object.hasOwn(decoder.properties, key)
          ? decodeArguments(item, decoder.properties[key])
          : item;
    }
    return out;
  }
  return value;
}

/** A quick structural test of which union branch a value was written for (type, required keys). */
function fits(value: unknown, schema: JsonSchema): boolean {
  if (!isRecord(schema)) return schema !== false;
  const types = typeList(schema);
  const actual =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "array"
        : typeof value === "number"
          ? Number.isInteger(value)
            ? "integer"
            : "number"
          : typeof value;
  if (types.length > 0 && !types.includes(actual) && !(actual === "integer" && types.includes("number"))) return false;
  if (isRecord(value) && Array.isArray(schema.required))
    return (schema.required as string[]).every((key) => Object.hasOwn(value, key));
  return true;
}
