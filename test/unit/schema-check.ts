import { test } from "uvu";
import * as assert from "uvu/assert";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { SchemaChecker } from "../../generator/pipeline/emit/test-cases/schema-check.js";

type Schema = Record<string, unknown>;

// The generated server's validator options (runtime/src/api/validation.ts): the answers must be its answers.
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

/** Asserts the checker's answer is the server's for every schema and value; returns how many the server refused. */
function assertServerAnswers(checker: SchemaChecker, schemas: Schema[], values: unknown[]): number {
  let refused = 0;
  for (const schema of schemas) {
    for (const value of values) {
      const expected = serverAccepts(schema, value);
      if (!expected) refused += 1;
      assert.is(checker.accepts(schema, value), expected, `${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
    }
  }
  return refused;
}

test("SchemaChecker answers as the server's ajv does, split or whole", () => {
  const refused = assertServerAnswers(new SchemaChecker(), schemas, values);
  assert.ok(refused > 20, "the values exercise refusals too");
});

// Split keyword by keyword (node-check.ts), beside the ones ajv checks whole.
const structural: Schema[] = [
  { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 2 },
  { type: ["string", "null"], enum: ["a", "b", null] },
  { const: { a: "x" } },
  { enum: [[1, 2], { a: "x" }, 12] },
  { anyOf: [{ type: "string" }, { type: "object", required: ["a"] }] },
  { oneOf: [{ type: "number" }, { type: "integer" }] },
  {
    oneOf: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", required: ["b"] },
    ],
  },
  { allOf: [{ type: "object", required: ["a"] }, { properties: { a: { enum: ["x"] } } }] },
  { type: "object", additionalProperties: { type: "integer" }, properties: { a: { type: "string" } } },
  { items: false },
  {
    type: "object",
    properties: { pet: { $ref: "#/$defs/Pet", type: "object" }, list: { items: { $ref: "#/$defs/Pet" } } },
    $defs: defs,
  },
  { type: "object", properties: { n: { type: "number", minimum: 2 } }, required: ["n"] },
];
// Not the objects with an own `toString`: ajv's deep equality (enum, const) calls it.
const structuralValues: unknown[] = [
  ...values.filter((value) => typeof value !== "object" || value === null || !Object.hasOwn(value, "toString")),
  [3],
  [1, 2, 3],
  [1.5],
  1.5,
  "a",
  "c",
  { a: "x" },
  { a: "y" },
  { b: 1 },
  { a: "x", b: 1 },
  { a: "x", b: "1" },
  { pet: { name: "Rex" }, list: [{ name: "Rex" }] },
  { pet: { name: "Rex" }, list: [{ name: "R" }] },
  { n: 3 },
  { n: 1 },
];

test("SchemaChecker: structural keywords are checked without compiling, as the server's ajv answers", () => {
  const checker = new SchemaChecker();
  const refused = assertServerAnswers(checker, structural, structuralValues);
  assert.ok(refused > 100, "the values exercise refusals too");
  // Compiled: the leaves with other keywords only (Pet's name: minLength; n: minimum).
  assert.is(checker.compiledSchemas, 2);
});

test("SchemaChecker: a property that is undefined counts as absent, as ajv's ownProperties reads it", () => {
  const checker = new SchemaChecker();
  const schema = { type: "object", properties: { a: { type: "string" } }, required: ["b"] };
  assert.is(checker.accepts(schema, { a: undefined, b: 1 }), serverAccepts(schema, { a: undefined, b: 1 }));
  assert.is(checker.accepts(schema, { b: undefined }), serverAccepts(schema, { b: undefined }));
});

test("SchemaChecker: a schema that refers to itself without end throws, as ajv's validator overflows", () => {
  const checker = new SchemaChecker();
  const schema = { $ref: "#/$defs/A", $defs: { A: { allOf: [{ $ref: "#/$defs/A" }] } } };
  assert.throws(
    () => checker.accepts(schema, 1),
    (error: unknown) => error instanceof RangeError,
  );
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

test("SchemaChecker adds each $defs entry to ajv once for every tool that reaches it, and answers as the server does", () => {
  const checker = new SchemaChecker();
  // As the planner builds them: each tool has its own $defs object, sharing the entry objects.
  const entries = {
    Item: {
      type: "object",
      properties: { id: { type: "string", minLength: 1, description: "Its id." }, parent: { $ref: "#/$defs/Item" } },
      required: ["id"],
    },
    Bag: {
      type: "object",
      properties: {
        items: { type: "array", items: { $ref: "#/$defs/Item" } },
        "a/b~c": { $ref: "#/$defs/Odd~1name~0" },
      },
    },
    "Odd/name~": { type: "integer", minimum: 3 },
  };
  const tools: Schema[] = Array.from({ length: 40 }, (_, i) => ({
    type: "object",
    description: `Tool ${i}.`,
    properties: { [`arg${i % 3}`]: { $ref: "#/$defs/Bag" }, item: { $ref: "#/$defs/Item" } },
    required: ["item"],
    $defs: { ...entries },
  }));
  const samples: unknown[] = [
    { item: { id: "a" } },
    { item: { id: "" } },
    { item: { id: "a", parent: { id: "b" } } },
    { item: { id: "a", parent: { id: 1 } } },
    {},
    { item: { id: "a" }, arg0: { items: [{ id: "x" }] } },
    { item: { id: "a" }, arg0: { items: [{}] } },
    { item: { id: "a" }, arg1: { "a/b~c": 3 } },
    { item: { id: "a" }, arg2: { "a/b~c": 2 } },
  ];
  let refused = 0;
  for (const schema of tools) {
    for (const value of samples) {
      const expected = serverAccepts(schema, value);
      if (!expected) refused += 1;
      assert.is(
        checker.accepts(schema, value),
        expected,
        `${JSON.stringify(schema.properties)} on ${JSON.stringify(value)}`,
      );
      // A property and an entry checked on their own, against the tool's $defs.
      const item = (value as Schema).item;
      assert.is(
        checker.accepts((schema.properties as Schema).item as Schema, item, schema),
        serverAccepts({ ...((schema.properties as Schema).item as Schema), $defs: entries }, item),
      );
    }
  }
  assert.ok(refused >= 3 * tools.length, "the values exercise refusals too");
  assert.is(checker.registeredDefs, 3, "each entry added once");
});

test("SchemaChecker: the same $defs name with different schemas in two tools (input and output copies) keeps both apart", () => {
  const checker = new SchemaChecker();
  const input = {
    type: "object",
    properties: { pet: { $ref: "#/$defs/Pet" } },
    $defs: { Pet: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
  };
  const output = {
    type: "object",
    properties: { pet: { $ref: "#/$defs/Pet" } },
    $defs: { Pet: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } },
  };
  for (let round = 0; round < 2; round++) {
    assert.ok(checker.accepts(input, { pet: { name: "Rex" } }));
    assert.not.ok(checker.accepts(input, { pet: { id: 1 } }));
    assert.ok(checker.accepts(output, { pet: { id: 1 } }));
    assert.not.ok(checker.accepts(output, { pet: { name: "Rex" } }));
  }
  assert.is(checker.registeredDefs, 2);
});

test("SchemaChecker: $defs the registry cannot take (refs to the root, pointers into an entry, $id) are compiled with the schema", () => {
  const checker = new SchemaChecker();
  const schemas: Schema[] = [
    {
      type: "object",
      properties: { child: { $ref: "#/$defs/Node" } },
      $defs: { Node: { type: "object", properties: { up: { $ref: "#" } }, additionalProperties: false } },
    },
    {
      type: "object",
      properties: { n: { $ref: "#/$defs/Box/properties/n" } },
      $defs: { Box: { properties: { n: { type: "integer" } } } },
    },
    {
      type: "object",
      properties: { a: { $ref: "#/$defs/A" } },
      $defs: { A: { $id: "https://example.com/a", type: "string" } },
    },
  ];
  const values: unknown[] = [
    {},
    { child: {} },
    { child: { up: {} } },
    { child: { up: { child: { x: 1 } } } },
    { child: 1 },
    { n: 1 },
    { n: "1" },
    { a: "x" },
    { a: 1 },
  ];
  for (const schema of schemas) {
    for (const value of values)
      assert.is(
        checker.accepts(schema, value),
        serverAccepts(schema, value),
        `${JSON.stringify(schema)} on ${JSON.stringify(value)}`,
      );
  }
  // Only Box (its refs are plain): the ref into it is compiled with the $defs attached.
  assert.is(checker.registeredDefs, 1);
});

test("SchemaChecker: a ref to an entry missing from the tool's own $defs does not resolve to another tool's entry", () => {
  const checker = new SchemaChecker();
  const full = {
    type: "object",
    properties: { pet: { $ref: "#/$defs/Pet" } },
    $defs: { Pet: { type: "string" }, Tag: { type: "integer" } },
  };
  const broken = { type: "object", properties: { pet: { $ref: "#/$defs/Pet" } }, $defs: { Tag: { type: "integer" } } };
  assert.not.ok(checker.accepts(full, { pet: 1 }));
  // The server's ajv cannot compile `broken` at all; the checker has nothing to check (true), as for any schema ajv refuses.
  assert.throws(() => serverAccepts(broken, { pet: 1 }));
  assert.ok(checker.accepts(broken, { pet: 1 }));
});

test.run();
