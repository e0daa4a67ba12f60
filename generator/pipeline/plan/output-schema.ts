import type { JsonSchema, ObjectJsonSchema, ResponseBinding } from "../../shared/contract.js";
import type { MediaIR, OperationIR, ResponseIR, SchemaIR } from "../ir/ir-types.js";
import { applyDirection, isObjectSchema, resolveDirected } from "./schema-tools.js";
import { compactOutputDetailed, OUTPUT_NODE_BUDGET, type OutputDetail } from "./output-compact.js";

type Obj = Record<string, unknown>;

/** Key under which a non-object response is wrapped in `structuredContent`. */
export const WRAP_KEY = "result";
/** Key of the fallback shape that carries a response which does not match the documented schema. */
export const FALLBACK_KEY = "unexpectedResponse";

/** Options of output planning. */
export interface OutputOptions {
  /** Emit output schemas (default true); false gives tools without `outputSchema`. */
  outputSchemas?: boolean;
  /** Typed nodes the documented shape may have (default {@link OUTPUT_NODE_BUDGET}). */
  nodeBudget?: number;
}

/** The planned output side of one tool. */
export interface OutputPlan {
  outputSchema?: ObjectJsonSchema;
  /** How much of the documented shape the output schema keeps (see output-compact.ts). */
  outputDetail?: OutputDetail;
  response: ResponseBinding;
  /** The success body's schema as the upstream sends it (before wrapping), for pagination. */
  body?: JsonSchema;
}

function isJson(mediaType: string): boolean {
  return /^application\/(.+\+)?json(;|$)/i.test(mediaType) || /\+json(;|$)/i.test(mediaType);
}

/** Success responses, most specific first: 200, 201, … then 2XX. */
function successResponses(op: OperationIR): ResponseIR[] {
  return op.responses.filter((r) => /^2(\d\d|XX)$/.test(r.status)).sort((a, b) => a.status.localeCompare(b.status));
}

/**
 * The fallback branch of every output schema: what the runtime returns when the upstream response
 * does not match the documented shape (`{ [key]: { status, contentType, body, problems } }`), so
 * clients that validate `structuredContent` never reject it. Only the key is checked, by `required`
 * alone: a property `{}` beside it would accept anything and tell a validator or a reader nothing
 * more, and every tool of a big API lists this branch (the typed result names the key itself).
 */
export function fallbackBranch(key: string): Obj {
  return { required: [key] };
}

/**
 * The output schema of a documented shape (an object schema): `anyOf` the shape and the fallback
 * branch, under a root `type: "object"` (which the shape then does not repeat).
 */
export function assembleOutputSchema(documented: Obj, fallbackKey: string): ObjectJsonSchema {
  const { type, ...shape } = documented;
  return { type: "object", anyOf: [type === "object" ? shape : documented, fallbackBranch(fallbackKey)] };
}

/**
 * The documented shape of `structuredContent`, an object schema, and whether the body is wrapped;
 * `root` is the object schema the shape copies (a def's shared directed copy when the body is a def).
 */
function documentedShape(
  schema: JsonSchema,
  defs: Map<string, SchemaIR>,
): { shape: Obj; wrapped: boolean; root?: Obj } {
  if (isObjectSchema(schema, defs)) {
    // A def's directed copy is made once per run (the shape is a copy of its root; compaction copies the rest).
    const root = resolveDirected(schema, defs, "output") as Obj;
    return { shape: { type: "object", ...root }, wrapped: false, root };
  }
  return { shape: { type: "object", properties: { [WRAP_KEY]: schema }, required: [WRAP_KEY] }, wrapped: true };
}

/**
 * Compacted shapes by `defs` map, root schema and node budget. Many tools of a big API return the
 * same def (GitHub: a repository, an issue), whose shape is then compacted once. The compacted
 * schemas are shared by those tools' output schemas: nothing changes them once made.
 */
const compactedShapes = new WeakMap<Map<string, SchemaIR>, WeakMap<object, Map<number, CompactedShape>>>();
type CompactedShape = ReturnType<typeof compactOutputDetailed>;

/** `compactOutputDetailed` of a documented shape, once per root schema and budget. */
function compactShape(
  documented: { shape: Obj; root?: Obj },
  defs: Map<string, SchemaIR>,
  budget: number,
): CompactedShape {
  const { shape, root } = documented;
  if (root === undefined) return compactOutputDetailed(shape as JsonSchema, defs, budget);
  let byRoot = compactedShapes.get(defs);
  if (!byRoot) compactedShapes.set(defs, (byRoot = new WeakMap()));
  let byBudget = byRoot.get(root);
  if (!byBudget) byRoot.set(root, (byBudget = new Map()));
  let compacted = byBudget.get(budget);
  if (!compacted) byBudget.set(budget, (compacted = compactOutputDetailed(shape as JsonSchema, defs, budget)));
  return compacted;
}

/**
 * The documented shape of a planned output schema: its first `anyOf` branch (the second is the
 * fallback for deviating responses), with the root's type and properties (`nextCursor`). What a
 * client can rely on when the response matches the spec, for diffs and generated tests.
 */
export function documentedOutput(outputSchema: ObjectJsonSchema): JsonSchema {
  const { anyOf, ...root } = outputSchema as Obj;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return outputSchema;
  const documented = anyOf[0] as Obj;
  const rootProperties = (root.properties ?? {}) as Obj;
  return {
    ...root,
    ...documented,
    ...(Object.keys(rootProperties).length > 0
      ? { properties: { ...((documented.properties as Obj) ?? {}), ...rootProperties } }
      : {}),
  };
}

/**
 * Output schema from the first 2xx response with a JSON schema, always an object at the root: the
 * documented shape (an object response as is, anything else wrapped as `{ result: … }`), compacted
 * (see output-compact.ts) to at most `nodeBudget` typed nodes, or the fallback shape
 * `{ unexpectedResponse: … }` that the runtime uses for deviating responses.
 */
export function planOutput(op: OperationIR, defs: Map<string, SchemaIR>, options: OutputOptions = {}): OutputPlan {
  const successes = successResponses(op);
  // `Accept` lists what a success can be: the 2xx responses' media types, or, when the operation
  // documents no 2xx, its `default` response's. With none, the runtime's default accepts anything
  // (JSON preferred): an operation that documents only errors must not be asked for JSON alone.
  const answers = successes.length > 0 ? successes : op.responses.filter((r) => r.status === "DEFAULT");
  const response: ResponseBinding = {
    accept: [...new Set(answers.flatMap((r) => r.contents.map((c) => c.mediaType)))],
  };
  let json: MediaIR | undefined;
  for (const r of successes) {
    json = r.contents.find((c) => isJson(c.mediaType) && c.schema !== undefined);
    if (json) break;
  }
  if (!json?.schema) return { response };
  const schema = applyDirection(json.schema, "output", defs);
  // The body's schema is kept even without output schemas: pagination reads it.
  if (options.outputSchemas === false) return { response, body: schema };
  const documentedBody = documentedShape(schema, defs);
  const { wrapped } = documentedBody;
  const compacted = compactShape(documentedBody, defs, options.nodeBudget ?? OUTPUT_NODE_BUDGET);
  const documented = compacted.schema as Obj;
  // The fallback key must not be a documented property (merged allOf members and union branches included).
  const names = new Set<string>();
  const collect = (node: Obj): void => {
    if (node.properties && typeof node.properties === "object")
      for (const name of Object.keys(node.properties)) names.add(name);
    for (const key of ["anyOf", "allOf"])
      if (Array.isArray(node[key])) for (const branch of node[key] as Obj[]) collect(branch);
  };
  collect(documented);
  let fallbackKey = FALLBACK_KEY;
  while (names.has(fallbackKey)) fallbackKey = `_${fallbackKey}`;
  const outputSchema = assembleOutputSchema(documented, fallbackKey);
  return {
    outputSchema,
    outputDetail: compacted.detail,
    response: { ...response, ...(wrapped ? { wrapKey: WRAP_KEY } : {}), fallbackKey },
    body: schema,
  };
}
