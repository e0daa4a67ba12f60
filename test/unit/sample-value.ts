import { test } from "uvu";
import * as assert from "uvu/assert";
import { invalidValue, sampleValue } from "../../generator/emit/sample-value.js";

test("sampleValue prefers examples, defaults and enums, then builds a value of the right type", () => {
  assert.is(sampleValue({ type: "string", examples: ["Rex"] }), "Rex");
  assert.is(sampleValue({ type: "integer", default: 20 }), 20);
  assert.is(sampleValue({ enum: ["a", "b"] }), "a");
  assert.is(sampleValue({ type: "string", format: "date-time" }), "2024-01-01T00:00:00Z");
  assert.is(sampleValue({ type: "integer", minimum: 5 }), 5);
  assert.is(String(sampleValue({ type: "string", minLength: 10 })).length, 10);
  assert.equal(sampleValue({ type: "object", properties: { a: { type: "boolean" }, b: { type: "string" } }, required: ["a"] }), { a: true });
  assert.equal(sampleValue({ type: "array", items: { type: ["null", "number"] } }), [1]);
});

test("sampleValue resolves $defs and ends on recursive schemas", () => {
  const root = { $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } }, required: ["next"] } }, $ref: "#/$defs/Node" };
  const value = sampleValue(root, root);
  assert.type(value, "object");
  assert.ok(JSON.stringify(value).length < 200);
});

test("invalidValue picks a value of the wrong type or outside the enum", () => {
  assert.is(invalidValue({ type: "string" }, {}), 12345);
  assert.is(invalidValue({ type: "integer" }, {}), "not-a-integer");
  assert.is(invalidValue({ enum: ["a"] }, {}), "__not_one_of_the_allowed_values__");
  assert.is(invalidValue({}, {}), undefined);
});

test.run();
