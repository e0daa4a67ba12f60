import { test } from "uvu";
import * as assert from "uvu/assert";
import { annotationsFor } from "../../generator/plan/annotations.js";
import { fallbackBranch, planOutput } from "../../generator/plan/output-schema.js";
import { jsonResponse, operation, schemas } from "../factories.js";

const defs = schemas({
  Pet: { type: "object", required: ["id"], properties: { id: { type: "integer" }, secret: { type: "string", writeOnly: true } } },
  Pets: { type: "array", items: { $ref: "#/$defs/Pet" } },
});

test("an object response is the documented branch, root inlined, writeOnly removed; a fallback branch follows", () => {
  const plan = planOutput(operation({ responses: [jsonResponse("404", { type: "string" }), jsonResponse("200", { $ref: "#/$defs/Pet" })] }), defs);
  assert.equal(plan.outputSchema, {
    type: "object",
    anyOf: [{ type: "object", required: ["id"], properties: { id: { type: "integer" } } }, fallbackBranch("unexpectedResponse")],
  });
  assert.equal(plan.response, { accept: ["application/json"], fallbackKey: "unexpectedResponse" });
});

test("arrays and scalars are wrapped under result", () => {
  const plan = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Pets" })] }), defs);
  assert.equal(plan.response.wrapKey, "result");
  assert.equal(plan.outputSchema!.type, "object");
  const documented = (plan.outputSchema!.anyOf as Array<Record<string, unknown>>)[0]!;
  assert.equal(documented.properties, { result: { $ref: "#/$defs/Pets" } });
  assert.equal(Object.keys(plan.outputSchema!.$defs as object), ["Pets", "Pet"]);
  const scalar = planOutput(operation({ responses: [jsonResponse("201", { type: "integer" })] }), defs);
  assert.equal((scalar.outputSchema!.anyOf as unknown[])[0], { type: "object", properties: { result: { type: "integer" } }, required: ["result"] });
});

test("the fallback key avoids a documented property of the same name; --no-output-schema omits the schema", () => {
  const clash = schemas({ Odd: { type: "object", properties: { unexpectedResponse: { type: "string" } } } });
  const plan = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Odd" })] }), clash);
  assert.is(plan.response.fallbackKey, "_unexpectedResponse");
  const none = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Pet" })] }), defs, { outputSchemas: false });
  assert.is(none.outputSchema, undefined);
  assert.equal(none.response, { accept: ["application/json"] });
});

test("an output schema over the budget keeps its top level and accepts anything below it", () => {
  const wide: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) wide[`field_${i}`] = { type: "string", description: "x".repeat(40) };
  const big = schemas({
    Big: { type: "object", properties: wide },
    Top: { type: "object", required: ["big"], properties: { big: { $ref: "#/$defs/Big" }, n: { type: "integer", description: "dropped" } } },
  });
  const plan = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Top" })] }), big);
  assert.equal((plan.outputSchema!.anyOf as unknown[])[0], { type: "object", required: ["big"], properties: { big: {}, n: { type: "integer" } } });
  assert.is(plan.outputSchema!.$defs, undefined);
});

test("no JSON success body means no output schema", () => {
  assert.is(planOutput(operation({ responses: [jsonResponse("204")] }), defs).outputSchema, undefined);
  const text = operation({ responses: [{ pointer: "#", status: "200", contents: [{ pointer: "#", mediaType: "text/plain", schema: { type: "string" } }] }] });
  const plan = planOutput(text, defs);
  assert.is(plan.outputSchema, undefined);
  assert.equal(plan.response.accept, ["text/plain"]);
});

test("annotations follow HTTP method semantics", () => {
  assert.equal(annotationsFor("get", "List"), { title: "List", readOnlyHint: true, openWorldHint: true });
  assert.equal(annotationsFor("delete", undefined), { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
  assert.is(annotationsFor("put", undefined).idempotentHint, true);
  assert.is(annotationsFor("post", undefined).destructiveHint, false);
  assert.is(annotationsFor("head", undefined).readOnlyHint, true);
});

test.run();
