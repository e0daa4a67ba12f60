import type { JsonSchema, ObjectJsonSchema, ResponseBinding } from "../../runtime/src/types.js";
import type { MediaIR, OperationIR, ResponseIR, SchemaIR } from "../ir/types.js";
import { applyDirection, defsFor, isObjectSchema, resolveSchema, schemaJsonLength, sharedCopy } from "./schema-tools.js";
import { mapSchema } from "../schema-walk.js";

type Obj = Record<string, unknown>;

/** Key under which a non-object response is wrapped in `structuredContent`. */
export const WRAP_KEY = "result";
/** Key of the fallback shape that carries a response which does not match the documented schema. */
export const FALLBACK_KEY = "unexpectedResponse";

/**
 * Largest output schema (JSON characters) emitted in full. Above it, named sub-schemas (`$ref`s)
 * are replaced by `{}`: SDK clients compile every output schema when listing tools, and on APIs
 * like GitHub the full closures make `tools/list` several megabytes and slow to list.
 */
export const OUTPUT_SCHEMA_BUDGET = 4_000;

/** Options of output planning. */
export interface OutputOptions {
  /** Emit output schemas (default true); false gives tools without `outputSchema`. */
  outputSchemas?: boolean;
}

/** The planned output side of one tool. */
export interface OutputPlan {
  outputSchema?: ObjectJsonSchema;
  response: ResponseBinding;
  /** The success body's schema as the upstream sends it (before wrapping), for pagination. */
  body?: JsonSchema;
}

function isJson(mediaType: string): boolean {
  return /^application\/(.+\+)?json(;|$)/i.test(mediaType) || /\+json(;|$)/i.test(mediaType);
}

/** Success responses, most specific first: 200, 201, … then 2XX. */
function successResponses(op: OperationIR): ResponseIR[] {
  return op.responses
    .filter((r) => /^2(\d\d|XX)$/.test(r.status))
    .sort((a, b) => a.status.localeCompare(b.status));
}

/**
 * The second branch of every output schema: what the runtime returns when the upstream response
 * does not match the documented shape, so clients that validate `structuredContent` never reject it.
 */
export function fallbackBranch(key: string): Obj {
  return {
    type: "object",
    properties: {
      [key]: {
        type: "object",
        description: "The upstream response, returned as is because it does not match the documented schema.",
        properties: { status: { type: "integer" }, contentType: { type: "string" }, body: {}, problems: { type: "array", items: { type: "string" } } },
        required: ["status", "body", "problems"],
      },
    },
    required: [key],
  };
}

/**
 * Annotation keywords left out of output schemas: clients use output schemas to validate, not to
 * read, and on big APIs the prose is half of `tools/list` (the input side keeps it for the model).
 */
const OUTPUT_ANNOTATIONS = ["description", "title", "examples", "example", "$comment", "deprecated", "readOnly", "writeOnly"];

/** A copy of an output schema without annotation keywords. */
export function stripAnnotations(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    for (const key of OUTPUT_ANNOTATIONS) delete node[key];
    return node;
  });
}

/** The documented shape of `structuredContent`, an object schema, and whether the body is wrapped. */
function documentedShape(schema: JsonSchema, defs: Map<string, SchemaIR>): { shape: Obj; wrapped: boolean } {
  if (isObjectSchema(schema, defs)) {
    const root = applyDirection(resolveSchema(schema, defs), "output") as Obj;
    return { shape: { type: "object", ...root }, wrapped: false };
  }
  return { shape: { type: "object", properties: { [WRAP_KEY]: schema }, required: [WRAP_KEY] }, wrapped: true };
}

/**
 * Output schema from the first 2xx response with a JSON schema, always an object at the root:
 * `anyOf` the documented shape (an object response as is, anything else wrapped as `{ result: … }`)
 * and the fallback shape `{ unexpectedResponse: … }` that the runtime uses for deviating responses.
 */
/**
 * The documented shape of a planned output schema: its first `anyOf` branch (the second is the
 * fallback for deviating responses), with the root's `$defs` and root properties (`nextCursor`).
 * What a client can rely on, for diffs and generated tests.
 */
export function documentedOutput(outputSchema: ObjectJsonSchema): JsonSchema {
  const branches = outputSchema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return outputSchema;
  const documented = branches[0] as Obj;
  const rootProperties = (outputSchema.properties ?? {}) as Obj;
  return {
    ...documented,
    ...(Object.keys(rootProperties).length > 0 ? { properties: { ...((documented.properties as Obj) ?? {}), ...rootProperties } } : {}),
    ...(outputSchema.$defs ? { $defs: outputSchema.$defs } : {}),
  };
}

export function planOutput(op: OperationIR, defs: Map<string, SchemaIR>, options: OutputOptions = {}): OutputPlan {
  const successes = successResponses(op);
  const accept = [...new Set(successes.flatMap((r) => r.contents.map((c) => c.mediaType)))];
  const response: ResponseBinding = { accept: accept.length > 0 ? accept : ["application/json"] };
  let json: MediaIR | undefined;
  for (const r of successes) {
    json = r.contents.find((c) => isJson(c.mediaType) && c.schema !== undefined);
    if (json) break;
  }
  if (!json?.schema) return { response };
  const schema = applyDirection(json.schema, "output");
  // The body's schema is kept even without output schemas: pagination reads it.
  if (options.outputSchemas === false) return { response, body: schema };
  const { shape, wrapped } = documentedShape(schema, defs);
  const properties = shape.properties && typeof shape.properties === "object" ? (shape.properties as Obj) : {};
  let fallbackKey = FALLBACK_KEY;
  while (fallbackKey in properties) fallbackKey = `_${fallbackKey}`;
  const $defs = defsFor([shape as JsonSchema], defs, "output");
  let documented = stripAnnotations(shape as JsonSchema);
  let outputSchema: ObjectJsonSchema = { type: "object", anyOf: [documented, fallbackBranch(fallbackKey)] };
  if ($defs) outputSchema.$defs = Object.fromEntries(Object.entries($defs).map(([name, def]) => [name, sharedCopy(def as JsonSchema, stripAnnotations)]));
  if (schemaJsonLength(outputSchema) > OUTPUT_SCHEMA_BUDGET) {
    // Too big to be worth validating in every client: keep the top level, accept anything below.
    documented = mapSchema(documented, (node) => (typeof node.$ref === "string" ? {} : node));
    outputSchema = { type: "object", anyOf: [documented, fallbackBranch(fallbackKey)] };
  }
  return { outputSchema, response: { ...response, ...(wrapped ? { wrapKey: WRAP_KEY } : {}), fallbackKey }, body: schema };
}
