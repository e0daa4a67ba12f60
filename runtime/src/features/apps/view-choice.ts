/**
 * Which view an operation gets, chosen from its definition alone: a change (POST, PUT or PATCH
 * with a JSON body) or a DELETE → a form from the input schema; a read whose result is a list of
 * records → a table; a read whose result is one record → a card; anything else → none (the client
 * shows the JSON result). The choice is data ({@link ViewSpec}) that the generic view page renders.
 */
import type { JsonSchema, ToolDefinition } from "../../api/types.js";
import { isRecord } from "../../protocol/own.js";
import { identifyingRank, isLinkName, isReferenceName } from "./field-names.js";

/**
 * The three kinds of view, and `operation`: the view of a meta tool that calls one operation
 * (`call_operation`), which shows each call's result in the view of the operation called.
 */
export type ViewKind = "table" | "card" | "form" | "operation";

/** A scalar type as a view shows and parses it. */
export type FieldType = "string" | "number" | "integer" | "boolean";

/** One column of a table. */
export interface ViewColumn {
  key: string;
  /** Its type when the schema says it. */
  type?: FieldType;
}

/** One input of a form. */
export interface FormField {
  name: string;
  /** `json`: an object or a list of objects, typed as JSON; `list`: scalars, one per line. */
  type: FieldType | "json" | "list";
  required: boolean;
  description?: string;
  enum?: Array<string | number | boolean>;
  format?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

/** What a view page is given about its tool (JSON in the page). */
export interface ViewSpec {
  kind: ViewKind;
  tool: string;
  title: string;
  /** `GET /pets`: the operation, for the view's caption. */
  operation: string;
  /** Where a result in the fallback shape holds its body (`{ reason, body, problems }`, see result-notice.ts). */
  fallbackKey?: string;
  /** table: the path of the rows in the structured result, the columns, the cursor input (when it pages). */
  rows?: string[];
  columns?: ViewColumn[];
  cursorArgument?: string;
  /** form: the inputs and whether sending needs a confirmation first. */
  fields?: FormField[];
  destructive?: boolean;
  /** operation: how the meta tool names the operation and its arguments, and each operation's view by name. */
  operationCall?: { nameArgument: string; argumentsArgument: string };
  views?: Record<string, ViewSpec>;
}

/** Most columns a table shows (the rest is in each row's details): readable at 400 px. */
const MAX_COLUMNS = 5;
const SCALAR_TYPES: readonly string[] = ["string", "number", "integer", "boolean"];

/** The view of `tool`, or undefined when none fits its schemas. */
export function chooseView(tool: ToolDefinition): ViewSpec | undefined {
  const { method, path, body } = tool.http;
  const { fallbackKey } = tool.http.response;
  const base = {
    tool: tool.name,
    title: tool.title ?? tool.name,
    operation: `${method.toUpperCase()} ${path}`,
    ...(fallbackKey !== undefined && { fallbackKey }),
  };
  const sendsJson = body !== undefined && /\bjson\b/i.test(body.mediaType);
  if (method === "delete" || (["post", "put", "patch"].includes(method) && sendsJson)) {
    const destructive = method === "delete" || tool.annotations?.destructiveHint === true || tool.confirm === true;
    return { kind: "form", ...base, fields: formFields(tool), destructive };
  }
  if (method !== "get") return undefined;
  const success = successSchema(tool);
  if (!success) return undefined;
  const list = listOf(tool, success);
  if (list) return { kind: "table", ...base, ...list };
  return recordFields(tool, success, "").length > 0 ? { kind: "card", ...base } : undefined;
}

/** The inputs of a form: the input schema's properties but those that shape the result or page. */
function formFields(tool: ToolDefinition): FormField[] {
  const { inputSchema, http } = tool;
  const skipped = new Set(
    [http.response.fieldsArgument, http.pagination?.maxPagesArgument].filter((name) => name !== undefined),
  );
  const required = new Set(inputSchema.required ?? []);
  return Object.entries(inputSchema.properties ?? {})
    .filter(([name]) => !skipped.has(name))
    .map(([name, property]) => formField(name, resolved(tool, property), required.has(name)));
}

/** One form input from its property schema. */
function formField(name: string, schema: Record<string, unknown>, required: boolean): FormField {
  const type = schemaType(schema) ?? unionType(schema);
  const items = isRecord(schema.items) ? schemaType(schema.items) : undefined;
  const field: FormField = {
    name,
    type:
      type && SCALAR_TYPES.includes(type)
        ? (type as FieldType)
        : type === "array" && items && SCALAR_TYPES.includes(items)
          ? "list"
          : "json",
    required,
  };
  if (typeof schema.description === "string") field.description = schema.description;
  if (Array.isArray(schema.enum))
    field.enum = schema.enum.filter((v) => ["string", "number", "boolean"].includes(typeof v));
  if (typeof schema.format === "string") field.format = schema.format;
  if (typeof schema.minimum === "number") field.minimum = schema.minimum;
  if (typeof schema.maximum === "number") field.maximum = schema.maximum;
  if (schema.default !== undefined) field.default = schema.default;
  return field;
}

/** The schema of a successful result: the output schema's branch that is not the fallback for other responses. */
function successSchema(tool: ToolDefinition): Record<string, unknown> | undefined {
  const output = tool.outputSchema as Record<string, unknown> | undefined;
  if (!output) return undefined;
  const fallback = tool.http.response.fallbackKey;
  const branches = Array.isArray(output.anyOf) ? output.anyOf.filter(isRecord) : [output];
  return branches.find(
    (branch) => !(fallback !== undefined && isRecord(branch.properties) && fallback in branch.properties),
  );
}

/** The table of a result that is a list of records: where the rows are, their columns, how it pages. */
function listOf(
  tool: ToolDefinition,
  success: Record<string, unknown>,
): Pick<ViewSpec, "rows" | "columns" | "cursorArgument"> | undefined {
  const { wrapKey } = tool.http.response;
  const properties = isRecord(success.properties) ? success.properties : {};
  const rowsKey =
    wrapKey ??
    tool.http.pagination?.itemsPath?.[0] ??
    Object.keys(properties).find((key) => schemaType(resolved(tool, properties[key]!)) === "array");
  if (rowsKey === undefined) return undefined;
  const array = resolved(tool, properties[rowsKey] ?? {});
  if (schemaType(array) !== "array") return undefined;
  const items = resolved(tool, array.items ?? {});
  const fields = recordFields(tool, items, wrapKey === undefined ? `${rowsKey}[].` : "");
  if (fields.length === 0) return undefined;
  const columns = pickColumns(fields);
  const cursorArgument = tool.http.pagination?.cursorArgument;
  return { rows: [rowsKey], columns, ...(cursorArgument !== undefined && { cursorArgument }) };
}

/** A record's top-level fields: name, type when the schema says it, and whether it nests (object or list). */
interface RecordField {
  key: string;
  type?: string;
  nested: boolean;
  /** A short value: a number, a boolean, one of an enum, a date. */
  short: boolean;
}

/**
 * The fields of a record, from its schema's properties, else from the result's field list (the
 * `_fields` choices; compacted output schemas keep names without types): `prefix` is where the
 * record is in that list (`items[].`).
 */
function recordFields(tool: ToolDefinition, schema: Record<string, unknown>, prefix: string): RecordField[] {
  const listed = (tool.http.response.fields ?? [])
    .filter((path) => path.startsWith(prefix))
    .map((path) => path.slice(prefix.length));
  const nestedNames = new Set(listed.flatMap((path) => /^([^.[]+)(\[\]|\.)/.exec(path)?.[1] ?? []));
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const names = [...new Set([...Object.keys(properties), ...listed.filter((path) => !/[.[]/.test(path))])];
  return names.map((key) => {
    const schema = resolved(tool, properties[key] ?? {});
    const type = schemaType(schema);
    const short =
      (type !== undefined && type !== "string") || Array.isArray(schema.enum) || /^date/.test(String(schema.format));
    return {
      key,
      ...(type !== undefined && { type }),
      nested: nestedNames.has(key) || type === "object" || type === "array",
      short,
    };
  });
}

/**
 * A table's columns: the scalar fields, identifying ones first, then short values (numbers,
 * booleans, enums, dates), then other text, references and links last; at most {@link MAX_COLUMNS}.
 */
function pickColumns(fields: readonly RecordField[]): ViewColumn[] {
  const group = (field: RecordField): number => {
    if (identifyingRank(field.key) !== undefined) return 0;
    if (isLinkName(field.key)) return 4;
    if (isReferenceName(field.key)) return 3;
    return field.short ? 1 : 2;
  };
  return fields
    .filter((field) => !field.nested && (field.type === undefined || SCALAR_TYPES.includes(field.type)))
    .map((field, order) => ({ field, order, group: group(field) }))
    .sort((a, b) => a.group - b.group || a.order - b.order)
    .slice(0, MAX_COLUMNS)
    .map(({ field }) => ({ key: field.key, ...(field.type !== undefined && { type: field.type as FieldType }) }));
}

/** The JSON type a schema names (the first that is not null), if it names one. */
function schemaType(schema: Record<string, unknown>): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(schema.enum)) return typeof schema.enum.find((v) => v !== null) === "number" ? "number" : "string";
  return isRecord(schema.properties) ? "object" : undefined;
}

/** A union of scalars (`oneOf: [string, integer]`) as one input: text when one branch is a string, else the first branch's type. */
function unionType(schema: Record<string, unknown>): string | undefined {
  const branches = [schema.oneOf, schema.anyOf].find(Array.isArray)?.filter(isRecord) ?? [];
  const types = branches.map(schemaType).filter((type) => type !== "null");
  if (types.length === 0 || !types.every((type) => type !== undefined && SCALAR_TYPES.includes(type))) return undefined;
  return types.includes("string") ? "string" : types[0];
}

/** A property schema with a local `$ref` (`#/$defs/Name`) resolved against the input schema's `$defs`; `{}` for `true` or unknown refs. */
function resolved(tool: ToolDefinition, schema: JsonSchema | unknown): Record<string, unknown> {
  const defs = (tool.inputSchema as { $defs?: Record<string, unknown> }).$defs ?? {};
  let current: unknown = schema;
  for (let depth = 0; isRecord(current) && typeof current.$ref === "string" && depth < 8; depth++) {
    const name = /^#\/\$defs\/(.+)$/.exec(current.$ref)?.[1];
    current = name === undefined ? {} : defs[name];
  }
  return isRecord(current) ? current : {};
}
