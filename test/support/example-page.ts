/**
 * Realistic upstream bodies built from a spec's own examples: the 2xx JSON example of an operation
 * (or, when it has none, the generator's sample of its schema with every property filled) and a
 * page of N items made from its first item. Shared by `npm run bench:results` and the views'
 * browser test, which serve these bodies from a local upstream as a stand-in for the real API.
 */
import { sampleValue } from "../../generator/pipeline/emit/test-cases/sample-value.js";

type Json = unknown;
type Node = Record<string, unknown>;

/** The parts of an OpenAPI 3 document and operation that {@link exampleBody} reads. */
export interface ExampleSpec {
  components?: { examples?: Record<string, { value?: Json }>; schemas?: Record<string, Json> };
}
export interface ExampleOperation {
  responses: Record<
    string,
    {
      content?: Record<
        string,
        { example?: Json; examples?: Record<string, { $ref?: string; value?: Json }>; schema?: Json }
      >;
    }
  >;
}

/** The 2xx JSON example of an operation (inline or a components/examples ref), or a sample of its schema. */
export function exampleBody(spec: ExampleSpec, operation: ExampleOperation): Json {
  const success = Object.entries(operation.responses).find(([status]) => /^2/.test(status))?.[1];
  const media = success?.content?.["application/json"];
  if (!media) throw new Error("the operation has no 2xx application/json response");
  if (media.example !== undefined)
    return typeof media.example === "string" ? (JSON.parse(media.example) as Json) : media.example;
  for (const example of Object.values(media.examples ?? {})) {
    const resolved = example.$ref ? spec.components?.examples?.[example.$ref.split("/").pop()!] : example;
    if (resolved?.value !== undefined) return resolved.value;
  }
  // No example: the generator's sample value of the schema with every property filled (the sampler
  // fills required ones only), its refs pointed at the spec's schemas.
  const local = (schema: Json) =>
    allRequired(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/')) as Json);
  return sampleValue(local(media.schema) as never, { $defs: local(spec.components?.schemas ?? {}) } as never);
}

/**
 * `value` (an example) with every property its schema requires but it lacks filled with the
 * generator's sample of that property's schema, at any depth (through `$ref`, `allOf` and array
 * items): the examples of some specs leave out required fields that the real API always sends.
 */
export function withRequired(spec: ExampleSpec, value: Json, schema: Json, depth = 0): Json {
  const node = resolveRef(spec, schema);
  if (depth > 12 || node === undefined) return value;
  for (const part of (node.allOf as Json[] | undefined) ?? []) value = withRequired(spec, value, part, depth + 1);
  if (Array.isArray(value)) return value.map((item) => withRequired(spec, item, node.items, depth + 1));
  if (value === null || typeof value !== "object") return value;
  const record = { ...(value as Node) };
  const properties = (node.properties ?? {}) as Node;
  for (const name of (node.required as string[] | undefined) ?? [])
    if (!(name in record) && properties[name] !== undefined) record[name] = sampleOf(spec, properties[name]);
  for (const [name, sub] of Object.entries(properties))
    if (name in record) record[name] = withRequired(spec, record[name], sub, depth + 1);
  return record;
}

/** A `#/components/schemas/` reference's target (or the schema itself). */
function resolveRef(spec: ExampleSpec, schema: Json): Node | undefined {
  if (schema === null || typeof schema !== "object") return undefined;
  const ref = (schema as Node).$ref;
  if (typeof ref !== "string") return schema as Node;
  return spec.components?.schemas?.[ref.split("/").pop()!] as Node | undefined;
}

/** The generator's sample value of a schema of the spec, its refs pointed at the spec's schemas. */
function sampleOf(spec: ExampleSpec, schema: Json): Json {
  const local = (node: Json) =>
    JSON.parse(JSON.stringify(node).replaceAll('"#/components/schemas/', '"#/$defs/')) as Json;
  return sampleValue(local(schema) as never, { $defs: local(spec.components?.schemas ?? {}) } as never);
}

/** A schema whose object schemas require all their properties. */
function allRequired(node: Json): Json {
  if (Array.isArray(node)) return node.map(allRequired);
  if (node === null || typeof node !== "object") return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node as Node))
    out[key] =
      key === "properties"
        ? Object.fromEntries(Object.entries(value as Node).map(([name, sub]) => [name, allRequired(sub)]))
        : allRequired(value);
  if (out.properties && typeof out.properties === "object") out.required = Object.keys(out.properties);
  return out;
}

/** Where the items of a page are: undefined when the body is the array itself, else its longest array's key. */
export function itemsKey(body: Json): string | undefined {
  if (Array.isArray(body)) return undefined;
  const record = body as Node;
  return Object.keys(record)
    .filter((key) => Array.isArray(record[key]))
    .sort((a, b) => (record[b] as Json[]).length - (record[a] as Json[]).length)[0];
}

/** A page of `count` copies of the example's first item, each top-level scalar made distinct. */
export function pageOf(example: Json, count: number): Json {
  const key = itemsKey(example);
  const items = (key === undefined ? example : (example as Node)[key]) as Json[];
  const first = items[0];
  const page = Array.from({ length: count }, (_, i) => {
    const item = structuredClone(first) as Node;
    for (const [name, value] of Object.entries(item)) {
      if (typeof value === "number") item[name] = value + i;
      else if (typeof value === "string") item[name] = `${value}-${i + 1}`;
    }
    return item;
  });
  return key === undefined ? page : { ...(example as Node), [key]: page };
}
