/**
 * Issue 11, classes 1, 2, 3 and 6: the planner's rules that make every argument set an input schema
 * accepts a request the spec accepts (bodies with required properties, empty values, readOnly
 * properties), and output compaction of self-referential schemas.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Ajv2020 } from "ajv/dist/2020.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { buildIR } from "../../generator/pipeline/ir/build-ir.js";
import { loadSpec } from "../../generator/pipeline/load/load-spec.js";
import { bodyIsRequired, hasRequiredProperties, planInput } from "../../generator/pipeline/plan/input-schema.js";
import { emptyArrayMatters, forbidsEmpty, withoutEmpty } from "../../generator/pipeline/plan/non-empty.js";
import { compactOutput, compactSchema } from "../../generator/pipeline/plan/output-compact.js";
import { planOutput } from "../../generator/pipeline/plan/output-schema.js";
import { applyDirection, defsFor, isHidden, reachableDefs } from "../../generator/pipeline/plan/schema-tools.js";
import { buildRequest } from "../../runtime/src/upstream/request.js";
import { ArgumentError } from "../../runtime/src/upstream/serialize.js";
import type { HttpBinding, JsonSchema } from "../../runtime/src/api/types.js";
import { jsonBody, jsonResponse, operation, parameter, schemas } from "../support/factories.js";

type Obj = Record<string, unknown>;

// dist/test/unit/plan-fidelity.js → the repository root is three levels up.
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** Whether `value` is valid against the tool's input schema (as the runtime and clients check it). */
function accepts(schema: JsonSchema, value: unknown): boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return ajv.validate(schema as object, value) as boolean;
}

const widget = schemas({
  Widget: {
    type: "object",
    required: ["name", "size"],
    properties: { name: { type: "string" }, size: { type: "integer" }, color: { type: "string" } },
  },
  Named: { type: "object", properties: { name: { type: "string" } } },
});

// --- class 1: optional bodies whose schema requires properties -------------------------------

test("class 1: a body without requestBody.required whose schema requires properties is required", () => {
  const op = operation({ method: "post", requestBody: jsonBody({ $ref: "#/$defs/Widget" }, false) });
  const plan = planInput(op, widget, new DiagnosticBag());
  assert.equal(plan.inputSchema.required, ["name", "size"]);
  assert.equal(plan.body, {
    kind: "properties",
    properties: { name: "name", size: "size", color: "color" },
    mediaType: "application/json",
    required: true,
  });
  assert.not.ok(accepts(plan.inputSchema, { color: "red" }), "a partial body is refused");
  assert.not.ok(accepts(plan.inputSchema, {}), "no body at all is refused");
  assert.ok(accepts(plan.inputSchema, { name: "bolt", size: 3 }));
});

test("class 1: requestBody.required: false in so many words keeps the body one optional argument with its required", () => {
  const body = { ...jsonBody({ $ref: "#/$defs/Widget" }, false), declaredOptional: true };
  const op = operation({
    method: "put",
    path: "/widgets/{id}",
    parameters: [parameter({ name: "id", in: "path" })],
    requestBody: body,
  });
  const plan = planInput(op, widget, new DiagnosticBag());
  assert.equal(plan.body, { kind: "whole", argument: "body", mediaType: "application/json", required: false });
  assert.equal(plan.inputSchema.required, ["id"]);
  assert.ok(accepts(plan.inputSchema, { id: "w1" }), "no body at all is fine");
  assert.ok(accepts(plan.inputSchema, { id: "w1", body: { name: "bolt", size: 3 } }));
  assert.not.ok(accepts(plan.inputSchema, { id: "w1", body: { color: "red" } }), "a partial body is refused");
});

test("class 1: a body that requires a property it does not declare stays one argument, so the property is still sent", () => {
  // oas-examples schema-enums: required lists "enum (with example) *required", properties does not.
  const op = operation({
    method: "put",
    requestBody: jsonBody({ type: "object", properties: { a: { type: "boolean" } }, required: ["a", "b c"] }),
  });
  const plan = planInput(op, new Map(), new DiagnosticBag());
  assert.equal(plan.body, { kind: "whole", argument: "body", mediaType: "application/json", required: true });
  assert.not.ok(accepts(plan.inputSchema, { body: { a: true } }), "without the undeclared required property: refused");
  assert.ok(accepts(plan.inputSchema, { body: { a: true, "b c": 1 } }));
});

test("class 2: a required object or array field of a form body is never empty (it would be sent as nothing)", () => {
  // Stripe POST /v1/billing_portal/configurations: required objects whose own fields are optional.
  const schema = {
    type: "object",
    properties: {
      features: { type: "object", properties: { invoice_history: { type: "boolean" } } },
      tags: { type: "array", items: { type: "string" } },
      name: { type: "string" },
      extra: { type: "object" },
    },
    required: ["features", "tags", "name"],
  };
  const form = {
    pointer: "#/test/requestBody",
    required: true,
    contents: [{ pointer: "#/test/requestBody/content", mediaType: "application/x-www-form-urlencoded", schema }],
  };
  const plan = planInput(operation({ method: "post", requestBody: form }), new Map(), new DiagnosticBag());
  const properties = plan.inputSchema.properties as Record<string, Record<string, unknown>>;
  assert.is(properties.features!.minProperties, 1);
  assert.is(properties.tags!.minItems, 1);
  assert.is(properties.name!.minLength, undefined, '"" is sent as name=, which is present');
  assert.is(properties.extra!.minProperties, undefined, "optional fields may be empty");
  // The same body as JSON sends {} and [] as they are: left alone.
  const json = planInput(operation({ method: "post", requestBody: jsonBody(schema) }), new Map(), new DiagnosticBag());
  assert.is(
    (json.inputSchema.properties as Record<string, Record<string, unknown>>).features!.minProperties,
    undefined,
  );
});

test("class 1: the rule applies through allOf, and not to bodies that require nothing", () => {
  const allOf = {
    allOf: [
      { $ref: "#/$defs/Named" },
      { type: "object", required: ["text"], properties: { text: { type: "string" } } },
    ],
  };
  const composed = planInput(
    operation({ method: "post", requestBody: jsonBody(allOf, false) }),
    widget,
    new DiagnosticBag(),
  );
  assert.equal(composed.body, { kind: "whole", argument: "body", mediaType: "application/json", required: true });
  assert.equal(composed.inputSchema.required, ["body"]);
  const free = planInput(
    operation({
      method: "post",
      requestBody: jsonBody({ type: "object", properties: { text: { type: "string" } } }, false),
    }),
    widget,
    new DiagnosticBag(),
  );
  assert.equal(free.body, {
    kind: "properties",
    properties: { text: "text" },
    mediaType: "application/json",
    required: false,
  });
  assert.equal(free.inputSchema.required, undefined);
});

test("class 1: hasRequiredProperties ignores readOnly ones and needs every union branch", () => {
  const defs = schemas({
    Stamped: {
      type: "object",
      required: ["id"],
      properties: { id: { type: "string", readOnly: true }, note: { type: "string" } },
    },
    A: { type: "object", required: ["a"], properties: { a: { type: "string" } } },
  });
  assert.not.ok(hasRequiredProperties({ $ref: "#/$defs/Stamped" }, defs), "only a readOnly property is required");
  assert.ok(hasRequiredProperties({ oneOf: [{ $ref: "#/$defs/A" }, { type: "object", required: ["b"] }] }, defs));
  assert.not.ok(hasRequiredProperties({ anyOf: [{ $ref: "#/$defs/A" }, { type: "object" }] }, defs));
  assert.not.ok(hasRequiredProperties({ type: "array", items: { $ref: "#/$defs/A" } }, defs));
  assert.ok(bodyIsRequired({ required: true }, false));
  assert.ok(bodyIsRequired({ required: false }, true));
  assert.not.ok(bodyIsRequired({ required: false, declaredOptional: true }, true));
  assert.not.ok(bodyIsRequired({ required: false }, false));
});

test("class 1 and 2 facts reach the IR: requestBody.required false in so many words, allowEmptyValue (3.x and 2.0)", async () => {
  const bag = new DiagnosticBag();
  const ir = buildIR(
    (await loadSpec(join(repoRoot, "specs", "fixtures", "fidelity-optional-body.yaml"), {}, bag))!,
    bag,
  );
  const byId = new Map(ir.operations.map((op) => [op.operationId, op]));
  assert.is(byId.get("replaceWidget")!.requestBody!.declaredOptional, true);
  assert.is(byId.get("createWidget")!.requestBody!.declaredOptional, undefined, "omitted is not declared");
  const values = buildIR(
    (await loadSpec(join(repoRoot, "specs", "fixtures", "fidelity-empty-values.yaml"), {}, bag))!,
    bag,
  );
  const params = new Map(values.operations[0]!.parameters.map((p) => [p.name, p]));
  assert.is(params.get("flag")!.allowEmptyValue, true);
  assert.is(params.get("sort")!.allowEmptyValue, undefined);
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-fidelity-"));
  const swagger = join(dir, "v2.yaml");
  writeFileSync(
    swagger,
    [
      "swagger: '2.0'",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /a:",
      "    post:",
      "      parameters:",
      "        - {name: q, in: query, type: string, allowEmptyValue: true}",
      "        - {name: b, in: body, required: false, schema: {type: object, required: [x], properties: {x: {type: string}}}}",
      "      responses: {'204': {description: ok}}",
    ].join("\n"),
  );
  const v2 = buildIR((await loadSpec(swagger, {}, bag))!, bag).operations[0]!;
  assert.is(v2.parameters[0]!.allowEmptyValue, true);
  assert.is(v2.requestBody!.declaredOptional, true);
});

// --- class 2: empty values -----------------------------------------------------------------------

test("class 2: which parameters forbid empty values", () => {
  assert.ok(forbidsEmpty({ in: "path", required: true }));
  assert.ok(forbidsEmpty({ in: "query", required: false }));
  assert.not.ok(forbidsEmpty({ in: "query", required: true, allowEmptyValue: true }));
  assert.ok(forbidsEmpty({ in: "header", required: true }));
  assert.not.ok(forbidsEmpty({ in: "header", required: false }));
  assert.not.ok(forbidsEmpty({ in: "cookie", required: true }));
});

test("class 2: withoutEmpty adds minLength/minItems 1 unless the spec already decides", () => {
  const defs = schemas({
    Code: { type: "string" },
    Short: { type: "string", minLength: 0 },
    Kind: { type: "string", enum: ["a", ""] },
  });
  assert.equal(withoutEmpty({ type: "string" }, defs), { type: "string", minLength: 1 });
  assert.equal(withoutEmpty({ $ref: "#/$defs/Code" }, defs), { $ref: "#/$defs/Code", minLength: 1 });
  assert.equal(withoutEmpty({}, defs), { minLength: 1 });
  assert.equal(withoutEmpty({ type: ["string", "null"] }, defs), { type: ["string", "null"], minLength: 1 });
  assert.equal(withoutEmpty({ type: "array", items: { type: "string" } }, defs), {
    type: "array",
    items: { type: "string" },
    minItems: 1,
  });
  // Kept as the spec wrote them.
  assert.equal(withoutEmpty({ type: "string", minLength: 0 }, defs), { type: "string", minLength: 0 });
  assert.equal(withoutEmpty({ $ref: "#/$defs/Short" }, defs), { $ref: "#/$defs/Short" });
  assert.equal(withoutEmpty({ $ref: "#/$defs/Kind" }, defs), { $ref: "#/$defs/Kind" });
  assert.equal(withoutEmpty({ type: "string", pattern: "^[a-z]+$" }, defs), { type: "string", pattern: "^[a-z]+$" });
  assert.equal(withoutEmpty({ type: "string", pattern: "^[a-z]*$" }, defs), {
    type: "string",
    pattern: "^[a-z]*$",
    minLength: 1,
  });
  assert.equal(withoutEmpty({ type: "integer" }, defs), { type: "integer" });
  assert.equal(withoutEmpty({ type: "array", minItems: 0 }, defs), { type: "array", minItems: 0 });
  assert.equal(withoutEmpty({ type: "array" }, defs, false), { type: "array" });
  // An object path parameter with no required property could be {} (oas-examples parameters-style).
  assert.equal(withoutEmpty({ type: "object", properties: { name: { type: "string" } } }, defs), {
    type: "object",
    properties: { name: { type: "string" } },
    minProperties: 1,
  });
  assert.equal(withoutEmpty({ type: "object", minProperties: 0 }, defs), { type: "object", minProperties: 0 });
  assert.equal(
    withoutEmpty({ type: "object", required: ["a"] }, defs),
    { type: "object", required: ["a"] },
    "a required property already makes it non-empty",
  );
  assert.equal(withoutEmpty({ type: "object" }, defs, false), { type: "object" });
  // A path segment is never empty, whatever the spec lists (dev corpus brex.io: enum ["", "mini", …]).
  assert.equal(withoutEmpty({ type: "string", enum: ["", "mini"] }, defs, true, true), {
    type: "string",
    enum: ["", "mini"],
    minLength: 1,
  });
  assert.equal(withoutEmpty({ $ref: "#/$defs/Kind" }, defs, true, true), { $ref: "#/$defs/Kind", minLength: 1 });
  assert.equal(withoutEmpty({ type: "string", minLength: 0 }, defs, true, true), { type: "string", minLength: 1 });
  assert.equal(withoutEmpty({ $ref: "#/$defs/Short" }, defs, true, true), { $ref: "#/$defs/Short", minLength: 1 });
  assert.equal(withoutEmpty({ type: "string", enum: ["a", "b"] }, defs, true, true), {
    type: "string",
    enum: ["a", "b"],
  });
  assert.equal(withoutEmpty({ const: "" }, defs, true, true), { const: "", minLength: 1 });
  assert.ok(emptyArrayMatters({ in: "path", required: true, explode: false }));
  assert.ok(emptyArrayMatters({ in: "query", required: true, explode: true }));
  assert.not.ok(
    emptyArrayMatters({ in: "query", required: false, explode: false }),
    "the runtime leaves an empty list out in every style",
  );
  assert.not.ok(emptyArrayMatters({ in: "query", required: false, explode: true }), "[] sends nothing");
});

test('class 2: planInput refuses "" for path, query and required header arguments only', () => {
  const defs = schemas({ Code: { type: "string" } });
  const op = operation({
    path: "/items/{itemId}/{code}",
    parameters: [
      parameter({ name: "itemId", in: "path" }),
      parameter({ name: "code", in: "path", schema: { $ref: "#/$defs/Code" } }),
      parameter({ name: "q", in: "query", required: true }),
      parameter({ name: "flag", in: "query", allowEmptyValue: true }),
      parameter({ name: "X-Tenant", in: "header", required: true }),
      parameter({ name: "X-Trace", in: "header" }),
      parameter({ name: "c", in: "cookie" }),
    ],
  });
  const { inputSchema } = planInput(op, defs, new DiagnosticBag());
  const valid = { itemId: "i", code: "c", q: "x", "X-Tenant": "t" };
  assert.ok(accepts(inputSchema, valid));
  assert.ok(
    accepts(inputSchema, { ...valid, flag: "", "X-Trace": "", c: "" }),
    "empty values the spec allows stay valid",
  );
  for (const key of ["itemId", "code", "q", "X-Tenant"])
    assert.not.ok(accepts(inputSchema, { ...valid, [key]: "" }), `"" for ${key} is refused`);
});

test("issue 57: a required parameter is never null (nor an empty array); an optional one may be null", () => {
  const defs = schemas({ Ids: { type: ["array", "null"], items: { type: "integer" } } });
  const nullableArray = { type: ["array", "null"], items: { type: "string" } };
  const op = operation({
    path: "/items",
    parameters: [
      parameter({ name: "list", in: "query", required: true, schema: nullableArray }),
      parameter({
        name: "one",
        in: "query",
        required: true,
        schema: { oneOf: [{ type: "array", items: { type: "string" } }, { type: "null" }] },
      }),
      parameter({
        name: "X-Any",
        in: "header",
        required: true,
        schema: { anyOf: [{ type: "null" }, { $ref: "#/$defs/Ids" }] },
      }),
      parameter({ name: "c", in: "cookie", required: true, schema: { type: ["string", "null"], enum: ["a", null] } }),
      parameter({ name: "opt", in: "query", schema: nullableArray }),
    ],
  });
  const { inputSchema } = planInput(op, defs, new DiagnosticBag());
  const valid = { list: ["a"], one: ["b"], "X-Any": [1], c: "a" };
  assert.ok(accepts(inputSchema, valid));
  assert.ok(
    accepts(inputSchema, { ...valid, opt: null }),
    "an optional nullable parameter still takes null (left out)",
  );
  for (const key of ["list", "one", "X-Any", "c"])
    assert.not.ok(accepts(inputSchema, { ...valid, [key]: null }), `null for the required ${key} is refused`);
  for (const key of ["list", "one", "X-Any"])
    assert.not.ok(
      accepts(inputSchema, { ...valid, [key]: [] }),
      `[] for the required ${key} is refused (sent as nothing)`,
    );
});

test("class 2: the runtime refuses to build an empty path segment", () => {
  const http: HttpBinding = {
    method: "get",
    path: "/items/{itemId}/photos",
    parameters: [{ argument: "itemId", name: "itemId", in: "path", style: "simple", explode: false, required: true }],
    response: { accept: [] },
  };
  assert.is(buildRequest(http, { itemId: "a" }, "http://h").url, "http://h/items/a/photos");
  for (const empty of ["", []]) {
    assert.throws(
      () => buildRequest(http, { itemId: empty }, "http://h"),
      (error: unknown) => error instanceof ArgumentError && /itemId.*empty/.test(error.message),
    );
  }
});

// --- class 3: readOnly properties ------------------------------------------------------------------

const resources = schemas({
  Id: { type: "string", readOnly: true },
  Gadget: {
    type: "object",
    additionalProperties: false,
    required: ["id", "name"],
    properties: {
      id: { $ref: "#/$defs/Id" },
      name: { type: "string" },
      stamp: { allOf: [{ type: "string" }, { readOnly: true }] },
      owner: { anyOf: [{ $ref: "#/$defs/Id" }, { type: "null" }] },
    },
  },
  Resource: { type: "object", properties: { id: { $ref: "#/$defs/Id" }, kind: { type: "string", readOnly: true } } },
  Device: {
    allOf: [
      { $ref: "#/$defs/Resource" },
      { type: "object", required: ["id", "kind", "model"], properties: { model: { type: "string" } } },
    ],
  },
});

test("class 3: isHidden sees readOnly through $ref, allOf and nullable unions", () => {
  assert.ok(isHidden({ $ref: "#/$defs/Id" }, "readOnly", resources));
  assert.ok(isHidden({ allOf: [{ type: "string" }, { readOnly: true }] }, "readOnly", resources));
  assert.ok(isHidden({ anyOf: [{ $ref: "#/$defs/Id" }, { type: "null" }] }, "readOnly", resources));
  assert.not.ok(isHidden({ anyOf: [{ $ref: "#/$defs/Id" }, { type: "string" }] }, "readOnly", resources));
  assert.not.ok(isHidden({ $ref: "#/$defs/Id" }, "writeOnly", resources));
  const loop = schemas({ A: { $ref: "#/$defs/B" }, B: { allOf: [{ $ref: "#/$defs/A" }] } });
  assert.not.ok(isHidden({ $ref: "#/$defs/A" }, "readOnly", loop), "a ref cycle ends");
});

test("class 3: a closed body loses readOnly properties (ref, allOf, nullable); the path id keeps its name, no body_id", () => {
  const op = operation({
    method: "put",
    path: "/gadgets/{id}",
    parameters: [parameter({ name: "id", in: "path" })],
    requestBody: jsonBody({ $ref: "#/$defs/Gadget" }),
  });
  const bag = new DiagnosticBag();
  const plan = planInput(op, resources, bag);
  assert.equal(Object.keys(plan.inputSchema.properties!), ["id", "name"]);
  assert.equal(plan.inputSchema.required, ["id", "name"]);
  assert.equal(plan.body, {
    kind: "properties",
    properties: { name: "name" },
    mediaType: "application/json",
    required: true,
  });
  assert.equal(
    bag.items.map((d) => d.code),
    [],
    "no name clash is reported",
  );
});

test("class 3: readOnly properties are dropped from the required of a sibling allOf member", () => {
  const directed = applyDirection(resources.get("Device")!.schema, "input", resources) as Obj;
  assert.equal((directed.allOf as Obj[])[1]!.required, ["model"]);
  const plan = planInput(
    operation({ method: "post", requestBody: jsonBody({ $ref: "#/$defs/Device" }) }),
    resources,
    new DiagnosticBag(),
  );
  const $defs = plan.inputSchema.$defs as Record<string, Obj>;
  assert.equal($defs.Resource!.properties, {});
  assert.ok(accepts(plan.inputSchema, { body: { model: "x1" } }), "a body without readOnly properties is valid");
});

test("class 3: writeOnly properties are left out of output schemas, also through a $ref", () => {
  const defs = schemas({
    Secret: { type: "string", writeOnly: true },
    Account: {
      type: "object",
      required: ["name", "password"],
      properties: { name: { type: "string" }, password: { $ref: "#/$defs/Secret" } },
    },
  });
  const { outputSchema } = planOutput(
    operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Account" })] }),
    defs,
  );
  const documented = (outputSchema!.anyOf as Obj[])[0]!;
  assert.equal(Object.keys(documented.properties as Obj), ["name"]);
  assert.equal(documented.required, ["name"]);
});

// --- class 6: self-referential schemas ---------------------------------------------------------------

const recursive = schemas({
  JsonValue: {
    anyOf: [
      { type: "null" },
      { type: "boolean" },
      { type: "number" },
      { type: "string" },
      { type: "array", items: { $ref: "#/$defs/JsonValue" } },
      { type: "object", additionalProperties: { $ref: "#/$defs/JsonValue" } },
    ],
  },
  Nested: { type: "array", items: { $ref: "#/$defs/Nested" } },
  Choice: { oneOf: [{ type: "string" }, { type: "array", items: { $ref: "#/$defs/Choice" } }] },
  Pair: { type: "array", items: { $ref: "#/$defs/Other" } },
  Other: { type: "array", items: { $ref: "#/$defs/Pair" } },
});

test("class 6: an array of itself (directly, through anyOf/oneOf, or through another def) compacts without recursing forever", () => {
  assert.equal(compactSchema({ $ref: "#/$defs/Nested" }, recursive, 3), { type: "array" });
  assert.equal(compactSchema({ $ref: "#/$defs/Choice" }, recursive, 3), { type: ["string", "array"] });
  assert.equal(compactSchema({ $ref: "#/$defs/Pair" }, recursive, 3), { type: "array", items: { type: "array" } });
  const value = compactSchema({ $ref: "#/$defs/JsonValue" }, recursive, 3) as Obj;
  assert.equal((value.anyOf as Obj[]).slice(0, 5), [
    { type: "null" },
    { type: "boolean" },
    { type: "number" },
    { type: "string" },
    { type: "array" },
  ]);
  const samples: Record<string, unknown> = {
    JsonValue: [[1, ["a"]], { k: [null] }],
    Nested: [[], [[]]],
    Choice: ["a", ["b", ["c"]]],
    Pair: [[[]]],
  };
  for (const [name, sample] of Object.entries(samples)) {
    const shape = { type: "object", properties: { value: { $ref: `#/$defs/${name}` } } } as JsonSchema;
    const compacted = compactOutput(shape, recursive);
    assert.ok(
      accepts(compacted, { value: sample }),
      `${name}: ${JSON.stringify(sample)} passes ${JSON.stringify(compacted)}`,
    );
    assert.ok(JSON.stringify(compacted).length < 4_000, `${name}: compact`);
  }
  const { outputSchema } = planOutput(
    operation({ responses: [jsonResponse("200", { $ref: "#/$defs/Nested" })] }),
    recursive,
  );
  assert.ok(accepts(outputSchema!, { result: [[], [[]]] }));
});

test("class 6: a chain of 20,000 defs is walked without exhausting the call stack, in depth-first order", () => {
  const entries: Record<string, JsonSchema> = {};
  for (let i = 0; i < 20_000; i++)
    entries[`D${i}`] = {
      type: "object",
      properties: { next: i + 1 < 20_000 ? { $ref: `#/$defs/D${i + 1}` } : { type: "string" } },
    };
  const chain = schemas(entries);
  const names = reachableDefs([{ $ref: "#/$defs/D0" }], chain);
  assert.is(names.length, 20_000);
  assert.equal(names.slice(0, 3), ["D0", "D1", "D2"]);
  assert.is(Object.keys(defsFor([{ $ref: "#/$defs/D0" }], chain, "input")!).length, 20_000);
  const tree = schemas({
    R: { allOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }] },
    A: { properties: { x: { $ref: "#/$defs/C" } } },
    B: { properties: { y: { $ref: "#/$defs/A" } } },
    C: {},
  });
  assert.equal(reachableDefs([{ $ref: "#/$defs/R" }], tree), ["R", "A", "C", "B"]);
});

test.run();
