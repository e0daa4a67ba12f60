import type { JsonSchema, ObjectJsonSchema, ResponseBinding } from "../../runtime/src/types.js";
import type { MediaIR, OperationIR, ResponseIR, SchemaIR } from "../ir/types.js";
import { applyDirection, defsFor, isObjectSchema, resolveSchema } from "./schema-tools.js";

type Obj = Record<string, unknown>;

/** Key under which a non-object response is wrapped in `structuredContent`. */
export const WRAP_KEY = "result";

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
 * Output schema from the first 2xx response with a JSON schema, always an object at the root:
 * an object response is used as is (its root inlined so `type: "object"` is visible), anything
 * else is wrapped as `{ result: … }`.
 */
export function planOutput(op: OperationIR, defs: Map<string, SchemaIR>): OutputPlan {
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
  if (isObjectSchema(schema, defs)) {
    const root = applyDirection(resolveSchema(schema, defs), "output") as Obj;
    const $defs = defsFor([root as JsonSchema], defs, "output");
    return { outputSchema: { type: "object", ...root, ...($defs ? { $defs } : {}) } as ObjectJsonSchema, response, body: schema };
  }
  const $defs = defsFor([schema], defs, "output");
  const outputSchema: ObjectJsonSchema = { type: "object", properties: { [WRAP_KEY]: schema }, required: [WRAP_KEY] };
  if ($defs) outputSchema.$defs = $defs;
  return { outputSchema, response: { ...response, wrapKey: WRAP_KEY }, body: schema };
}
