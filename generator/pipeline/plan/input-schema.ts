import {
  isFramingHeader,
  type BodyBinding,
  type JsonSchema,
  type ObjectJsonSchema,
  type ParameterBinding,
  setOwn,
} from "../../shared/contract.js";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import type { MediaIR, OperationIR, RequestBodyIR, SchemaIR } from "../ir/ir-types.js";
import { modelText } from "./describe.js";
import { checkMcpHeader } from "./mcp-header.js";
import { parameterKey } from "./credentials.js";
import {
  applyDirection,
  defsFor,
  resolveDirected,
  resolveSchema,
  schemaJsonLength,
  sharedCopy,
} from "./schema-tools.js";
import { mapSchema } from "../../shared/schema-walk.js";
import { emptyArrayMatters, forbidsEmpty, withoutEmpty, withoutEmptyContainer, withoutNull } from "./non-empty.js";

type Obj = Record<string, unknown>;

/**
 * Headers OpenAPI says are ignored as parameters (they are set by the request itself). `Content-Type`
 * is ignored only beside a body, whose media type decides it; an operation without one sends it as declared.
 */
const IGNORED_HEADERS = new Set(["accept", "authorization"]);

/** Why a header parameter is not an argument, or undefined when it is one. */
function headerLeftOut(name: string, op: OperationIR): { code: string; message: string } | undefined {
  const lower = name.toLowerCase();
  if (isFramingHeader(lower))
    return {
      code: Codes.framingHeaderParam,
      message: `Header parameter "${name}" is a framing or hop-by-hop header, which the HTTP client computes from the request; it is not an argument (a value from a caller could stall or split the upstream connection).`,
    };
  if (IGNORED_HEADERS.has(lower) || (lower === "content-type" && op.requestBody))
    return {
      code: Codes.paramIgnored,
      message: `Header parameter "${name}" is ignored, as OpenAPI specifies; the runtime sets it.`,
    };
  return undefined;
}

// Request media types we can send, best first: JSON (also under another name: `text/json`,
// `application/x-json`), forms, text, then any other named type, and a wildcard (`*/*`,
// `application/*+json`) only when nothing is named, since it says nothing about what the body is
// (a binary body offered as `application/octet-stream` and `*/*` is octet-stream).
const BODY_PREFERENCE = [
  (t: string) => t === "application/json",
  (t: string) => !t.includes("*") && (/^application\/[^;]*\+json/.test(t) || /^application\/json/.test(t)),
  (t: string) => !t.includes("*") && /^[^/;]+\/[^;]*json/.test(t),
  (t: string) => t === "application/x-www-form-urlencoded",
  (t: string) => t === "multipart/form-data",
  (t: string) => t.startsWith("text/") && !t.includes("*"),
  (t: string) => !t.includes("*"),
  (t: string) => /json/.test(t),
  (t: string) => t === "*/*",
];

/**
 * Size (JSON characters) of an input schema's `$defs` above which their descriptions and examples
 * are left out, to keep `tools/list` within what clients accept.
 */
export const INPUT_DEFS_BUDGET = 16_000;

/** A copy of a schema without `description`, `examples` and `title` at any depth. */
function stripProse(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    delete node.description;
    delete node.examples;
    delete node.title;
    return node;
  });
}

/** A copy of a schema whose descriptions are {@link modelText}s. */
function withModelText(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    if (typeof node.description === "string") {
      const text = modelText(node.description);
      if (text) node.description = text;
      else delete node.description;
    }
    return node;
  });
}

/**
 * A copy of a `$defs` block with each entry through `sharedCopy(entry, transform)`, in the same
 * order. A loop rather than `Object.fromEntries`: on MS Graph beta's blocks (272,203 entries over
 * 22,361 tools, up to 1,334 in one) fromEntries took ~10 s, this loop ~0.2–0.4 s.
 */
function mapDefs($defs: Obj, transform: (schema: JsonSchema) => JsonSchema): Obj {
  const out: Obj = {};
  for (const [name, def] of Object.entries($defs)) setOwn(out, name, sharedCopy(def as JsonSchema, transform));
  return out;
}

/** The planned input side of one tool. */
export interface InputPlan {
  inputSchema: ObjectJsonSchema;
  parameters: ParameterBinding[];
  body?: BodyBinding;
}

/** Picks the request media type the runtime sends. */
export function chooseBodyMedia(contents: MediaIR[]): MediaIR | undefined {
  for (const accept of BODY_PREFERENCE) {
    const match = contents.find((c) => accept(c.mediaType.toLowerCase()));
    if (match) return match;
  }
  return contents[0];
}

// A wildcard (`*/*`, `application/*`) names no format, and `Content-Type: application/*` is no
// media type a server can read: the schema decides, file content as `application/octet-stream`,
// anything else as JSON (what such APIs nearly always take); `text/*` is plain text.
/** The media type the runtime sends for the chosen one: a named type as named, a wildcard by the schema. */
export function sentMediaType(media: MediaIR, defs: Map<string, SchemaIR>): string {
  const essence = media.mediaType.split(";")[0]!.trim().toLowerCase();
  if (essence === "text/*") return "text/plain";
  if (essence !== "*/*" && essence !== "application/*") return media.mediaType;
  return media.schema !== undefined && isBinarySchema(media.schema, defs)
    ? "application/octet-stream"
    : "application/json";
}

/** A body whose root is a plain object with named properties can be lifted into the tool input. */
function liftableProperties(
  schema: JsonSchema,
  defs: Map<string, SchemaIR>,
): { properties: Obj; required: string[] } | undefined {
  const root = resolveDirected(schema, defs, "input");
  if (typeof root !== "object") return undefined;
  const composed = ["allOf", "anyOf", "oneOf", "not", "if", "patternProperties"].some((k) => root[k] !== undefined);
  const open = root.additionalProperties !== undefined && root.additionalProperties !== false;
  if (composed || open || root.type !== "object" || !root.properties || typeof root.properties !== "object")
    return undefined;
  const required = Array.isArray(root.required) ? (root.required as string[]) : [];
  // A required name the schema does not declare (oas-examples schema-enums) must still be sent:
  // lifting makes arguments of declared properties only, so such a body stays one argument.
  if (required.some((name) => !Object.hasOwn(root.properties as Obj, name))) return undefined;
  return { properties: root.properties as Obj, required };
}

/**
 * Builds the tool's input schema: one flat object whose properties are the parameters and the
 * body. Names are claimed in order path, query, header, cookie, body; a later name that collides
 * is prefixed with its location (`query_id`, `body_id`) and the rename is reported.
 */
export function planInput(
  op: OperationIR,
  defs: Map<string, SchemaIR>,
  bag: DiagnosticBag,
  filled: ReadonlyMap<string, string> = new Map(),
): InputPlan {
  const properties: Obj = {};
  const required: string[] = [];
  const parameters: ParameterBinding[] = [];
  const headerNames = new Set<string>();
  const claim = (wanted: string, location: string, at: string): string => {
    if (!(wanted in properties)) return wanted;
    let name = `${location}_${wanted}`;
    for (let n = 2; name in properties; n++) name = `${location}_${wanted}_${n}`;
    bag.info(
      Codes.nameCollision,
      `Argument "${wanted}" exists twice in this operation; the ${location} one is called "${name}".`,
      at,
    );
    return name;
  };

  const order = ["path", "query", "header", "cookie"];
  const sorted = [...op.parameters].sort((a, b) => order.indexOf(a.in) - order.indexOf(b.in));
  for (const param of sorted) {
    const leftOut = param.in === "header" ? headerLeftOut(param.name, op) : undefined;
    if (leftOut) {
      if (leftOut.code === Codes.framingHeaderParam) bag.warn(leftOut.code, leftOut.message, param.pointer);
      else bag.info(leftOut.code, leftOut.message, param.pointer);
      continue;
    }
    const scheme = filled.get(parameterKey(param.in, param.name));
    if (scheme !== undefined) {
      bag.info(
        Codes.paramIgnored,
        `The ${param.in} parameter "${param.name}" is what security scheme "${scheme}" sends; its credential fills it, so it is not an argument (and goes out once).`,
        param.pointer,
      );
      continue;
    }
    const argument = claim(param.name, param.in, param.pointer);
    let schema: JsonSchema = param.schema;
    if (param.deprecated && typeof schema === "object") schema = { ...schema, deprecated: true };
    if (param.mcpHeader !== undefined) {
      const header = checkMcpHeader(param.mcpHeader, schema, defs, headerNames, param.pointer, bag);
      // Clients read the property's type directly, so an annotated property is inlined, never a $ref.
      if (header)
        schema = {
          ...(resolveSchema(schema, defs) as Obj),
          ...(typeof schema === "object" && schema.description ? { description: schema.description } : {}),
          "x-mcp-header": header,
        };
    }
    if (param.required) schema = withoutNull(schema, defs);
    if (forbidsEmpty(param)) schema = withoutEmpty(schema, defs, emptyArrayMatters(param), param.in === "path");
    setOwn(properties, argument, schema);
    if (param.required) required.push(argument);
    parameters.push({
      argument,
      name: param.name,
      in: param.in,
      style: param.style,
      explode: param.explode,
      ...(param.allowReserved ? { allowReserved: true } : {}),
      required: param.required,
    });
  }

  const body = op.requestBody ? planBody(op, defs, properties, required, claim, bag) : undefined;
  let $defs = defsFor(Object.values(properties) as JsonSchema[], defs, "input");
  for (const [name, schema] of Object.entries(properties))
    setOwn(properties, name, withModelText(schema as JsonSchema));
  if ($defs) $defs = mapDefs($defs, withModelText);
  // A boolean schema is valid JSON Schema, but MCP clients refuse a whole tools/list when an argument's
  // schema is one (the official SDK 1.x does): `true` is `{}`, `false` its object form.
  for (const [name, schema] of Object.entries(properties))
    if (typeof schema === "boolean") setOwn(properties, name, schema ? {} : { not: {} });
  const inputSchema: ObjectJsonSchema = { type: "object", properties: properties as Record<string, JsonSchema> };
  if (required.length > 0) inputSchema.required = required;
  if ($defs && schemaJsonLength({ $defs }) - '{"$defs":}'.length > INPUT_DEFS_BUDGET) {
    // Deeply nested bodies (Kubernetes objects…) repeat pages of prose per tool; the top-level
    // arguments keep their descriptions, the named sub-schemas keep only their structure.
    $defs = mapDefs($defs, stripProse);
  }
  if ($defs) inputSchema.$defs = $defs;
  return { inputSchema, parameters, body };
}

function planBody(
  op: OperationIR,
  defs: Map<string, SchemaIR>,
  properties: Obj,
  required: string[],
  claim: (wanted: string, location: string, at: string) => string,
  bag: DiagnosticBag,
): BodyBinding | undefined {
  const requestBody = op.requestBody!;
  let media = chooseBodyMedia(requestBody.contents);
  if (!media) return undefined;
  // A form offered beside multipart cannot carry files: when the body has file fields, multipart.
  const multipartMedia = requestBody.contents.find((c) => /^multipart\/form-data/i.test(c.mediaType));
  if (
    /^application\/x-www-form-urlencoded/i.test(media.mediaType) &&
    multipartMedia &&
    hasFileFields(multipartMedia, defs)
  )
    media = multipartMedia;
  const mediaType = sentMediaType(media, defs);
  const structured = /json|x-www-form-urlencoded|multipart\/form-data/i.test(mediaType);
  const textual = mediaType.startsWith("text/") || /xml|yaml|csv/i.test(mediaType);
  const schema = media.schema ?? {};
  // Bodies whose schema requires properties: see bodyIsRequired. An optional one stays one
  // argument (with its own `required`), so that a call either sends a whole body or none.
  const requiresProperties = structured && hasRequiredProperties(schema, defs);
  const bodyRequired = bodyIsRequired(requestBody, requiresProperties);
  const lifted = structured && (bodyRequired || !requiresProperties) ? liftableProperties(schema, defs) : undefined;
  const multipart = /^multipart\/form-data/i.test(mediaType);
  const form = multipart || /^application\/x-www-form-urlencoded/i.test(mediaType);
  if (lifted) {
    const mapping: Record<string, string> = {};
    const files: string[] = [];
    for (const [name, sub] of Object.entries(lifted.properties)) {
      const argument = claim(name, "body", media.pointer);
      const file = multipart && isBinarySchema(sub as JsonSchema, defs);
      // In a form body an empty object or array is sent as nothing at all, so a required one must
      // not be empty (Stripe's billing portal configuration: required objects of optional fields).
      const field =
        form && bodyRequired && lifted.required.includes(name) ? withoutEmptyContainer(sub as JsonSchema, defs) : sub;
      setOwn(properties, argument, file ? fileArgument(sub as JsonSchema) : field);
      if (file) files.push(name);
      setOwn(mapping, argument, name);
      if (bodyRequired && lifted.required.includes(name)) required.push(argument);
    }
    return {
      kind: "properties",
      properties: mapping,
      mediaType,
      required: bodyRequired,
      ...(files.length > 0 ? { files } : {}),
    };
  }
  const argument = claim("body", "request", media.pointer);
  const binary = !structured && !textual;
  let bodySchema: JsonSchema = structured
    ? applyDirection(schema, "input", defs)
    : binary
      ? fileArgument(schema)
      : { type: "string" };
  const description = requestBody.description ?? "The request body.";
  if (typeof bodySchema === "object" && bodySchema.description === undefined)
    bodySchema = { ...bodySchema, description };
  setOwn(properties, argument, bodySchema);
  if (bodyRequired) required.push(argument);
  return { kind: "whole", argument, mediaType, required: bodyRequired, ...(binary ? { binary: true } : {}) };
}

/**
 * Whether the tool must send a body. OpenAPI's default is `required: false`, and many specs leave
 * it out on POST/PUT although the body's schema lists required properties; a model that then sends
 * some of the fields makes a request the API refuses. So: a body is required when the spec says
 * so, or when its schema requires properties and the spec does not say `required: false` in so
 * many words. (When it does, the body stays one optional argument with its `required` intact.)
 */
export function bodyIsRequired(
  requestBody: Pick<RequestBodyIR, "required" | "declaredOptional">,
  requiresProperties: boolean,
): boolean {
  return requestBody.required || (requiresProperties && requestBody.declaredOptional !== true);
}

/** Bound on the refs and compositions {@link hasRequiredProperties} follows. */
const REQUIRED_DEPTH = 8;

/**
 * Whether every instance of a body schema must have some property (not counting `readOnly` ones):
 * `required` at its root, in an `allOf` member, or in every `anyOf`/`oneOf` branch.
 */
export function hasRequiredProperties(schema: JsonSchema, defs: Map<string, SchemaIR>, depth = 0): boolean {
  if (depth > REQUIRED_DEPTH) return false;
  const root = resolveDirected(schema, defs, "input");
  if (typeof root !== "object") return false;
  if (Array.isArray(root.required) && root.required.length > 0) return true;
  if (
    Array.isArray(root.allOf) &&
    (root.allOf as JsonSchema[]).some((member) => hasRequiredProperties(member, defs, depth + 1))
  )
    return true;
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = root[key];
    if (
      Array.isArray(branches) &&
      branches.length > 0 &&
      (branches as JsonSchema[]).every((branch) => hasRequiredProperties(branch, defs, depth + 1))
    )
      return true;
  }
  return false;
}

/** Whether a media type's body schema has a property that carries file content. */
function hasFileFields(media: MediaIR, defs: Map<string, SchemaIR>): boolean {
  const lifted = media.schema === undefined ? undefined : liftableProperties(media.schema, defs);
  return Object.values(lifted?.properties ?? {}).some((sub) => isBinarySchema(sub as JsonSchema, defs));
}

/** Whether a body property carries file content (`format: binary`/`base64`, `contentMediaType`, 2.0 `file`). */
function isBinarySchema(schema: JsonSchema, defs: Map<string, SchemaIR>): boolean {
  const resolved = resolveSchema(schema, defs);
  if (typeof resolved !== "object") return false;
  if (resolved.type === "array" && resolved.items !== undefined) return false;
  return resolved.format === "binary" || resolved.contentMediaType !== undefined;
}

/**
 * The argument schema of file content: a string holding base64 or a `data:` URI, or a reference the
 * server reads (feature `uploads`, which every project with a file argument gets): `{"url"}`, or
 * `{"path"}` where the server allows a folder. Kept short: it is repeated for every file argument.
 */
function fileArgument(schema: JsonSchema): Obj {
  const original = typeof schema === "object" && typeof schema.description === "string" ? `${schema.description} ` : "";
  return {
    anyOf: [
      { type: "string", contentEncoding: "base64" },
      {
        type: "object",
        properties: { url: { type: "string" }, path: { type: "string" } },
        minProperties: 1,
        maxProperties: 1,
        additionalProperties: false,
      },
    ],
    description:
      `${original}File content: base64, a data: URI (data:<media type>;name=<file name>;base64,<data>), or {"url": "https://…"} the server fetches, or {"path": "…"} if it allows a local folder.`.trim(),
  };
}
