import { readMcpOverrides, readTagExtensions, type McpOverrides } from "./mcp-extensions.js";
import { type FieldEncoding, type HttpMethod, isRecord, setOwn } from "../../shared/contract.js";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import { childPointer, pointer, resolvePointer } from "../../shared/pointer.js";
import type { LoadedSpec, SpecVersion } from "../load/load-spec.js";
import { buildParameter, collectionStyle } from "./parameters.js";
import { SchemaNormalizer } from "./schema-normalizer.js";
import { readRequirements, readSecuritySchemes } from "./security-schemes.js";
import type {
  ApiIR,
  MediaIR,
  OperationIR,
  ParameterIR,
  RequestBodyIR,
  ResponseIR,
  ServerIR,
  ServerVariableIR,
} from "./ir-types.js";

type Obj = Record<string, unknown>;

/** Methods in the order OpenAPI lists them; this order is the tool order within a path. */
const METHODS: HttpMethod[] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Follows `$ref` chains of non-schema objects (parameters, bodies, responses, path items). */
function deref(document: unknown, value: unknown, at: string): { value: Obj; pointer: string } | undefined {
  let current = value;
  let where = at;
  for (let hops = 0; hops < 32 && isRecord(current) && typeof current.$ref === "string"; hops++) {
    where = current.$ref;
    current = resolvePointer(document, current.$ref);
  }
  return isRecord(current) ? { value: current, pointer: where === at ? at : where } : undefined;
}

/** What the IR of every operation reads: the document, its version, its schema reader and the diagnostics. */
interface IrContext {
  readonly version: SpecVersion;
  readonly doc: Obj;
  readonly normalizer: SchemaNormalizer;
  readonly bag: DiagnosticBag;
}

/** One operation to build, where it is: its path item and the operation object, with their pointers. */
interface OperationSource extends IrContext {
  readonly path: string;
  readonly method: HttpMethod;
  /** The operation object, and its pointer. */
  readonly op: Obj;
  readonly opAt: string;
  /** The path item that holds it (its parameters apply too), and its pointer. */
  readonly item: Obj;
  readonly itemAt: string;
}

/**
 * Builds the IR from a loaded spec (stage 2 of the pipeline). A spec without operations is an
 * error (MG102: most often the wrong file, or a stub) unless `allowEmpty` asks for a server
 * without tools; then it is a warning.
 */
export function buildIR(spec: LoadedSpec, bag: DiagnosticBag, options: { allowEmpty?: boolean } = {}): ApiIR {
  const doc = spec.document;
  const normalizer = new SchemaNormalizer(doc, spec.version, bag);
  const context: IrContext = { version: spec.version, doc, normalizer, bag };
  const tagExtensions = readTagExtensions(doc, bag);
  const info = isRecord(doc.info) ? doc.info : {};
  const operations: OperationIR[] = [];
  const paths = isRecord(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const itemAt = pointer("paths", path);
    const item = deref(doc, rawItem, itemAt);
    if (!item) continue;
    for (const method of METHODS) {
      const rawOp = item.value[method];
      if (!isRecord(rawOp)) continue;
      const opAt = childPointer(itemAt, method);
      operations.push(
        withOverrides(
          buildOperation({ ...context, path, method, op: rawOp, opAt, item: item.value, itemAt }),
          readMcpOverrides(rawOp, opAt, tagsOf(rawOp), tagExtensions, bag),
        ),
      );
    }
  }
  if (operations.length === 0) {
    const report = options.allowEmpty ? bag.warn.bind(bag) : bag.error.bind(bag);
    report(
      Codes.noOperations,
      "The spec has no operations (no method under any path of `paths`): the server would have no tools.",
      "#/paths",
      options.allowEmpty
        ? "Add at least one operation under `paths`."
        : "Add operations under `paths`, check that this is the right file, or pass --allow-empty for a server without tools.",
    );
  }
  return {
    specVersion: spec.version,
    title: text(info.title) ?? "API",
    apiVersion: text(info.version) ?? "0.0.0",
    description: text(info.description),
    license: isRecord(info.license) ? text(info.license.name) : undefined,
    servers: buildServers(spec.version, doc),
    operations,
    // After the operations: the names they gave the schemas they reference stay as they were.
    components: normalizer.componentDefs(),
    schemas: normalizer.defs,
    securitySchemes: readSecuritySchemes(doc, spec.version, bag),
    security: readRequirements(doc.security, "#/security", bag),
  };
}

/** One operation of the document as the IR has it. */
function buildOperation(source: OperationSource): OperationIR {
  const { version, doc, normalizer, bag, path, method, op, opAt } = source;
  const { parameters, requestBody } = parametersAndBody(source);
  addUndeclaredPathParameters(path, opAt, parameters, bag);
  return {
    pointer: opAt,
    method,
    path,
    operationId: text(op.operationId),
    tags: tagsOf(op),
    summary: text(op.summary),
    description: text(op.description),
    deprecated: op.deprecated === true,
    parameters,
    requestBody,
    responses: buildResponses(version, doc, op, opAt, normalizer),
    security: readRequirements(op.security, childPointer(opAt, "security"), bag),
    ...(op["x-mcp-pagination"] !== undefined ? { paginationHint: op["x-mcp-pagination"] } : {}),
    ...specVocabulary(doc, op),
  };
}

/** The operation's tags that are strings. */
function tagsOf(op: Obj): string[] {
  return Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === "string") : [];
}

/** The operation with its `x-mcp-*` overrides, when it has any. */
function withOverrides(op: OperationIR, mcp: McpOverrides | undefined): OperationIR {
  return mcp ? { ...op, mcp } : op;
}

/**
 * The operation's parameters (operation-level ones override path-level ones with the same name and
 * location) and its request body: OpenAPI 3's `requestBody`, or Swagger 2.0's `body` or
 * `formData` parameters.
 */
function parametersAndBody(source: OperationSource): { parameters: ParameterIR[]; requestBody?: RequestBodyIR } {
  const { version, doc, normalizer, bag, op, opAt, item, itemAt } = source;
  const merged = new Map<string, { raw: Obj; at: string }>();
  const collect = (list: unknown, listAt: string): void => {
    if (!Array.isArray(list)) return;
    list.forEach((entry, index) => {
      const at = childPointer(listAt, index);
      const resolved = deref(doc, entry, at);
      if (!resolved) return;
      merged.set(`${String(resolved.value.in)}:${String(resolved.value.name)}`, { raw: resolved.value, at });
    });
  };
  collect(item.parameters, childPointer(itemAt, "parameters"));
  collect(op.parameters, childPointer(opAt, "parameters"));

  const parameters: ParameterIR[] = [];
  let requestBody: RequestBodyIR | undefined;
  const formFields: Array<{ raw: Obj; at: string }> = [];
  for (const { raw, at } of merged.values()) {
    if (version === "2.0" && raw.in === "body") {
      requestBody = {
        pointer: at,
        required: raw.required === true,
        ...(raw.required === false ? { declaredOptional: true } : {}),
        description: text(raw.description),
        contents: mediaTypes(doc, op, "consumes").map((mediaType) => ({
          pointer: childPointer(at, "schema"),
          mediaType,
          schema: raw.schema === undefined ? undefined : normalizer.normalize(raw.schema, childPointer(at, "schema")),
        })),
      };
    } else if (version === "2.0" && raw.in === "formData") {
      formFields.push({ raw, at });
    } else {
      const parameter = buildParameter(raw, at, version, normalizer, bag);
      if (parameter) parameters.push(parameter);
    }
  }
  if (formFields.length > 0) requestBody = swagger2FormBody(doc, op, opAt, formFields, normalizer);
  if (version !== "2.0" && op.requestBody !== undefined) {
    const at = childPointer(opAt, "requestBody");
    const body = deref(doc, op.requestBody, at);
    if (body) {
      requestBody = {
        pointer: at,
        required: body.value.required === true,
        ...(body.value.required === false ? { declaredOptional: true } : {}),
        description: text(body.value.description),
        contents: contents(body.value.content, childPointer(body.pointer, "content"), normalizer),
      };
    }
  }
  return { parameters, requestBody };
}

/** An operation `x-` key naming it: `x-displayName`, `x-title`, `x-…-cli-action`. */
const TITLE_EXTENSION = /^x-.*(name|title|label|summary|action)$/i;
/** Longest `x-` string read as a title (longer ones are prose or code). */
const TITLE_MAX = 80;

/** The operation's `titles` (see OperationIR): what its tags' `x-displayName` and its own `x-` titles call it. */
function specVocabulary(doc: Obj, op: Obj): Pick<OperationIR, "titles"> {
  const tags = Array.isArray(op.tags) ? op.tags : [];
  const entries = (Array.isArray(doc.tags) ? doc.tags : []).filter(
    (tag): tag is Obj => isRecord(tag) && tags.includes(tag.name),
  );
  const own = Object.entries(op).flatMap(([key, value]) => (TITLE_EXTENSION.test(key) ? [text(value)] : []));
  const titles = [...entries.map((tag) => text(tag["x-displayName"])), ...own].filter(
    (title): title is string => title !== undefined && title.length <= TITLE_MAX,
  );
  return titles.length > 0 ? { titles } : {};
}

/** A `{name}` in the path template without a parameter gets a required string parameter and a warning. */
function addUndeclaredPathParameters(path: string, opAt: string, parameters: ParameterIR[], bag: DiagnosticBag): void {
  for (const match of path.matchAll(/\{([^}]+)\}/g)) {
    const name = match[1]!;
    if (parameters.some((p) => p.in === "path" && p.name === name)) continue;
    bag.warn(
      Codes.pathParamUndeclared,
      `Path template variable {${name}} has no parameter; a required string argument is added.`,
      opAt,
      `Declare a parameter named "${name}" with \`in: path\` and \`required: true\` on the path or the operation.`,
    );
    parameters.push({
      pointer: opAt,
      name,
      in: "path",
      required: true,
      deprecated: false,
      style: "simple",
      explode: false,
      allowReserved: false,
      schema: { type: "string" },
    });
  }
}

/** Swagger 2.0 `consumes`/`produces`, operation level first, then global, then JSON. */
function mediaTypes(doc: Obj, op: Obj, key: "consumes" | "produces"): string[] {
  const list = Array.isArray(op[key]) ? op[key] : Array.isArray(doc[key]) ? doc[key] : ["application/json"];
  const types = (list as unknown[]).filter((t): t is string => typeof t === "string");
  return types.length > 0 ? types : ["application/json"];
}

/** Swagger 2.0 `formData` parameters become one object body, form-encoded or multipart. */
function swagger2FormBody(
  doc: Obj,
  op: Obj,
  opAt: string,
  fields: Array<{ raw: Obj; at: string }>,
  normalizer: SchemaNormalizer,
): RequestBodyIR {
  const properties: Obj = {};
  const required: string[] = [];
  const encoding: Record<string, FieldEncoding> = {};
  for (const { raw, at } of fields) {
    const { name, in: _in, required: isRequired, description, collectionFormat, allowEmptyValue: _ae, ...schema } = raw;
    if (typeof name !== "string") continue;
    const field = collectionEncoding(collectionFormat);
    if (field && schema.type === "array") setOwn(encoding, name, field);
    setOwn(
      properties,
      name,
      normalizer.normalize({ ...schema, ...(typeof description === "string" ? { description } : {}) }, at),
    );
    if (isRequired === true) required.push(name);
  }
  const consumes = mediaTypes(doc, op, "consumes");
  const hasFile = fields.some(({ raw }) => raw.type === "file");
  const mediaType =
    hasFile || consumes.includes("multipart/form-data") ? "multipart/form-data" : "application/x-www-form-urlencoded";
  return {
    pointer: opAt,
    required: required.length > 0,
    contents: [
      {
        pointer: opAt,
        mediaType,
        schema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
        ...(Object.keys(encoding).length > 0 ? { encoding } : {}),
      },
    ],
  };
}

/**
 * A Swagger 2.0 form field's `collectionFormat` as the OpenAPI 3 `encoding` entry it stands for
 * (csv: form without explode, `a,b`; ssv, pipes: the delimited styles; multi: the key repeated).
 * Without one the field keeps OpenAPI 3's default for forms (the key repeated): 2.0 names csv as
 * the default, but neither Prism nor the usual form parsers read an array from an unannounced `a,b`.
 */
function collectionEncoding(format: unknown): FieldEncoding | undefined {
  // A form field is read as a query is (style form by default).
  return collectionStyle(format, "query");
}

/** OpenAPI 3 `content` map → media entries. */
function contents(content: unknown, at: string, normalizer: SchemaNormalizer): MediaIR[] {
  if (!isRecord(content)) return [];
  return Object.entries(content).map(([mediaType, media]) => {
    const mediaAt = childPointer(at, mediaType);
    const schema =
      isRecord(media) && media.schema !== undefined
        ? normalizer.normalize(media.schema, childPointer(mediaAt, "schema"))
        : undefined;
    const encoding = isRecord(media) ? fieldEncodings(media.encoding) : undefined;
    return { pointer: mediaAt, mediaType, schema, ...(encoding ? { encoding } : {}) };
  });
}

const FIELD_STYLES = new Set(["form", "spaceDelimited", "pipeDelimited", "deepObject"]);

/** The serialisation facts of a media type's `encoding` map (style, explode, contentType). */
function fieldEncodings(encoding: unknown): Record<string, FieldEncoding> | undefined {
  if (!isRecord(encoding)) return undefined;
  const result: Record<string, FieldEncoding> = {};
  for (const [property, raw] of Object.entries(encoding)) {
    if (!isRecord(raw)) continue;
    const field: FieldEncoding = {};
    if (typeof raw.style === "string" && FIELD_STYLES.has(raw.style)) field.style = raw.style as FieldEncoding["style"];
    if (typeof raw.explode === "boolean") field.explode = raw.explode;
    if (typeof raw.contentType === "string") field.contentType = raw.contentType;
    if (Object.keys(field).length > 0) result[property] = field;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

function buildResponses(
  version: SpecVersion,
  doc: Obj,
  op: Obj,
  opAt: string,
  normalizer: SchemaNormalizer,
): ResponseIR[] {
  const responses = isRecord(op.responses) ? op.responses : {};
  const result: ResponseIR[] = [];
  for (const [status, raw] of Object.entries(responses)) {
    const at = childPointer(opAt, "responses", status);
    const response = deref(doc, raw, at);
    if (!response) continue;
    const value = response.value;
    const media: MediaIR[] =
      version === "2.0"
        ? value.schema === undefined
          ? []
          : mediaTypes(doc, op, "produces").map((mediaType) => ({
              pointer: childPointer(response.pointer, "schema"),
              mediaType,
              schema: normalizer.normalize(value.schema, childPointer(response.pointer, "schema")),
            }))
        : contents(value.content, childPointer(response.pointer, "content"), normalizer);
    const headers = isRecord(value.headers) ? Object.keys(value.headers).map((name) => name.toLowerCase()) : [];
    result.push({
      pointer: at,
      status: status.toUpperCase(),
      description: text(value.description),
      contents: media,
      headers,
    });
  }
  return result;
}

/** Server URLs with variables replaced by their defaults; Swagger 2.0 from schemes/host/basePath. */
function buildServers(version: SpecVersion, doc: Obj): ServerIR[] {
  if (version === "2.0") {
    const basePath = typeof doc.basePath === "string" ? doc.basePath : "";
    if (typeof doc.host !== "string")
      return basePath ? [{ pointer: "#/basePath", url: basePath, template: basePath, variables: [] }] : [];
    const schemes = Array.isArray(doc.schemes) ? doc.schemes : [];
    const scheme = schemes.includes("https") ? "https" : typeof schemes[0] === "string" ? schemes[0] : "https";
    const url = `${scheme}://${doc.host}${basePath}`;
    return [{ pointer: "#/host", url, template: url, variables: [] }];
  }
  if (!Array.isArray(doc.servers)) return [];
  return doc.servers.flatMap((server, index): ServerIR[] => {
    if (!isRecord(server) || typeof server.url !== "string") return [];
    const declared = isRecord(server.variables) ? server.variables : {};
    const variables: ServerVariableIR[] = [];
    const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = declared[name];
      if (!variables.some((v) => v.name === name)) variables.push(serverVariable(name, variable));
      return isRecord(variable) && variable.default !== undefined ? String(variable.default) : whole;
    });
    return [
      {
        pointer: pointer("servers", index),
        url,
        template: server.url,
        variables,
        description: text(server.description),
      },
    ];
  });
}

/** One server variable as the IR keeps it; values are strings in OpenAPI, coerced if a spec used numbers. */
function serverVariable(name: string, variable: unknown): ServerVariableIR {
  if (!isRecord(variable)) return { name };
  const values = Array.isArray(variable.enum)
    ? variable.enum.filter((v) => ["string", "number", "boolean"].includes(typeof v)).map(String)
    : [];
  return {
    name,
    ...(variable.default !== undefined ? { default: String(variable.default) } : {}),
    ...(values.length > 0 ? { enum: values } : {}),
    ...(text(variable.description) ? { description: text(variable.description) } : {}),
  };
}
