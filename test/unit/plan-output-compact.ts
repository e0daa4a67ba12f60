import { test } from "uvu";
import * as assert from "uvu/assert";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  compactOutput,
  compactSchema,
  namesOnly,
  outputNodeBudget,
  simplifyAllOf,
  simplifyAnyOf,
  typedNodes,
  OUTPUT_NODE_BUDGET,
} from "../../generator/pipeline/plan/output-compact.js";
import { assembleOutputSchema, documentedOutput, planOutput } from "../../generator/pipeline/plan/output-schema.js";
import { jsonAnswer } from "../support/runtime-fixture.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { jsonResponse, operation, schemas } from "../support/factories.js";

const none = schemas({});

test("only shape keywords stay: prose, formats, patterns, bounds and defaults go; enum and const stay", () => {
  const schema = {
    type: "object",
    title: "T",
    description: "d",
    examples: [{}],
    minProperties: 1,
    properties: {
      at: { type: "string", format: "date-time", description: "when" },
      code: { type: "string", pattern: "^[a-z]+$", minLength: 1, maxLength: 9, default: "a" },
      n: { type: "integer", minimum: 0, maximum: 9, multipleOf: 1 },
      state: { type: "string", enum: ["open", "closed"] },
      kind: { const: "x" },
    },
    required: ["at"],
  };
  assert.equal(compactSchema(schema, none, 3), {
    type: "object",
    properties: {
      at: { type: "string" },
      code: { type: "string" },
      n: { type: "integer" },
      state: { type: "string", enum: ["open", "closed"] },
      kind: { const: "x" },
    },
    required: ["at"],
  });
});

test("additionalProperties: false is dropped (upstreams add fields); a map's value schema stays", () => {
  const schema = {
    type: "object",
    additionalProperties: false,
    properties: {
      tags: { type: "object", additionalProperties: { type: "string" } },
      any: { type: "object", additionalProperties: true },
    },
  };
  assert.equal(compactSchema(schema, none, 3), {
    type: "object",
    properties: { tags: { type: "object", additionalProperties: { type: "string" } }, any: { type: "object" } },
  });
});

test("refs are inlined (no $defs: each schema stands alone), writeOnly properties leave the response", () => {
  const defs = schemas({
    User: {
      type: "object",
      required: ["login", "password"],
      properties: { login: { type: "string" }, password: { type: "string", writeOnly: true } },
    },
  });
  const compacted = compactSchema({ type: "object", properties: { owner: { $ref: "#/$defs/User" } } }, defs, 3);
  assert.equal(compacted, {
    type: "object",
    properties: { owner: { type: "object", required: ["login"], properties: { login: { type: "string" } } } },
  });
  assert.not.ok(JSON.stringify(compacted).includes("$ref"));
});

test("nesting below the depth keeps only the type; arrays show their items at their own depth; cycles end", () => {
  const defs = schemas({
    Node: {
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: "#/$defs/Node" } },
        parent: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] },
      },
    },
  });
  const root = { type: "object", properties: { node: { $ref: "#/$defs/Node" } } };
  assert.equal(compactSchema(root, defs, 1), { type: "object", properties: { node: { type: "object" } } });
  assert.equal(compactSchema(root, defs, 2), {
    type: "object",
    properties: {
      node: {
        type: "object",
        properties: { name: { type: "string" }, children: { type: "array" }, parent: { type: ["object", "null"] } },
      },
    },
  });
  const deep = compactSchema(root, defs, 3) as { properties: { node: { properties: { children: unknown } } } };
  assert.equal(deep.properties.node.properties.children, {
    type: "array",
    items: {
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array" }, parent: { type: ["object", "null"] } },
    },
  });
  // A ref that loops without nesting accepts anything rather than looping.
  const loop = schemas({ A: { anyOf: [{ $ref: "#/$defs/A" }, { type: "string" }] } });
  assert.equal(compactSchema({ type: "object", properties: { a: { $ref: "#/$defs/A" } } }, loop, 3), {
    type: "object",
    properties: { a: {} },
  });
});

test("oneOf becomes anyOf; identical branches merge; type-only branches become a type list; X or null becomes one node", () => {
  assert.equal(
    compactSchema(
      {
        oneOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "string" } } },
        ],
      },
      none,
      3,
    ),
    {
      anyOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", properties: { b: { type: "string" } } },
      ],
    },
  );
  assert.equal(simplifyAnyOf({ anyOf: [{ type: "string" }, { type: "string" }] }), { type: "string" });
  assert.equal(simplifyAnyOf({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "number" }] }), {
    type: ["string", "number"],
  });
  assert.equal(simplifyAnyOf({ anyOf: [{ type: "string", enum: ["a"] }, { type: "null" }] }), {
    type: ["string", "null"],
    enum: ["a", null],
  });
  assert.equal(simplifyAnyOf({ anyOf: [{ type: "object", properties: { a: {} } }, {}] }), {});
});

test("plain allOf members merge into one object; conflicting properties stay a conjunction", () => {
  assert.equal(
    simplifyAllOf({
      allOf: [
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        { properties: { b: { type: "integer" } }, required: ["b"] },
        {},
      ],
    }),
    {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer" } },
      required: ["a", "b"],
    },
  );
  assert.equal(
    simplifyAllOf({
      allOf: [{ properties: { a: { type: "string" } } }, { properties: { a: { type: ["string", "null"] } } }],
    }),
    {
      properties: { a: { allOf: [{ type: "string" }, { type: ["string", "null"] }] } },
    },
  );
  // Members with other keywords stay as they are.
  assert.equal(simplifyAllOf({ allOf: [{ type: "object" }, { anyOf: [{ required: ["a"] }, { required: ["b"] }] }] }), {
    type: "object",
    allOf: [{ anyOf: [{ required: ["a"] }, { required: ["b"] }] }],
  });
});

test("the node budget makes the schema shallower, then keeps only property names and required", () => {
  const wide: Record<string, unknown> = {};
  for (let i = 0; i < 10; i++)
    wide[`f${i}`] = { type: "object", properties: { x: { type: "string" }, y: { type: "integer" } } };
  const schema = { type: "object", properties: wide, required: ["f0"] };
  assert.is(typedNodes(compactOutput(schema, none, 100)), 31); // depth 3: root, 10 objects, 20 leaves
  assert.is(typedNodes(compactOutput(schema, none, 20)), 11); // depth 1: root and 10 typed properties
  const names = compactOutput(schema, none, 5);
  // Every name once: a required one in `required`, an optional one as a property that accepts anything.
  assert.equal(names, {
    type: "object",
    properties: Object.fromEntries(
      Object.keys(wide)
        .filter((k) => k !== "f0")
        .map((k) => [k, {}]),
    ),
    required: ["f0"],
  });
  // Over the character budget, typed levels give way too, and then the optional names.
  assert.equal(compactOutput(schema, none, 100, 3, 200), names);
  assert.equal(compactOutput(schema, none, 100, 3, 60), { type: "object", required: ["f0"] });
  assert.equal(
    namesOnly({
      anyOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", properties: { b: { type: "string" } }, required: ["b"] },
      ],
    }),
    {
      anyOf: [
        { type: "object", properties: { a: {} } },
        { type: "object", required: ["b"] },
      ],
    },
  );
});

test("each tool's budget is a share of the API budget that halves when the tool count doubles", () => {
  assert.is(outputNodeBudget(1), OUTPUT_NODE_BUDGET);
  assert.is(outputNodeBudget(64), OUTPUT_NODE_BUDGET);
  assert.is(outputNodeBudget(100), 64);
  assert.is(outputNodeBudget(128), 64);
  assert.is(outputNodeBudget(600), 8);
  assert.is(outputNodeBudget(1223), 4);
  assert.is(outputNodeBudget(100_000), 4);
});

test("the output schema is anyOf the documented shape (without a repeated root type) and the fallback key", () => {
  const schema = assembleOutputSchema(
    { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
    "unexpectedResponse",
  );
  assert.equal(schema, {
    type: "object",
    anyOf: [{ properties: { id: { type: "integer" } }, required: ["id"] }, { required: ["unexpectedResponse"] }],
  });
  schema.properties = { nextCursor: { type: "string" } };
  assert.equal(documentedOutput(schema), {
    type: "object",
    properties: { id: { type: "integer" }, nextCursor: { type: "string" } },
    required: ["id"],
  });
});

test("planOutput: GitHub-sized responses under a small budget list their property names", () => {
  const props: Record<string, unknown> = {};
  for (let i = 0; i < 40; i++) props[`p${i}`] = { type: "string", format: "uri", description: "x".repeat(50) };
  const defs = schemas({ Repo: { type: "object", required: ["p0"], properties: props } });
  const plan = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Repo" })] }), defs, {
    nodeBudget: 4,
  });
  const schema = plan.outputSchema!;
  const documented = (schema.anyOf as Array<{ properties: Record<string, unknown>; required: string[] }>)[0]!;
  // Every name once: the required one in `required`, the optional ones as properties that accept anything.
  assert.equal(Object.keys(documented.properties).length, 39);
  assert.equal(documented.properties.p1, {});
  assert.not.ok("p0" in documented.properties);
  assert.equal(documented.required, ["p0"]);
  assert.ok(JSON.stringify(schema).length < 700);
});

/** A tool with a planned output schema, for the runtime's response mapping. */
function toolFor(
  defs: ReturnType<typeof schemas>,
  responseSchema: Record<string, unknown>,
  budget: number,
): ToolDefinition {
  const plan = planOutput(operation({ responses: [jsonResponse("200", responseSchema)] }), defs, {
    nodeBudget: budget,
  });
  return {
    name: "t",
    description: "t",
    inputSchema: { type: "object" },
    outputSchema: plan.outputSchema!,
    http: { method: "get", path: "/t", parameters: [], response: plan.response },
  };
}

test("a deviating response still gives a result the SDK client's validator accepts, at every budget", () => {
  const defs = schemas({
    User: { type: "object", required: ["login"], properties: { login: { type: "string" }, id: { type: "integer" } } },
    Issue: {
      type: "object",
      required: ["id", "user"],
      properties: {
        id: { type: "integer" },
        user: { $ref: "#/$defs/User" },
        labels: { type: "array", items: { type: "string" } },
      },
    },
  });
  const sdk = new AjvJsonSchemaValidator();
  const respond = (tool: ToolDefinition, body: unknown) => jsonAnswer(tool, body);
  for (const budget of [100, 3, 1]) {
    for (const schema of [{ $ref: "#/$defs/Issue" }, { type: "array", items: { $ref: "#/$defs/Issue" } }]) {
      const tool = toolFor(defs, schema, budget);
      const check = sdk.getValidator(tool.outputSchema!);
      const wrap = (body: unknown) => (tool.http.response.wrapKey ? [body] : body);
      const good = respond(tool, wrap({ id: 1, user: { login: "octocat" }, labels: ["bug"] }));
      assert.ok(check(good.structuredContent).valid, `documented response, budget ${budget}`);
      assert.is((good.structuredContent as Record<string, unknown>).unexpectedResponse, undefined);
      // Missing a required property, wrong types, a bare string: each lands in the fallback shape.
      for (const bad of [wrap({ user: { login: "octocat" } }), wrap({ id: "1", user: { login: 7 } }), "maintenance"]) {
        const result = respond(tool, bad);
        assert.ok(check(result.structuredContent).valid, `deviating ${JSON.stringify(bad)}, budget ${budget}`);
      }
      const missing = respond(tool, wrap({ user: { login: "octocat" } }));
      if (budget === 100 || !tool.http.response.wrapKey)
        assert.ok((missing.structuredContent as Record<string, unknown>).unexpectedResponse);
    }
  }
});

test.run();
