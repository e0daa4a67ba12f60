/**
 * The project's TypeScript types come from the full spec, not from the wire schemas: every named
 * schema of the document becomes a named type (src/schemas.ts), and each tool's result and error
 * types refer to them. The wire schemas (`tools/list`) are compacted for clients
 * (output-compact.ts); types are for people and the compiler, so they keep every property, format
 * and reference.
 *
 * A schema whose properties (or those of a schema it reaches) are `readOnly` or `writeOnly` has two
 * shapes: as the API returns it (`Pet`: read-only properties kept, write-only ones left out) and as
 * it accepts it (`PetRequest`: the other way round). Other schemas have one type for both.
 */
import { forEachSchema } from "../../shared/schema-walk.js";
import type { JsonSchema } from "../../shared/contract.js";
import type { ApiIR, OperationIR, ResponseIR, SchemaIR } from "../ir/ir-types.js";
import { NameAllocator, pascalCase, truncateName } from "./names.js";
import { applyDirection, isObjectSchema } from "./schema-tools.js";
import type { NamedTypePlan, ResultType, ToolResultTypes, TypesPlan } from "./plan-types.js";
import { isTextualMedia } from "../../shared/contract.js";

/** Longest name of a generated type (an operation's, a schema's), before a collision suffix. */
export const TYPE_NAME_MAX = 60;

/**
 * Names the printed TypeScript uses itself (and so no schema may take): the globals of the type
 * expressions, the runtime's binary result type the tool modules import.
 */
const PRINTER_NAMES = ["Array", "Record", "BinaryData"];

/** Words of a `$defs` name that is not a component: `#/components/responses/NotFound/content/…` → `NotFoundResponse`. */
function defTypeName(schema: SchemaIR): string {
  const tokens = schema.pointer.replace(/^#\//, "").split("/");
  const kinds: Record<string, string> = {
    responses: "Response",
    requestBodies: "Body",
    parameters: "Parameter",
    headers: "Header",
  };
  if (tokens[0] === "components" && tokens[2] && kinds[tokens[1]!]) return pascalCase(tokens[2]) + kinds[tokens[1]!];
  return pascalCase(schema.name);
}

/** What one walk of a def finds: whether its root, and whether a node below it, marks readOnly or writeOnly; the `$defs` names it refers to directly. */
interface DefMarks {
  root: boolean;
  below: boolean;
  refs: string[];
}

function defMarks(schema: JsonSchema): DefMarks {
  const marks: DefMarks = { root: false, below: false, refs: [] };
  forEachSchema(schema, (node) => {
    if (node.readOnly === true || node.writeOnly === true) {
      if (node === schema) marks.root = true;
      else marks.below = true;
    }
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/$defs/")) marks.refs.push(node.$ref.slice(8));
  });
  return marks;
}

/**
 * The defs that have two shapes: those that mark a property readOnly/writeOnly themselves, refer
 * to a def marked so at its root (a property of that type is hidden on one side), or refer to a
 * def that has two shapes. Found from the marked ones back along the references.
 */
function twoShaped(order: readonly string[], defs: Map<string, SchemaIR>): Set<string> {
  const referrers = new Map<string, string[]>();
  const found = new Set<string>();
  const queue: string[] = [];
  const add = (def: string) => {
    if (!found.has(def)) (found.add(def), queue.push(def));
  };
  // One walk per def (a big API has thousands).
  const marks = order.map((def) => defMarks(defs.get(def)!.schema));
  order.forEach((def, i) => {
    if (marks[i]!.below) add(def);
    for (const target of marks[i]!.refs) {
      const list = referrers.get(target);
      if (list) list.push(def);
      else referrers.set(target, [def]);
    }
  });
  order.forEach((def, i) => {
    if (marks[i]!.root || marks[i]!.below) for (const referrer of referrers.get(def) ?? []) add(referrer);
  });
  for (let i = 0; i < queue.length; i++) for (const referrer of referrers.get(queue[i]!) ?? []) add(referrer);
  return found;
}

/**
 * Every named schema of the document as a type: components first (document order, so
 * `components.schemas` reads as written), then the other schemas the operations reference by
 * `$ref` (a shared response's body, a parameter's schema). Names are claimed from `names`, which
 * already holds the tools' type names; each is the PascalCase of the schema's name, at most
 * {@link TYPE_NAME_MAX} characters, `_2`… only on a collision.
 */
export function planTypes(ir: ApiIR, names: NameAllocator): TypesPlan {
  for (const reserved of PRINTER_NAMES) names.claim(reserved);
  const defs = ir.schemas;
  const order = [...new Set([...ir.components.map((c) => c.def), ...defs.keys()])].filter((def) => defs.has(def));
  const componentOf = new Map(ir.components.map((c) => [c.def, c.component]));
  const directional = twoShaped(order, defs);
  const typeNames = new Map<string, string>();
  for (const def of order) {
    const component = componentOf.get(def);
    typeNames.set(
      def,
      names.claim(truncateName(component ? pascalCase(component) : defTypeName(defs.get(def)!), TYPE_NAME_MAX)),
    );
  }
  const named: NamedTypePlan[] = order.map((def) => {
    const schema = defs.get(def)!.schema;
    const component = componentOf.get(def);
    return {
      def,
      ...(component !== undefined ? { component } : {}),
      name: typeNames.get(def)!,
      schema: directional.has(def) ? applyDirection(schema, "output", defs) : schema,
      ...(directional.has(def)
        ? {
            request: {
              name: names.claim(truncateName(`${typeNames.get(def)!}Request`, TYPE_NAME_MAX)),
              schema: applyDirection(schema, "input", defs),
            },
          }
        : {}),
    };
  });
  return { named };
}

/** Whether the runtime shows a body of this media type as text (the runtime's own rule). */
function isTextual(mediaType: string): boolean {
  return isTextualMedia(mediaType.split(";")[0]!.trim().toLowerCase());
}

function isJson(mediaType: string): boolean {
  return /^application\/(.+\+)?json(;|$)/i.test(mediaType) || /\+json(;|$)/i.test(mediaType);
}

function isSuccess(response: ResponseIR): boolean {
  return /^2(\d\d|XX)$/.test(response.status);
}

function isError(response: ResponseIR): boolean {
  return /^[45](\d\d|XX)$/.test(response.status) || response.status === "DEFAULT";
}

/**
 * What the typed `api` resolves to for one operation and what its errors carry (see
 * ToolResultTypes), as the runtime's client delivers it: with an output schema, the documented
 * body (`body`, the first 2xx JSON schema; anything else is an unexpected response and throws);
 * without one, each documented 2xx answer as the runtime renders it — a JSON object as is, other
 * JSON and text as text, binary content as `BinaryData`, no content as `undefined`.
 */
export function planResultTypes(
  op: OperationIR,
  defs: Map<string, SchemaIR>,
  output: { body?: JsonSchema; hasOutputSchema: boolean },
): ToolResultTypes {
  const errors: JsonSchema[] = [];
  const seen = new Set<string>();
  for (const response of op.responses.filter(isError)) {
    for (const media of response.contents) {
      if (!isJson(media.mediaType) || media.schema === undefined) continue;
      const schema = applyDirection(media.schema, "output", defs);
      const key = JSON.stringify(schema);
      if (!seen.has(key)) (errors.push(schema), seen.add(key));
    }
  }
  return { returns: returnTypes(op, defs, output), ...(errors.length > 0 ? { errors } : {}) };
}

function returnTypes(
  op: OperationIR,
  defs: Map<string, SchemaIR>,
  output: { body?: JsonSchema; hasOutputSchema: boolean },
): ResultType[] {
  if (output.hasOutputSchema && output.body !== undefined) return [output.body];
  // Without output schemas (--no-output-schema) a JSON object is structured content, anything else text.
  if (output.body !== undefined) return [isObjectSchema(output.body, defs) ? output.body : "text"];
  const successes = op.responses.filter(isSuccess);
  if (successes.length === 0) return [true];
  const kinds = new Set<ResultType>();
  for (const response of successes) {
    if (response.contents.length === 0) kinds.add("empty");
    for (const media of response.contents) {
      if (isJson(media.mediaType) || media.mediaType.includes("*")) kinds.add(true);
      else kinds.add(isTextual(media.mediaType) ? "text" : "binary");
    }
  }
  return kinds.has(true) ? [true] : [...kinds];
}
