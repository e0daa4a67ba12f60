/**
 * A synthetic OpenAPI 3.0 document of any size, shaped like the largest real APIs (many
 * operations over a web of shared schemas that refer to one another, every one described), for
 * tests of what generation costs as an API grows. Deterministic: the same size gives the same text.
 */

const WORDS = ["account", "device", "message", "calendar", "policy", "report", "folder", "member", "channel", "task"];

/** The words of item `i`, for names and descriptions that differ from item to item. */
function words(i: number, count: number): string {
  return Array.from({ length: count }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(" ");
}

/** Schema `i` of `count`: a dozen described properties, two of them references to other schemas. */
function schema(i: number, count: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let p = 0; p < 10; p++)
    properties[`field${p}`] = { type: p % 3 === 0 ? "integer" : "string", description: `The ${words(i + p, 6)}.` };
  properties.parent = { $ref: `#/components/schemas/Thing${(i * 31 + 1) % count}` };
  properties.children = { type: "array", items: { $ref: `#/components/schemas/Thing${(i * 17 + 5) % count}` } };
  return { type: "object", description: `A ${words(i, 8)}.`, properties };
}

/** Operation `i`: a path parameter, two query parameters, and a body and a response of shared schemas. */
function operation(i: number, method: "get" | "post", schemas: number): Record<string, unknown> {
  const ref = (offset: number) => ({ $ref: `#/components/schemas/Thing${(i + offset) % schemas}` });
  return {
    operationId: `${method}Thing${i}`,
    summary: `${method === "get" ? "Read" : "Change"} the ${words(i, 4)}`,
    description: `${words(i, 20)}.`,
    tags: [WORDS[i % WORDS.length]],
    parameters: [
      { name: "id", in: "path", required: true, schema: { type: "string" } },
      { name: "top", in: "query", schema: { type: "integer" }, description: "How many." },
      { name: "filter", in: "query", schema: { type: "string" }, description: `Filter ${words(i, 5)}.` },
    ],
    ...(method === "post" ? { requestBody: { content: { "application/json": { schema: ref(3) } } } } : {}),
    responses: {
      "200": { description: "OK", content: { "application/json": { schema: ref(0) } } },
      "404": { description: "Not found" },
    },
  };
}

/** A document with `operations` operations (a GET and a POST per path) over `operations / 8` schemas. */
export function largeApiSpec(operations: number): Record<string, unknown> {
  const schemaCount = Math.max(2, Math.floor(operations / 8));
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < operations; i += 2)
    paths[`/things${i}/{id}`] = { get: operation(i, "get", schemaCount), post: operation(i + 1, "post", schemaCount) };
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < schemaCount; i++) schemas[`Thing${i}`] = schema(i, schemaCount);
  return {
    openapi: "3.0.3",
    info: { title: "Synthetic large API", version: "1.0.0" },
    servers: [{ url: "https://api.example.com" }],
    paths,
    components: { schemas },
  };
}
