/**
 * A JSON Schema (2020-12, as the IR normalizes every spec version) as a TypeScript type, for the
 * project's named types and tool types: first a small tree (so unions, intersections and arrays
 * are parenthesized and deduplicated by structure), then written as the text of a statement of a
 * SourceFileStructure (text-writer.ts, ts-morph.ts) — objects as indented blocks with a doc comment
 * per property — or as one line where a structure needs a type text.
 *
 * The tree holds only keywords, JSON-escaped literals, property keys (propertyKey) and the names
 * `refName` gives; doc text goes through docText. Unsupported keywords (`not`, `if`,
 * `patternProperties`) loosen the type, never tighten it.
 */
import type { JsonSchema } from "../../../shared/contract.js";
import { docText, propertyKey } from "./schema-to-ts.js";
import { TextWriter } from "./text-writer.js";

/** Value types a `Record<string, T>` keeps: they cannot refer back to the type being declared. */
const PRIMITIVE = new Set(["unknown", "string", "number", "boolean", "null", "never"]);

type Obj = Record<string, unknown>;

/** A type expression. */
export type TypeNode =
  | { kind: "text"; text: string }
  | { kind: "union"; members: TypeNode[] }
  | { kind: "intersection"; members: TypeNode[] }
  | { kind: "array"; element: TypeNode }
  | { kind: "tuple"; items: TypeNode[] }
  | { kind: "record"; value: TypeNode }
  | { kind: "object"; properties: PropertyNode[]; index?: TypeNode };

/** One property of an object type. */
export interface PropertyNode {
  key: string;
  optional: boolean;
  type: TypeNode;
  docs: string[];
}

const UNKNOWN: TypeNode = { kind: "text", text: "unknown" };
const text = (value: string): TypeNode => ({ kind: "text", text: value });

/** Deepest inline nesting followed; below it a value is `unknown` (named types end recursion first). */
const MAX_DEPTH = 32;

/** The doc lines of a schema: its description (else title), and `@deprecated` when it is. */
export function schemaDocs(schema: JsonSchema | undefined): string[] {
  if (schema === undefined || typeof schema !== "object") return [];
  const s = schema as Obj;
  const prose = typeof s.description === "string" ? s.description : typeof s.title === "string" ? s.title : "";
  const lines = prose.trim() ? [docText(prose)] : [];
  if (s.deprecated === true) lines.push("@deprecated");
  return lines;
}

/** The tree of a schema's type; `$ref: "#/$defs/X"` becomes `refName("X")`. */
export function typeNode(schema: JsonSchema | undefined, refName: (def: string) => string, depth = 0): TypeNode {
  if (schema === undefined || schema === true) return UNKNOWN;
  if (schema === false) return text("never");
  if (depth > MAX_DEPTH) return UNKNOWN;
  const s = schema as Obj;
  const next = (sub: unknown) => typeNode(sub as JsonSchema, refName, depth + 1);
  if (s.const !== undefined) return literal(s.const);
  if (Array.isArray(s.enum)) return union(s.enum.map(literal));
  const parts: TypeNode[] = [];
  if (typeof s.$ref === "string") parts.push(s.$ref.startsWith("#/$defs/") ? text(refName(s.$ref.slice(8))) : UNKNOWN);
  if (Array.isArray(s.allOf)) parts.push(...s.allOf.map(next));
  for (const key of ["anyOf", "oneOf"] as const)
    if (Array.isArray(s[key]) && (s[key] as unknown[]).length > 0) parts.push(union((s[key] as unknown[]).map(next)));
  let types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? (s.type as string[]) : [];
  // `type: object` beside a composition or $ref only restates it.
  const bareObject = s.properties === undefined && s.additionalProperties === undefined;
  if (parts.length > 0 && bareObject && types.length === 1 && types[0] === "object") types = [];
  if (types.length > 0) parts.push(union(types.map((type) => typeOf(type, s, next))));
  else if (parts.length === 0) {
    // `required` alone (a branch of an object's `anyOf`, such as an output schema's fallback) names an object's keys.
    if (s.properties !== undefined || s.additionalProperties !== undefined || Array.isArray(s.required))
      parts.push(objectNode(s, next));
    else if (s.items !== undefined || s.prefixItems !== undefined) parts.push(typeOf("array", s, next));
  }
  return intersection(parts);
}

function typeOf(type: string, s: Obj, next: (sub: unknown) => TypeNode): TypeNode {
  switch (type) {
    case "string":
      return text("string");
    case "integer":
    case "number":
      return text("number");
    case "boolean":
      return text("boolean");
    case "null":
      return text("null");
    case "array":
      if (Array.isArray(s.prefixItems)) return { kind: "tuple", items: s.prefixItems.map(next) };
      return { kind: "array", element: s.items === undefined ? UNKNOWN : next(s.items) };
    case "object":
      return objectNode(s, next);
    default:
      return UNKNOWN;
  }
}

function objectNode(s: Obj, next: (sub: unknown) => TypeNode): TypeNode {
  const properties = (s.properties !== null && typeof s.properties === "object" ? s.properties : {}) as Obj;
  const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]) : []);
  const extra = s.additionalProperties;
  const names = Object.keys(properties);
  // A required name the schema does not declare must still be there, with any value.
  for (const name of required) if (typeof name === "string" && !Object.hasOwn(properties, name)) names.push(name);
  const value = extra === undefined || extra === true ? UNKNOWN : extra === false ? undefined : next(extra);
  if (names.length === 0) return value === undefined ? text("Record<string, never>") : { kind: "record", value };
  const members = names.map(
    (name): PropertyNode => ({
      key: propertyKey(name),
      optional: !required.has(name),
      type: Object.hasOwn(properties, name) ? next(properties[name]) : UNKNOWN,
      docs: Object.hasOwn(properties, name) ? schemaDocs(properties[name] as JsonSchema) : [],
    }),
  );
  // Other names are allowed only when the schema says so; each declared property must fit the
  // index signature, so beside properties it takes any value.
  const index = extra === undefined || extra === false ? undefined : names.length > 0 ? UNKNOWN : value;
  return { kind: "object", properties: members, ...(index ? { index } : {}) };
}

function literal(value: unknown): TypeNode {
  if (value === null) return text("null");
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return text(JSON.stringify(value));
  return UNKNOWN;
}

/** A union: nested unions flattened, duplicates dropped, `unknown` absorbing the rest. */
export function union(members: TypeNode[]): TypeNode {
  // One member that is not a union is itself (most schemas have one type): no arrays to build.
  if (members.length === 1 && members[0]!.kind !== "union") return isUnknown(members[0]!) ? UNKNOWN : members[0]!;
  const flat = members.flatMap((member) => (member.kind === "union" ? member.members : [member]));
  if (flat.some(isUnknown)) return UNKNOWN;
  const unique = dedupe(flat);
  if (unique.length === 0) return text("never");
  return unique.length === 1 ? unique[0]! : { kind: "union", members: unique };
}

/**
 * An intersection: duplicates dropped, and members that add nothing — `unknown`, and "any object"
 * (`Record<string, unknown>`, what is left of a member whose properties are all read-only on the
 * request side) beside other members.
 */
export function intersection(members: TypeNode[]): TypeNode {
  // As in union: one member that is not an intersection is itself.
  if (members.length === 1 && members[0]!.kind !== "intersection")
    return isUnknown(members[0]!) ? UNKNOWN : members[0]!;
  const flat = members.flatMap((member) => (member.kind === "intersection" ? member.members : [member]));
  const anyObject = (member: TypeNode) => member.kind === "record" && isUnknown(member.value);
  const typed = flat.filter((member) => !isUnknown(member));
  const unique = dedupe(typed.some((member) => !anyObject(member)) ? typed.filter((m) => !anyObject(m)) : typed);
  if (unique.length === 0) return UNKNOWN;
  return unique.length === 1 ? unique[0]! : { kind: "intersection", members: unique };
}

function isUnknown(node: TypeNode): boolean {
  return node.kind === "text" && node.text === "unknown";
}

/** Members without repeats of a name, keyword or literal (structures are kept: comparing them costs more than it saves). */
function dedupe(members: TypeNode[]): TypeNode[] {
  const seen = new Set<string>();
  return members.filter((member) => {
    if (member.kind !== "text") return true;
    const key = member.text;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether a node is written as one word (no operator needs parentheses around it). */
function isAtom(node: TypeNode): boolean {
  return node.kind !== "union" && node.kind !== "intersection";
}

/** Each node's one-line text, once: deduplication and line breaking ask for it at every level. */
const lines = new WeakMap<TypeNode, string>();

/** The type on one line, without doc comments (for a structure's type text). */
export function oneLine(node: TypeNode): string {
  let line = lines.get(node);
  if (line === undefined) lines.set(node, (line = lineOf(node)));
  return line;
}

function lineOf(node: TypeNode): string {
  switch (node.kind) {
    case "text":
      return node.text;
    case "union":
      return node.members.map(oneLine).join(" | ");
    case "intersection":
      return node.members
        .map((member) => (member.kind === "union" ? `(${oneLine(member)})` : oneLine(member)))
        .join(" & ");
    case "array":
      return node.element.kind === "text" ? `${node.element.text}[]` : `Array<${oneLine(node.element)}>`;
    case "tuple":
      return `[${node.items.map((item) => `${oneLine(item)}?`).join(", ")}]`;
    case "record":
      // `Record` is an alias, which TypeScript expands eagerly: a named type whose values are itself
      // (`type Json = … | Record<string, Json>`) would be circular (TS2456); an index signature is not.
      return PRIMITIVE.has(oneLine(node.value))
        ? `Record<string, ${oneLine(node.value)}>`
        : `{ [key: string]: ${oneLine(node.value)} }`;
    case "object": {
      const members = node.properties.map((p) => `${p.key}${p.optional ? "?" : ""}: ${oneLine(p.type)};`);
      if (node.index) members.push(`[key: string]: ${oneLine(node.index)};`);
      return `{ ${members.join(" ")} }`;
    }
  }
}

/** Longest union written on one line by {@link writeType}. */
const UNION_LINE_MAX = 80;

const multiLine = new WeakMap<TypeNode, boolean>();

/** Whether writeType spreads the node over several lines. */
function isMultiLine(node: TypeNode): boolean {
  if (node.kind === "text") return false;
  let answer = multiLine.get(node);
  if (answer === undefined) multiLine.set(node, (answer = spreads(node)));
  return answer;
}

function spreads(node: TypeNode): boolean {
  switch (node.kind) {
    case "text":
    case "record":
      return false;
    case "object":
      return node.properties.length > 0;
    case "array":
      return isMultiLine(node.element);
    case "tuple":
      return node.items.some(isMultiLine);
    case "union":
      return node.members.some(isMultiLine) || oneLine(node).length > UNION_LINE_MAX;
    case "intersection":
      return node.members.some(isMultiLine);
  }
}

/** Longest line of doc text before it is wrapped at a space (spec prose often is one long line). */
const DOC_LINE_MAX = 100;

/** A line of prose wrapped at spaces to at most DOC_LINE_MAX characters (a longer word stays whole). */
function wrapLine(line: string): string[] {
  if (line.length <= DOC_LINE_MAX) return [line];
  const out: string[] = [];
  let current = "";
  // A method and its path (`PUT /books/{isbn}`) stay on one line.
  const words = line.split(" ").reduce<string[]>((list, word) => {
    if (word.startsWith("/") && list.length > 0 && /^\(?[A-Z]+$/.test(list.at(-1)!))
      list[list.length - 1] += ` ${word}`;
    else list.push(word);
    return list;
  }, []);
  for (const word of words) {
    if (current !== "" && current.length + 1 + word.length > DOC_LINE_MAX) {
      out.push(current);
      current = word;
    } else current = current === "" ? word : `${current} ${word}`;
  }
  out.push(current);
  return out;
}

/** Writes doc lines as a JSDoc block (one line when short). */
function writeDocs(writer: TextWriter, docs: readonly string[]): void {
  if (docs.length === 0) return;
  // One short line (most property docs): the block below would give the same one-line comment.
  const only = docs.length === 1 ? docs[0]!.trimEnd() : undefined;
  if (only !== undefined && only.length <= 90 && !only.includes("\n")) {
    writer.writeLine(`/** ${only} */`);
    return;
  }
  const lines = docs
    .join("\n\n")
    .split(/\r?\n/)
    .flatMap((line) => wrapLine(line.trimEnd()));
  if (lines.length === 1 && lines[0]!.length <= 90) {
    writer.writeLine(`/** ${lines[0]} */`);
    return;
  }
  writer.writeLine("/**");
  for (const line of lines) writer.writeLine(line.trim() === "" ? " *" : ` * ${line.trimEnd()}`);
  writer.writeLine(" */");
}

/** Writes the members of an object type, one per line, each with its doc comment. */
function writeMembers(writer: TextWriter, node: Extract<TypeNode, { kind: "object" }>): void {
  for (const property of node.properties) {
    writeDocs(writer, property.docs);
    writeTyped(writer, `${property.key}${property.optional ? "?" : ""}:`, property.type);
    writer.write(";").newLine();
  }
  if (node.index) {
    writeTyped(writer, "[key: string]:", node.index);
    writer.write(";").newLine();
  }
}

/** Writes `<prefix> <type>`; a union spread over lines starts on the next line. */
function writeTyped(writer: TextWriter, prefix: string, node: TypeNode): void {
  writer.write(node.kind === "union" && isMultiLine(node) ? prefix : `${prefix} `);
  writeType(writer, node);
}

/** Writes a type: objects as indented blocks, long unions one member per line. */
function writeType(writer: TextWriter, node: TypeNode): void {
  if (!isMultiLine(node)) {
    writer.write(oneLine(node));
    return;
  }
  switch (node.kind) {
    case "object":
      writer.inlineBlock(() => writeMembers(writer, node));
      return;
    case "array":
      writer.write("Array<");
      writeType(writer, node.element);
      writer.write(">");
      return;
    case "tuple":
      writer.write("[");
      node.items.forEach((item, i) => {
        if (i > 0) writer.write(", ");
        writeType(writer, item);
        writer.write("?");
      });
      writer.write("]");
      return;
    case "intersection":
      node.members.forEach((member, i) => {
        if (i > 0) writer.write(" & ");
        if (!isAtom(member)) writer.write("(");
        writeType(writer, member);
        if (!isAtom(member)) writer.write(")");
      });
      return;
    case "union": {
      // Each member on a line of its own, one level in: `| "a"`.
      writer.indented(writer.indentation + 1, () => {
        for (const member of node.members) {
          writer.newLine().write("| ");
          writeType(writer, member);
        }
      });
      return;
    }
    default:
      writer.write(oneLine(node));
  }
}

/**
 * `export interface <name> { … }` for an object type with properties, else `export type <name> = …;`,
 * with its doc comment: the text of a statement of a SourceFileStructure (text-writer.ts). (Text
 * rather than an InterfaceDeclarationStructure because ts-morph prints a structure's multi-line type
 * with a hanging indent; this keeps nested objects indented as blocks without a formatter.)
 */
export function typeDeclaration(name: string, node: TypeNode, docs: readonly string[]): string {
  const writer = new TextWriter();
  writeDocs(writer, docs);
  if (node.kind === "object" && node.properties.length === 0 && !node.index) {
    writer.writeLine(`export interface ${name} {}`);
  } else if (node.kind === "object") {
    writer.write(`export interface ${name} `).inlineBlock(() => writeMembers(writer, node));
    writer.newLine();
  } else {
    writeTyped(writer, `export type ${name} =`, node);
    writer.write(";").newLine();
  }
  return writer.toString();
}
