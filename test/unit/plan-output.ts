import { test } from "uvu";
import * as assert from "uvu/assert";
import { annotationsFor } from "../../generator/plan/annotations.js";
import { planOutput } from "../../generator/plan/output-schema.js";
import { jsonResponse, operation, schemas } from "../factories.js";

const defs = schemas({
  Pet: { type: "object", required: ["id"], properties: { id: { type: "integer" }, secret: { type: "string", writeOnly: true } } },
  Pets: { type: "array", items: { $ref: "#/$defs/Pet" } },
});

test("an object response is the output schema, root inlined, writeOnly removed", () => {
  const plan = planOutput(operation({ responses: [jsonResponse("404", { type: "string" }), jsonResponse("200", { $ref: "#/$defs/Pet" })] }), defs);
  assert.equal(plan.outputSchema, { type: "object", required: ["id"], properties: { id: { type: "integer" } } });
  assert.equal(plan.response, { accept: ["application/json"] });
});

test("arrays and scalars are wrapped under result", () => {
  const plan = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Pets" })] }), defs);
  assert.equal(plan.response.wrapKey, "result");
  assert.equal(plan.outputSchema!.type, "object");
  assert.equal(plan.outputSchema!.properties, { result: { $ref: "#/$defs/Pets" } });
  assert.equal(Object.keys(plan.outputSchema!.$defs as object), ["Pets", "Pet"]);
  const scalar = planOutput(operation({ responses: [jsonResponse("201", { type: "integer" })] }), defs);
  assert.equal(scalar.outputSchema, { type: "object", properties: { result: { type: "integer" } }, required: ["result"] });
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
