import { test } from "uvu";
import * as assert from "uvu/assert";
import { schemaToType } from "../../generator/pipeline/emit/typescript/schema-to-ts.js";
import { oneLine, typeNode } from "../../generator/pipeline/emit/typescript/type-expression.js";

const ref = (name: string) => `Ref${name}`;

test("primitives, enums, nullables and arrays", () => {
  assert.is(schemaToType({ type: "integer" }, ref), "number");
  assert.is(schemaToType({ enum: ["a", 'b"c'] }, ref), '"a" | "b\\"c"');
  assert.is(schemaToType({ type: ["string", "null"] }, ref), "(string | null)");
  assert.is(schemaToType({ type: "array", items: { $ref: "#/$defs/Pet" } }, ref), "Array<RefPet>");
  assert.is(schemaToType(true, ref), "unknown");
});

test("objects quote keys that are not identifiers and mark optional ones", () => {
  assert.is(
    schemaToType(
      { type: "object", required: ["a-b"], properties: { "a-b": { type: "string" }, c: { type: "boolean" } } },
      ref,
    ),
    '{ "a-b": string; c?: boolean; }',
  );
  assert.is(schemaToType({ type: "object", additionalProperties: { type: "integer" } }, ref), "Record<string, number>");
});

test("a required name the object does not declare is a required member of type unknown", () => {
  // @readme/oas-examples schema-enums: `required` lists a property `properties` lacks; a value must
  // still carry it (the contract test's sample does), so the type must take it.
  assert.is(
    schemaToType({ type: "object", properties: { a: { type: "boolean" } }, required: ["a", "b c"] }, ref),
    '{ a: boolean; "b c": unknown; }',
  );
  // Without declared properties the object stays a record, which must also have the required names.
  assert.is(schemaToType({ type: "object", required: ["id"] }, ref), "({ id: unknown; } & Record<string, unknown>)");
  assert.is(
    schemaToType({ type: "object", required: ["id"], additionalProperties: { type: "string" } }, ref),
    "({ id: unknown; } & Record<string, string>)",
  );
});

test("compositions; a bare type object beside them adds nothing", () => {
  assert.is(
    schemaToType({ type: "object", allOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }] }, ref),
    "RefA & RefB",
  );
  assert.is(schemaToType({ oneOf: [{ type: "string" }, { type: "integer" }] }, ref), "(string | number)");
});

test("`required` alone, as an output schema's fallback branch, is an object with those keys (not unknown)", () => {
  const output = {
    type: "object",
    anyOf: [{ properties: { id: { type: "integer" } }, required: ["id"] }, { required: ["unexpectedResponse"] }],
  };
  assert.is(schemaToType(output, ref), "({ id: number; } | { unexpectedResponse: unknown; })");
  assert.is(oneLine(typeNode(output, ref)), "{ id: number; } | { unexpectedResponse: unknown; }");
  // Without any name it still says nothing.
  assert.is(schemaToType({ required: [] }, ref), "unknown");
});

test.run();
