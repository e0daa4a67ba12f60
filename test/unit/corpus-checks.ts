import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkTools, countOperations, foreignKeywords } from "../corpus/check-tools.js";
import { applyDirection, reachableDefs } from "../../generator/pipeline/plan/schema-tools.js";
import { schemas } from "../support/factories.js";

test("foreignKeywords finds OpenAPI-only keywords by schema position, not property names", () => {
  const schema = {
    type: "object",
    properties: {
      example: { type: "string", nullable: true },
      xml: { type: "integer", exclusiveMinimum: true, "x-mcp-header": "X" },
    },
    items: { discriminator: { propertyName: "k" } },
    $defs: { A: { $ref: "https://example.com/a.json", "x-internal": true } },
  };
  assert.equal(foreignKeywords(schema), [
    "#/items: discriminator",
    "#/properties/example: nullable",
    "#/properties/xml: boolean exclusiveMinimum",
    "#/$defs/A: non-local $ref https://example.com/a.json",
    "#/$defs/A: x-internal",
  ]);
});

test("checkTools reports names, duplicates, descriptions, roots and uncompilable schemas", () => {
  const problems = checkTools(
    [
      { name: "ok", description: "fine", inputSchema: { type: "object", properties: {} } },
      { name: "ok", description: "", inputSchema: { type: "object" } },
      {
        name: "bad name!",
        description: "d",
        inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/Missing" } } },
        outputSchema: { type: "array" },
      },
    ],
    4,
  );
  assert.equal(problems.length, 7);
  assert.match(
    problems.join("\n"),
    /3 tools for 4 operations[\s\S]*duplicate name[\s\S]*no description[\s\S]*root has no properties[\s\S]*invalid name[\s\S]*cannot compile[\s\S]*root type is "array"/,
  );
});

test("countOperations follows path-item $refs", () => {
  const doc = {
    paths: { "/a": { get: {}, post: {} }, "/b": { $ref: "#/components/pathItems/B" } },
    components: { pathItems: { B: { delete: {} } } },
  };
  assert.is(countOperations(doc), 3);
});

test("a property named like a keyword (examples, default, enum) is still walked", () => {
  const defs = schemas({
    Inner: { type: "object", properties: { id: { type: "string", readOnly: true }, n: { type: "integer" } } },
    Outer: {
      type: "object",
      properties: {
        examples: { $ref: "#/$defs/Inner" },
        default: { type: "object", properties: { s: { type: "string", readOnly: true } } },
      },
    },
  });
  assert.equal(reachableDefs([{ $ref: "#/$defs/Outer" }], defs), ["Outer", "Inner"]);
  const input = applyDirection(defs.get("Outer")!.schema, "input") as {
    properties: { default: { properties: object } };
  };
  assert.equal(input.properties.default.properties, {});
});

test.run();
