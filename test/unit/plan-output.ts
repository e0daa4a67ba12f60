import { test } from "uvu";
import * as assert from "uvu/assert";
import { annotationsFor } from "../../generator/pipeline/plan/annotations.js";
import { documentedOutput, fallbackBranch, planOutput } from "../../generator/pipeline/plan/output-schema.js";
import { chooseBodyMedia, planInput } from "../../generator/pipeline/plan/input-schema.js";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import type { JsonSchema } from "../../runtime/src/api/types.js";
import { jsonResponse, operation, schemas } from "../support/factories.js";

const defs = schemas({
  Pet: {
    type: "object",
    required: ["id"],
    properties: { id: { type: "integer" }, secret: { type: "string", writeOnly: true } },
  },
  Pets: { type: "array", items: { $ref: "#/$defs/Pet" } },
});

test("an object response is the documented branch, inlined, writeOnly removed; the fallback branch follows", () => {
  const plan = planOutput(
    operation({ responses: [jsonResponse("404", { type: "string" }), jsonResponse("200", { $ref: "#/$defs/Pet" })] }),
    defs,
  );
  assert.equal(plan.outputSchema, {
    type: "object",
    anyOf: [{ required: ["id"], properties: { id: { type: "integer" } } }, fallbackBranch("unexpectedResponse")],
  });
  assert.equal(plan.response, { accept: ["application/json"], fallbackKey: "unexpectedResponse" });
});

test("arrays and scalars are wrapped under result", () => {
  const plan = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Pets" })] }), defs);
  assert.equal(plan.response.wrapKey, "result");
  assert.equal(plan.outputSchema!.type, "object");
  const documented = documentedOutput(plan.outputSchema!) as { properties: Record<string, unknown> };
  assert.equal(documented.properties.result, {
    type: "array",
    items: { type: "object", required: ["id"], properties: { id: { type: "integer" } } },
  });
  assert.is(plan.outputSchema!.$defs, undefined);
  const scalar = planOutput(operation({ responses: [jsonResponse("201", { type: "integer" })] }), defs);
  assert.equal(scalar.outputSchema, {
    type: "object",
    anyOf: [
      { properties: { result: { type: "integer" } }, required: ["result"] },
      fallbackBranch("unexpectedResponse"),
    ],
  });
});

test("the fallback key avoids a documented property of the same name; --no-output-schema omits the schema", () => {
  const clash = schemas({ Odd: { type: "object", properties: { unexpectedResponse: { type: "string" } } } });
  const plan = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Odd" })] }), clash);
  assert.is(plan.response.fallbackKey, "_unexpectedResponse");
  // A name from a merged allOf member counts too.
  const merged = schemas({
    Base: { type: "object", properties: { unexpectedResponse: { type: "string" } } },
    Odd: { allOf: [{ $ref: "#/$defs/Base" }, { type: "object", properties: { id: { type: "integer" } } }] },
  });
  assert.is(
    planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Odd" })] }), merged).response.fallbackKey,
    "_unexpectedResponse",
  );
  const none = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Pet" })] }), defs, {
    outputSchemas: false,
  });
  assert.is(none.outputSchema, undefined);
  assert.equal(none.response, { accept: ["application/json"] });
});

test("an output schema over its node budget keeps its top level, then only property names", () => {
  const wide: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) wide[`field_${i}`] = { type: "string", description: "x".repeat(40) };
  const big = schemas({
    Big: { type: "object", properties: wide },
    Top: {
      type: "object",
      required: ["big"],
      properties: { big: { $ref: "#/$defs/Big" }, n: { type: "integer", description: "dropped" } },
    },
  });
  const plan = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Top" })] }), big);
  assert.equal(documentedOutput(plan.outputSchema!), {
    type: "object",
    required: ["big"],
    properties: { big: { type: "object" }, n: { type: "integer" } },
  });
  assert.is(plan.outputSchema!.$defs, undefined);
  const tight = planOutput(operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Top" })] }), big, {
    nodeBudget: 2,
  });
  assert.equal(documentedOutput(tight.outputSchema!), {
    type: "object",
    required: ["big"],
    // A required name is listed once, in `required`.
    properties: { n: {} },
  });
});

test("no JSON success body means no output schema", () => {
  assert.is(planOutput(operation({ responses: [jsonResponse("204")] }), defs).outputSchema, undefined);
  const text = operation({
    responses: [
      {
        pointer: "#",
        status: "200",
        contents: [{ pointer: "#", mediaType: "text/plain", schema: { type: "string" } }],
      },
    ],
  });
  const plan = planOutput(text, defs);
  assert.is(plan.outputSchema, undefined);
  assert.equal(plan.response.accept, ["text/plain"]);
});

test("annotations follow HTTP method semantics", () => {
  // Protocol defaults (openWorldHint true, readOnlyHint false, idempotentHint false) are left out.
  assert.equal(annotationsFor("get"), { readOnlyHint: true });
  assert.equal(annotationsFor("delete"), { destructiveHint: true, idempotentHint: true });
  assert.equal(annotationsFor("post"), { destructiveHint: false });
  assert.is(annotationsFor("put").idempotentHint, true);
  assert.is(annotationsFor("post").destructiveHint, false);
  assert.is(annotationsFor("head").readOnlyHint, true);
});

test("Accept: the 2xx media types, else the default response's, else none (the runtime then takes anything)", () => {
  const media = (status: string, mediaType: string) => ({
    pointer: `#/r/${status}`,
    status,
    contents: [{ pointer: "#/c", mediaType, schema: { type: "object" } }],
  });
  const accept = (responses: ReturnType<typeof media>[]) =>
    planOutput(operation({ responses }), new Map()).response.accept;
  assert.equal(accept([media("200", "text/csv"), media("DEFAULT", "application/xml")]), ["text/csv"]);
  assert.equal(accept([media("DEFAULT", "application/xml"), media("404", "application/problem+json")]), [
    "application/xml",
  ]);
  assert.equal(accept([media("404", "application/problem+json")]), []);
  assert.equal(accept([{ pointer: "#/r/204", status: "204", contents: [] }]), []);
});

test("request media type: a named type before a wildcard", () => {
  const contents = (...types: string[]) => types.map((mediaType) => ({ pointer: "#/c", mediaType }));
  assert.is(chooseBodyMedia(contents("*/*", "application/octet-stream"))!.mediaType, "application/octet-stream");
  assert.is(chooseBodyMedia(contents("application/*+json", "application/xml"))!.mediaType, "application/xml");
  assert.is(chooseBodyMedia(contents("image/*", "application/*+json"))!.mediaType, "application/*+json");
  assert.is(chooseBodyMedia(contents("text/plain", "application/json"))!.mediaType, "application/json");
});

test("issue 57: a wildcard request media type is sent as what its schema is, never as a wildcard", () => {
  const sent = (mediaType: string, schema: JsonSchema) => {
    const requestBody = { pointer: "#/b", required: true, contents: [{ pointer: "#/c", mediaType, schema }] };
    return planInput(operation({ method: "post", requestBody }), new Map(), new DiagnosticBag()).body;
  };
  const object = { type: "object", properties: { name: { type: "string" } } };
  const file = { type: "string", format: "binary" };
  assert.equal(sent("application/*", object), {
    kind: "properties",
    properties: { name: "name" },
    mediaType: "application/json",
    required: true,
  });
  assert.is(sent("*/*", object)!.mediaType, "application/json");
  const blob = sent("*/*", file)!;
  assert.is(blob.mediaType, "application/octet-stream");
  assert.ok(blob.kind === "whole" && blob.binary === true, "file content stays a file argument");
  assert.is(sent("application/*", file)!.mediaType, "application/octet-stream");
  assert.is(sent("text/*", { type: "string" })!.mediaType, "text/plain");
  assert.is(sent("application/xml", object)!.mediaType, "application/xml", "a named type is sent as named");
});

test.run();
