import { test } from "uvu";
import * as assert from "uvu/assert";
import { pruneSpec, splitComponents } from "../fidelity/prune-spec.js";

const ref = (to: string) => ({ $ref: to });

test("keeps the chosen operations, their path item's shared fields and every component they reach, transitively", () => {
  const doc = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/pets/{id}": {
        parameters: [ref("#/components/parameters/Id")],
        get: { responses: { "200": ref("#/components/responses/Pet") } },
        delete: { responses: { "204": { description: "gone" } } },
      },
      "/owners": {
        get: {
          responses: {
            "200": { description: "x", content: { "application/json": { schema: ref("#/components/schemas/Owner") } } },
          },
        },
      },
    },
    components: {
      parameters: { Id: { name: "id", in: "path", required: true, schema: ref("#/components/schemas/Id") } },
      responses: {
        Pet: { description: "a pet", content: { "application/json": { schema: ref("#/components/schemas/Pet") } } },
      },
      schemas: {
        Id: { type: "string" },
        Pet: {
          type: "object",
          properties: { owner: ref("#/components/schemas/Owner"), id: ref("#/components/schemas/Id") },
        },
        Owner: { type: "object", properties: { pets: { type: "array", items: ref("#/components/schemas/Pet") } } },
        Unused: { type: "integer" },
      },
      securitySchemes: { key: { type: "apiKey", in: "header", name: "k" } },
    },
  };
  const pruned = pruneSpec(doc as never, ["#/paths/~1pets~1{id}/get"]) as typeof doc;
  assert.equal(Object.keys(pruned.paths), ["/pets/{id}"]);
  assert.equal(Object.keys(pruned.paths["/pets/{id}"]), ["parameters", "get"]);
  assert.equal(Object.keys(pruned.components.schemas).sort(), ["Id", "Owner", "Pet"], "through a cycle, not beyond");
  assert.equal(Object.keys(pruned.components.parameters), ["Id"]);
  assert.equal(pruned.components.securitySchemes, doc.components.securitySchemes);
  assert.equal(pruned.info, doc.info);
  assert.is(pruned.components.schemas.Pet, doc.components.schemas.Pet, "copied as it is");
  assert.ok("Unused" in doc.components.schemas, "the document given is left alone");
});

test("Swagger 2.0 definitions; a pointer that names no operation is an error", () => {
  const doc = {
    swagger: "2.0",
    paths: { "/a": { post: { parameters: [{ in: "body", name: "b", schema: ref("#/definitions/A") }] } } },
    definitions: { A: { type: "object" }, B: { type: "object" } },
  };
  const pruned = pruneSpec(doc as never, ["#/paths/~1a/post"]) as unknown as typeof doc;
  assert.equal(Object.keys(pruned.definitions), ["A"]);
  assert.throws(() => pruneSpec(doc as never, ["#/paths/~1a/get"]), /no operation at #\/paths\/~1a\/get/);
  assert.throws(() => pruneSpec(doc as never, ["#/definitions/A"]), /not an operation pointer/);
});

test("requests only: responses keep status, description and media types, no schema; what they alone reached is left out", () => {
  const doc = {
    openapi: "3.0.3",
    paths: {
      "/a": {
        post: {
          requestBody: {
            content: {
              "application/x-www-form-urlencoded": {
                schema: { type: "object", properties: { n: { $ref: "#/components/schemas/N" } } },
              },
            },
          },
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Big" }, example: { big: 1 } } },
            },
            default: { $ref: "#/components/responses/Error" },
          },
        },
      },
    },
    components: {
      schemas: { N: { type: "integer" }, Big: { type: "object" }, Err: { type: "object" } },
      responses: {
        Error: {
          description: "error",
          headers: { "x-id": { schema: { type: "string" } } },
          content: { "application/json": { schema: { $ref: "#/components/schemas/Err" } } },
        },
      },
    },
  };
  const pruned = pruneSpec(doc as never, ["#/paths/~1a/post"], { requestsOnly: true }) as unknown as {
    paths: Record<string, Record<string, { responses: unknown; requestBody: unknown }>>;
    components: { schemas: object; responses: object };
  };
  assert.equal(pruned.paths["/a"]!.post!.responses, {
    "200": { description: "ok", content: { "application/json": { schema: {} } } },
    default: { description: "error", content: { "application/json": { schema: {} } } },
  });
  assert.equal(pruned.paths["/a"]!.post!.requestBody, doc.paths["/a"].post.requestBody);
  assert.equal(Object.keys(pruned.components.schemas), ["N"]);
  assert.equal(pruned.components.responses, {});
});

test("split: components go to a side file, every $ref retargeted, security schemes stay in the root", () => {
  const doc = {
    openapi: "3.0.3",
    paths: { "/a": { get: { parameters: [{ $ref: "#/components/parameters/P" }], responses: {} } } },
    components: {
      parameters: { P: { name: "p", in: "query", schema: { $ref: "#/components/schemas/S" } } },
      schemas: { S: { type: "string" } },
      securitySchemes: { k: { type: "apiKey", in: "header", name: "k" } },
    },
  };
  const { root, components } = splitComponents(doc as never, "components.json") as unknown as {
    root: typeof doc;
    components: { parameters: { P: { schema: unknown } } };
  };
  assert.equal(root.paths["/a"].get.parameters, [{ $ref: "components.json#/parameters/P" }]);
  assert.equal(root.components, { securitySchemes: doc.components.securitySchemes } as never);
  assert.equal(components.parameters.P.schema, { $ref: "#/schemas/S" });
});

test.run();
