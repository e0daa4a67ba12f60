import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { SchemaNormalizer } from "../../generator/pipeline/ir/schema-normalizer.js";

function normalizer(document: unknown = {}, version: "2.0" | "3.0" | "3.1" = "3.0") {
  const bag = new DiagnosticBag();
  return { n: new SchemaNormalizer(document, version, bag), bag };
}

test("3.0 nullable becomes a null type, or anyOf null without a type", () => {
  const { n } = normalizer();
  assert.equal(n.normalize({ type: "string", nullable: true }, "#"), { type: ["string", "null"] });
  assert.equal(n.normalize({ type: "string", enum: ["a"], nullable: true }, "#"), {
    type: ["string", "null"],
    enum: ["a", null],
  });
  assert.equal(n.normalize({ allOf: [{ type: "object" }], nullable: true }, "#"), {
    anyOf: [{ allOf: [{ type: "object" }] }, { type: "null" }],
  });
});

test("known formats are kept; unknown ones move into the description", () => {
  const { n } = normalizer();
  assert.equal(n.normalize({ type: "string", format: "int64" }, "#"), { type: "string", format: "int64" });
  assert.equal(n.normalize({ type: "string", format: "google-datetime", description: "When." }, "#"), {
    type: "string",
    description: "When. (Format: google-datetime.)",
  });
  assert.equal(n.normalize({ type: "string", format: "Promo date-time" }, "#"), {
    type: "string",
    description: "Format: Promo date-time.",
  });
});

test("3.0 boolean exclusive bounds become numeric 2020-12 bounds", () => {
  const { n } = normalizer();
  assert.equal(
    n.normalize({ type: "integer", minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false }, "#"),
    { type: "integer", exclusiveMinimum: 0, maximum: 9 },
  );
});

test("OpenAPI-only keywords are removed; example becomes examples", () => {
  const { n } = normalizer();
  const out = n.normalize(
    {
      type: "object",
      discriminator: { propertyName: "k" },
      xml: { name: "x" },
      example: { k: 1 },
      "x-internal": true,
      externalDocs: {},
    },
    "#",
  );
  assert.equal(out, { type: "object", examples: [{ k: 1 }] });
});

test("refs become $defs entries; a cycle is kept as a self reference", () => {
  const doc = {
    components: {
      schemas: {
        Node: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
        },
      },
    },
  };
  const { n } = normalizer(doc);
  assert.equal(n.normalize({ $ref: "#/components/schemas/Node" }, "#"), { $ref: "#/$defs/Node" });
  assert.equal(n.defs.get("Node")!.schema, {
    type: "object",
    properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } },
  });
  assert.is(n.defs.size, 1);
});

test("3.0 ignores $ref siblings, 3.1 keeps them", () => {
  const doc = { components: { schemas: { A: { type: "string" } } } };
  assert.equal(normalizer(doc, "3.0").n.normalize({ $ref: "#/components/schemas/A", description: "d" }, "#"), {
    $ref: "#/$defs/A",
  });
  assert.equal(normalizer(doc, "3.1").n.normalize({ $ref: "#/components/schemas/A", description: "d" }, "#"), {
    $ref: "#/$defs/A",
    description: "d",
  });
});

test("a pattern JavaScript cannot compile is dropped with a warning at its pointer", () => {
  const { n, bag } = normalizer();
  assert.equal(n.normalize({ type: "string", pattern: "a++\\Z(?<" }, "#/components/schemas/S"), { type: "string" });
  assert.is(bag.items.length, 1);
  assert.is(bag.items[0]!.code, "MG108");
  assert.is(bag.items[0]!.pointer, "#/components/schemas/S/pattern");
  assert.equal(n.normalize({ type: "string", pattern: "^[a-z]+$" }, "#"), { type: "string", pattern: "^[a-z]+$" });
});

test("Swagger 2.0 file type and x-nullable", () => {
  const { n } = normalizer({}, "2.0");
  assert.equal(n.normalize({ type: "file" }, "#"), { type: "string", format: "binary" });
  assert.equal(n.normalize({ type: "integer", "x-nullable": true }, "#"), { type: ["integer", "null"] });
});

test("def names that collide case-insensitively get suffixes", () => {
  const doc = { components: { schemas: { pet: { type: "string" }, Pet: { type: "integer" } } } };
  const { n } = normalizer(doc);
  assert.equal(n.normalize({ $ref: "#/components/schemas/pet" }, "#"), { $ref: "#/$defs/pet" });
  assert.equal(n.normalize({ $ref: "#/components/schemas/Pet" }, "#"), { $ref: "#/$defs/Pet_2" });
});

// oas-examples discriminators.json: branches that differ only in the discriminator's value made
// `oneOf` unsatisfiable once `discriminator` was dropped, so no call (and no contract test) could pass.
test("a discriminator pins its property in each $ref branch (mapping keys, else the schema name)", async () => {
  const base = {
    type: "object",
    required: ["kind"],
    properties: { kind: { type: "string" }, name: { type: "string" } },
  };
  const document = {
    components: {
      schemas: {
        Cat: base,
        Dog: base,
        Fish: base,
        Bird: { ...base, properties: { kind: { type: "string", enum: ["bird"] } } },
      },
    },
  };
  const { n } = normalizer(document);
  const schema = n.normalize(
    {
      oneOf: [
        { $ref: "#/components/schemas/Cat" },
        { $ref: "#/components/schemas/Dog" },
        { $ref: "#/components/schemas/Fish" },
        { $ref: "#/components/schemas/Bird" },
      ],
      discriminator: {
        propertyName: "kind",
        mapping: { cat: "#/components/schemas/Cat", kitten: "Cat", dog: "#/components/schemas/Dog" },
      },
    },
    "#",
  ) as { oneOf: unknown[] };
  const pinned = (values: string[]) => ({ type: "object", properties: { kind: { enum: values } }, required: ["kind"] });
  assert.equal(schema.oneOf[0], { allOf: [{ $ref: "#/$defs/Cat" }, pinned(["cat", "kitten"])] });
  assert.equal(schema.oneOf[1], { allOf: [{ $ref: "#/$defs/Dog" }, pinned(["dog"])] });
  assert.equal(
    schema.oneOf[2],
    { allOf: [{ $ref: "#/$defs/Fish" }, pinned(["Fish"])] },
    "not in the mapping: the schema name",
  );
  assert.equal(schema.oneOf[3], { $ref: "#/$defs/Bird" }, "the branch fixes the value itself");
  // Now exactly one branch matches a value: checked with the validator the servers use.
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const validate = new Ajv2020({ strict: false }).compile({
    ...schema,
    $defs: Object.fromEntries([...n.defs].map(([name, def]) => [name, def.schema])),
  });
  assert.ok(validate({ kind: "kitten", name: "Tom" }));
  assert.not.ok(validate({ kind: "horse" }));
});

test.run();
