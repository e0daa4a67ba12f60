import { test } from "uvu";
import * as assert from "uvu/assert";
import type { JsonSchema } from "../../runtime/src/api/types.js";
import type { SchemaIR } from "../../generator/pipeline/ir/ir-types.js";
import { defsFor, reachableDefs, schemaJsonLength, sharedCopy } from "../../generator/pipeline/plan/schema-tools.js";

const defs = new Map<string, SchemaIR>(
  Object.entries({
    A: {
      type: "object",
      properties: { b: { $ref: "#/$defs/B" }, c: { $ref: "#/$defs/C" }, id: { type: "string", readOnly: true } },
    },
    B: { type: "array", items: { $ref: "#/$defs/A" } },
    C: { anyOf: [{ $ref: "#/$defs/D" }, { $ref: "#/$defs/B" }] },
    D: { type: "string", description: "d" },
    E: { type: "integer" },
  }).map(([name, schema]) => [name, { name, schema, pointer: `#/components/schemas/${name}` } as unknown as SchemaIR]),
);

test("reachable defs: depth-first, first-reached order, cycles end, unknown names skipped", () => {
  assert.equal(reachableDefs([{ $ref: "#/$defs/C" }, { $ref: "#/$defs/E" }, { $ref: "#/$defs/Nope" }], defs), [
    "C",
    "D",
    "B",
    "A",
    "E",
  ]);
  assert.equal(reachableDefs([{ type: "object", properties: { x: { $ref: "#/$defs/A" } } }], defs), [
    "A",
    "B",
    "C",
    "D",
  ]);
});

test("defsFor shares one directed copy of a def between calls, without changing the IR", () => {
  const first = defsFor([{ $ref: "#/$defs/A" }], defs, "input")!;
  const second = defsFor([{ $ref: "#/$defs/B" }], defs, "input")!;
  assert.is(first.A, second.A);
  assert.equal(Object.keys((first.A as { properties: object }).properties), ["b", "c"]);
  assert.ok("id" in (defs.get("A")!.schema as { properties: object }).properties);
  assert.is.not(defsFor([{ $ref: "#/$defs/A" }], defs, "output")!.A, first.A);
});

test("schemaJsonLength is JSON.stringify(…).length; sharedCopy copies once per transform", () => {
  const $defs = defsFor([{ $ref: "#/$defs/A" }], defs, "output")!;
  const schema = { type: "object", anyOf: [{ $ref: "#/$defs/A" }, { type: "object" }], $defs, required: ["x"] };
  assert.is(schemaJsonLength(schema), JSON.stringify(schema).length);
  assert.is(schemaJsonLength(schema), JSON.stringify(schema).length); // remembered lengths
  assert.is(schemaJsonLength({ $defs: {} }), JSON.stringify({ $defs: {} }).length);
  assert.is(schemaJsonLength({ a: 1 }), JSON.stringify({ a: 1 }).length);
  const strip = (s: JsonSchema): JsonSchema => ({ ...(s as object), description: undefined }) as JsonSchema;
  const d = $defs.D as JsonSchema;
  assert.is(sharedCopy(d, strip), sharedCopy(d, strip));
  assert.is((d as { description?: string }).description, "d");
});

test.run();
