import { test } from "uvu";
import * as assert from "uvu/assert";
import { accepts, invalidValue, sampleValue } from "../../generator/pipeline/emit/test-cases/sample-value.js";

test("sampleValue prefers the schema's own valid examples, defaults and enums", () => {
  assert.is(sampleValue({ type: "string", examples: ["Rex"] }), "Rex");
  assert.is(sampleValue({ type: "integer", default: 20 }), 20);
  assert.is(sampleValue({ enum: ["a", "b"] }), "a");
  assert.is(sampleValue({ const: 7 }), 7);
  // An example the schema itself refuses is not used.
  const value = sampleValue({ type: "string", pattern: "^[A-Z]{3}-\\d{4}$", example: "abc" });
  assert.is.not(value, "abc");
  assert.match(String(value), /^[A-Z]{3}-\d{4}$/);
});

test("an example's keys that the schema does not declare are dropped, at every depth its types are closed", () => {
  // api.video and appveyor.com: examples with keys the schema never declares (valid JSON Schema, but
  // the generated types list exactly the declared properties, so the sample would not type-check).
  const root = {
    type: "object",
    properties: { body: { $ref: "#/$defs/WithSettings" } },
    required: ["body"],
    $defs: {
      WithSettings: {
        allOf: [
          { $ref: "#/$defs/Base" },
          { $ref: "#/$defs/Stamped" },
          { properties: { settings: { $ref: "#/$defs/Settings" } } },
        ],
        example: { id: 1, extra: "kept: Stamped is a record part", settings: { vars: ["a"], provider: "dropped" } },
      },
      Base: { type: "object", properties: { id: { type: "integer" } } },
      Stamped: { type: "object", properties: {} },
      Settings: { type: "object", properties: { vars: { type: "array", items: { type: "string" } } } },
    },
  };
  assert.equal(sampleValue(root), {
    body: { id: 1, extra: "kept: Stamped is a record part", settings: { vars: ["a"] } },
  });
  const player = {
    type: "object",
    properties: { color: { type: "string" }, assets: { type: "object" } },
    example: { color: "red", language: "en", assets: { logo: "x" } },
  };
  // `assets` is declared as a record: its own keys stay.
  assert.equal(sampleValue(player), { color: "red", assets: { logo: "x" } });
  // A required name the schema does not declare is part of the type (unknown), so it stays.
  assert.equal(
    sampleValue({
      type: "object",
      properties: { a: { type: "string" } },
      required: ["b"],
      example: { a: "x", b: 2, c: 3 },
    }),
    { a: "x", b: 2 },
  );
  // A union stays as it is.
  const union = { oneOf: [{ type: "object", properties: { a: { type: "string" } } }], example: { a: "x", b: 1 } };
  assert.equal(sampleValue(union), { a: "x", b: 1 });
});

test("a name required beside an allOf but declared in one of its parts gets that part's sample", () => {
  // codat.io's Account: `required: [type, status, isBankAccount]` next to `allOf: [{ properties }]`;
  // before, each got "example", no sample satisfied the schema and the tool's contract case was skipped.
  const root = {
    $defs: { AccountType: { type: "string", enum: ["Unknown", "Asset"] } },
    allOf: [{ properties: { type: { $ref: "#/$defs/AccountType" }, isBankAccount: { type: "boolean" } } }],
    required: ["type", "isBankAccount"],
    type: "object",
  };
  const value = sampleValue(root);
  assert.equal(value, { type: "Unknown", isBankAccount: true });
  assert.ok(accepts(root, value));
});

test("sampleValue honours pattern, format, multipleOf, bounds, minItems, uniqueItems, minLength", () => {
  const schema = {
    type: "object",
    properties: {
      sku: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" },
      qty: { type: "integer", multipleOf: 5, minimum: 3, maximum: 40 },
      ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.01 },
      tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, minItems: 2, uniqueItems: true },
      email: { type: "string", format: "email" },
      when: { type: "string", format: "date-time" },
      blob: { type: "string", format: "byte" },
      name: { type: "string", minLength: 1, maxLength: 3 },
      optional: { type: "string" },
    },
    required: ["sku", "qty", "ratio", "tags", "email", "when", "blob", "name"],
    additionalProperties: false,
  };
  const value = sampleValue(schema) as Record<string, unknown>;
  assert.ok(accepts(schema, value), JSON.stringify(value));
  assert.equal(Object.keys(value).sort(), [...schema.required].sort(), "only required properties");
  assert.match(String(value.sku), /^[A-Z]{3}-\d{4}$/);
  assert.is((value.qty as number) % 5, 0);
});

test("sampleValue picks a oneOf branch that matches exactly one branch", () => {
  const schema = {
    oneOf: [
      { type: "object", properties: { kind: { const: "a" }, a: { type: "string" } }, required: ["kind", "a"] },
      { type: "object", properties: { kind: { const: "b" }, b: { type: "integer" } }, required: ["kind", "b"] },
    ],
  };
  assert.ok(accepts(schema, sampleValue(schema)));
  const overlapping = { oneOf: [{ type: "number" }, { type: "integer" }] };
  const value = sampleValue(overlapping);
  assert.ok(accepts(overlapping, value), JSON.stringify(value));
});

test("sampleValue is deterministic: the same schema gives the same value in every run", () => {
  const schema = {
    type: "object",
    properties: { id: { type: "string", pattern: "^[a-f0-9]{8}$" }, n: { type: "number" } },
    required: ["id", "n"],
  };
  assert.equal(sampleValue(schema), sampleValue(structuredClone(schema)));
});

test("sampleValue resolves $defs and ends on recursive schemas", () => {
  const root = {
    $defs: {
      Node: {
        type: "object",
        properties: { next: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] } },
        required: ["next"],
      },
    },
    $ref: "#/$defs/Node",
  };
  const value = sampleValue(root, root);
  assert.type(value, "object");
  assert.ok(accepts(root, value));
  assert.ok(JSON.stringify(value).length < 2000);
  // A sub-schema sampled alone still sees the root's $defs.
  const property = { type: "object", properties: { node: { $ref: "#/$defs/Node" } }, required: ["node"] };
  assert.ok(accepts(property, sampleValue(property, root), root));
});

test("invalidValue picks a value the schema refuses, or none", () => {
  assert.is(invalidValue({ type: "string" }, {}), 12345);
  assert.is(invalidValue({ type: "integer" }, {}), "not-a-integer");
  assert.is(invalidValue({ enum: ["a"] }, {}), "__not_one_of_the_allowed_values__");
  assert.is(invalidValue({}, {}), undefined);
  // Refused only if the schema really refuses it: a string-or-number accepts 12345.
  assert.is(invalidValue({ type: "string", enum: [12345, "a"] }, {}), "__not_one_of_the_allowed_values__");
});

// Regression: AWS-style specs (dev corpus redshift) bound every string by maxLength 2147483647 and
// annotate refs with `allOf: [{ $ref }, { description }]`. The annotation part once replaced the
// object's value with "example", and faking the whole schema then built a 2 GB string (out of heap).
test("sampleValue: annotation-only allOf parts keep the typed part's value; huge bounds stay cheap", () => {
  const schema = {
    type: "object",
    properties: {
      Identifiers: { type: "array", minItems: 1, items: { allOf: [{ $ref: "#/$defs/Message" }, {}] } },
      Code: { type: "string", pattern: "^[a-z]{2}$", maxLength: 2147483647 },
    },
    required: ["Identifiers", "Code"],
    $defs: {
      Message: {
        type: "object",
        required: ["Id"],
        properties: { Id: { allOf: [{ $ref: "#/$defs/String" }, { description: "The id." }] } },
      },
      String: { type: "string", maxLength: 2147483647 },
    },
  };
  const value = sampleValue(schema) as { Identifiers: unknown[]; Code: string };
  assert.ok(accepts(schema, value), JSON.stringify(value));
  assert.equal(value.Identifiers[0], { Id: "example" });
  assert.match(value.Code, /^[a-z]{2}$/);
  // Faking a string with a huge bound must not build a huge string (the bound is lowered first).
  const faked = sampleValue({ type: "string", minLength: 3, maxLength: 2147483647, pattern: "^x+$" }) as string;
  assert.ok(typeof faked === "string" && faked.length <= 64 && /^x+$/.test(faked), String(faked).slice(0, 80));
});

test.run();
