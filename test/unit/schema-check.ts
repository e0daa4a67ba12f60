import { test } from "uvu";
import * as assert from "uvu/assert";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { SchemaChecker } from "../../generator/emit/schema-check.js";

type Schema = Record<string, unknown>;

// The generated server's validator options (runtime/src/validation.ts): the answers must be its answers.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;
function serverAccepts(schema: Schema, value: unknown): boolean {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    validateSchema: false,
    logger: false,
    ownProperties: true,
  });
  addFormats(ajv);
  return ajv.compile(structuredClone(schema))(value) === true;
}

const defs = {
  Pet: {
    type: "object",
    properties: { name: { type: "string", minLength: 2, description: "Its name." } },
    required: ["name"],
    additionalProperties: false,
  },
};
const schemas: Schema[] = [
  // Split property by property (type object, properties, required, additionalProperties, annotations).
  {
    type: "object",
    title: "Args",
    properties: { id: { type: "integer", minimum: 1 }, when: { type: "string", format: "date-time" } },
    required: ["id"],
  },
  { type: "object", properties: { a: { type: "string" } }, additionalProperties: false, "x-internal": true },
  { properties: { a: { type: "string" } }, required: ["a"] },
  {
    type: "object",
    properties: { toString: { type: "string" }, __proto__: { type: "integer" } },
    required: ["toString"],
  },
  {
    type: "object",
    properties: { pet: { $ref: "#/$defs/Pet" }, flag: true, never: false },
    required: ["pet"],
    $defs: defs,
  },
  // Not split: compiled whole.
  { type: "object", properties: { a: { type: "string" } }, minProperties: 1 },
  { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "integer" } },
  {
    oneOf: [
      { type: "string", description: "one" },
      { type: "integer", description: "two" },
    ],
  },
];
const values: unknown[] = [
  {},
  { id: 1 },
  { id: 0 },
  { id: 2, when: "2024-01-01T00:00:00Z" },
  { id: 2, when: "yesterday" },
  { a: "x" },
  { a: 1 },
  { a: "x", b: 2 },
  { toString: "s" },
  JSON.parse('{"toString": "s", "__proto__": 1}'),
  JSON.parse('{"toString": "s", "__proto__": "x"}'),
  { pet: { name: "Rex" } },
  { pet: { name: "R" } },
  { pet: { name: "Rex", age: 3 } },
  { pet: { name: "Rex" }, never: 1 },
  { pet: { name: "Rex" }, flag: [1] },
  "text",
  12,
  null,
  [1, 2],
  [],
];

test("SchemaChecker answers as the server's ajv does, split or whole", () => {
  const checker = new SchemaChecker();
  let refused = 0;
  for (const schema of schemas) {
    for (const value of values) {
      const expected = serverAccepts(schema, value);
      if (!expected) refused += 1;
      assert.is(checker.accepts(schema, value), expected, `${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
    }
  }
  assert.ok(refused > 20, "the values exercise refusals too");
});

test("SchemaChecker: a property schema resolves $refs against the root's $defs", () => {
  const checker = new SchemaChecker();
  const root = { type: "object", properties: { pet: { $ref: "#/$defs/Pet" } }, $defs: defs };
  assert.ok(checker.accepts(root.properties.pet, { name: "Rex" }, root));
  assert.not.ok(checker.accepts(root.properties.pet, { name: "R" }, root));
  // The same node under other $defs is checked against those.
  const other = { $defs: { Pet: { type: "string" } } };
  assert.ok(checker.accepts(root.properties.pet, "Rex", other));
  assert.not.ok(checker.accepts(root.properties.pet, { name: "Rex" }, other));
});

test("SchemaChecker compiles schemas that differ only in annotations once", () => {
  const checker = new SchemaChecker();
  const tools = Array.from({ length: 50 }, (_, i) => ({
    type: "object",
    description: `Tool ${i}.`,
    properties: {
      owner: { type: "string", minLength: 1, description: `The owner (tool ${i}).` },
      page: { type: "integer", minimum: 1, default: 1, examples: [i + 1], "x-order": i },
    },
    required: ["owner"],
  }));
  for (const schema of tools) {
    assert.ok(checker.accepts(schema, { owner: "octo", page: 2 }));
    assert.not.ok(checker.accepts(schema, { owner: "", page: 2 }));
    assert.not.ok(checker.accepts(schema, { owner: "octo", page: 0 }));
  }
  assert.is(checker.compiledSchemas, 2, "one validator per distinct property schema (owner, page)");
});

test("SchemaChecker keeps annotation-named properties (only keywords are annotations)", () => {
  const checker = new SchemaChecker();
  const schema = {
    type: "object",
    properties: { description: { type: "string" }, default: { type: "integer" } },
    required: ["description", "default"],
    minProperties: 2,
  };
  assert.ok(checker.accepts(schema, { description: "d", default: 1 }));
  assert.not.ok(checker.accepts(schema, { description: "d", default: "one" }));
  assert.not.ok(checker.accepts(schema, { description: "d" }));
});

test.run();
