import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { planInput } from "../../generator/pipeline/plan/input-schema.js";
import { modelText, plainLinks } from "../../generator/pipeline/plan/describe.js";
import { jsonBody, operation, parameter, schemas } from "../support/factories.js";

test("parameters become one flat object with required path arguments", () => {
  const op = operation({
    parameters: [
      parameter({ name: "petId", in: "path", schema: { type: "integer" } }),
      parameter({ name: "limit", in: "query", schema: { type: "integer" } }),
    ],
  });
  const plan = planInput(op, new Map(), new DiagnosticBag());
  assert.equal(plan.inputSchema, {
    type: "object",
    properties: { petId: { type: "integer" }, limit: { type: "integer" } },
    required: ["petId"],
  });
  assert.equal(
    plan.parameters.map((p) => [p.argument, p.in, p.style, p.explode]),
    [
      ["petId", "path", "simple", false],
      ["limit", "query", "form", true],
    ],
  );
});

test("name collisions keep the first claimant and prefix later ones, with a diagnostic", () => {
  const op = operation({
    parameters: [parameter({ name: "id", in: "query" }), parameter({ name: "id", in: "path" })],
    requestBody: jsonBody({
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" } },
      required: ["name"],
    }),
  });
  const bag = new DiagnosticBag();
  const plan = planInput(op, new Map(), bag);
  assert.equal(Object.keys(plan.inputSchema.properties!), ["id", "query_id", "body_id", "name"]);
  assert.equal(plan.body, {
    kind: "properties",
    properties: { body_id: "id", name: "name" },
    mediaType: "application/json",
    required: true,
  });
  assert.equal(
    bag.items.map((d) => d.code),
    ["MG107", "MG107"],
  );
  assert.equal(plan.inputSchema.required, ["id", "name"]);
});

test("object bodies are lifted without readOnly properties; other bodies stay whole", () => {
  const defs = schemas({
    Pet: {
      type: "object",
      required: ["id", "name"],
      properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } },
    },
  });
  const lifted = planInput(
    operation({ method: "post", requestBody: jsonBody({ $ref: "#/$defs/Pet" }) }),
    defs,
    new DiagnosticBag(),
  );
  assert.equal(lifted.inputSchema.properties, { name: { type: "string" } });
  assert.equal(lifted.inputSchema.required, ["name"]);
  const whole = planInput(
    operation({ method: "post", requestBody: jsonBody({ type: "array", items: { $ref: "#/$defs/Pet" } }, false) }),
    defs,
    new DiagnosticBag(),
  );
  assert.equal(whole.body, { kind: "whole", argument: "body", mediaType: "application/json", required: false });
  assert.equal(whole.inputSchema.required, undefined);
  assert.equal((whole.inputSchema.$defs as Record<string, unknown>).Pet, {
    type: "object",
    required: ["name"],
    properties: { name: { type: "string" } },
  });
});

test("Accept, Content-Type and Authorization header parameters are ignored", () => {
  const op = operation({
    parameters: [parameter({ name: "Authorization", in: "header" }), parameter({ name: "X-Trace", in: "header" })],
  });
  const bag = new DiagnosticBag();
  const plan = planInput(op, new Map(), bag);
  assert.equal(Object.keys(plan.inputSchema.properties!), ["X-Trace"]);
  assert.is(bag.items[0]!.code, "MG104");
});

test("x-mcp-header passes through only when SEP-2243 allows it", () => {
  const defs = schemas({ Id: { type: "string" } });
  const op = operation({
    parameters: [
      parameter({ name: "a", in: "header", schema: { $ref: "#/$defs/Id" }, mcpHeader: "Region" }),
      parameter({ name: "b", in: "header", mcpHeader: "region" }),
      parameter({ name: "c", in: "query", schema: { type: "number" }, mcpHeader: "Score" }),
      parameter({ name: "d", in: "query", mcpHeader: "has space" }),
      parameter({ name: "e", in: "query", mcpHeader: "Api-Key" }),
      parameter({ name: "f", in: "query", schema: { type: "boolean" }, mcpHeader: "Dry-Run" }),
    ],
  });
  const bag = new DiagnosticBag();
  const props = planInput(op, defs, bag).inputSchema.properties as Record<string, Record<string, unknown>>;
  assert.equal(props.a, { type: "string", "x-mcp-header": "Region" }, "valid, and inlined rather than a $ref");
  assert.equal(props.f, { type: "boolean", "x-mcp-header": "Dry-Run" });
  for (const name of ["b", "c", "d", "e"]) assert.is(props[name]!["x-mcp-header"], undefined, name);
  assert.equal(
    bag.items.map((d) => [d.code, d.pointer]),
    [
      // Arguments are planned in location order (path, query, header, cookie).
      ["MG105", "#/test/parameters/c/x-mcp-header"],
      ["MG105", "#/test/parameters/d/x-mcp-header"],
      ["MG105", "#/test/parameters/e/x-mcp-header"],
      ["MG105", "#/test/parameters/b/x-mcp-header"],
    ],
  );
});

test("multipart binary properties become base64/data: URI or {url}/{path} arguments listed as files", () => {
  const op = operation({
    requestBody: {
      pointer: "#",
      required: true,
      contents: [
        {
          pointer: "#",
          mediaType: "multipart/form-data",
          schema: {
            type: "object",
            properties: { file: { type: "string", format: "binary" }, note: { type: "string" } },
          },
        },
      ],
    },
  });
  const plan = planInput(op, new Map(), new DiagnosticBag());
  assert.equal(plan.body, {
    kind: "properties",
    properties: { file: "file", note: "note" },
    mediaType: "multipart/form-data",
    required: true,
    files: ["file"],
  });
  const file = plan.inputSchema.properties!.file as { anyOf: Array<{ contentEncoding?: string; properties?: object }> };
  assert.is(file.anyOf[0]!.contentEncoding, "base64");
  assert.equal(Object.keys(file.anyOf[1]!.properties!), ["url", "path"]);
});

test("argument descriptions keep link text but not URLs; everything else stays", () => {
  assert.is(
    plainLinks(
      'Results per page (max 100). See "[Using pagination](https://docs.github.com/rest/pagination)" and [this](/rest/x#y).',
    ),
    'Results per page (max 100). See "Using pagination" and this.',
  );
  assert.is(
    plainLinks("An array like [1, 2] (see below) or [a](mailto:x)."),
    "An array like [1, 2] (see below) or [a](mailto:x).",
  );
  const defs = schemas({
    Opt: {
      type: "object",
      properties: { mode: { type: "string", enum: ["a", "b"], description: "The [mode](https://example.com/m)." } },
    },
  });
  const op = operation({
    parameters: [
      parameter({
        name: "per_page",
        in: "query",
        required: true,
        schema: { type: "integer", default: 30, description: "Max 100, see [docs](https://example.com/p)." },
      }),
    ],
    requestBody: jsonBody({ type: "object", properties: { opt: { $ref: "#/$defs/Opt" } } }),
  });
  const plan = planInput(op, defs, new DiagnosticBag());
  assert.equal(plan.inputSchema.properties!.per_page, {
    type: "integer",
    default: 30,
    description: "Max 100, see docs.",
  });
  assert.equal(plan.inputSchema.required, ["per_page"]);
  assert.equal((plan.inputSchema.$defs as Record<string, unknown>).Opt, {
    type: "object",
    properties: { mode: { type: "string", enum: ["a", "b"], description: "The mode." } },
  });
});

test("large $defs keep their structure but lose their prose", () => {
  const props: Record<string, unknown> = {};
  for (let i = 0; i < 300; i++) props[`f${i}`] = { type: "string", description: "long words ".repeat(8) };
  const defs = schemas({ Big: { type: "object", description: "big", properties: props } });
  const op = operation({ parameters: [parameter({ name: "q", in: "query", schema: { $ref: "#/$defs/Big" } })] });
  const plan = planInput(op, defs, new DiagnosticBag());
  const big = (
    plan.inputSchema.$defs as Record<
      string,
      { description?: string; properties: Record<string, { description?: string }> }
    >
  ).Big!;
  assert.is(big.description, undefined);
  assert.equal(big.properties.f0, { type: "string" });
});

test("argument descriptions drop sentences that only point to web documentation", () => {
  assert.is(
    modelText(
      'The number of results per page (max 100). For more information, see "[Using pagination in the REST API](https://docs.github.com/rest/guides/pagination)."',
    ),
    "The number of results per page (max 100).",
  );
  assert.is(
    modelText(
      'Only advisories in this date range.\n\nFor more information on the syntax, see "[Understanding the search syntax](https://docs.github.com/x)."',
    ),
    "Only advisories in this date range.",
  );
  assert.is(modelText("A SHA. See [Git refs](https://git-scm.com/refs) for details."), "A SHA.");
  // A link that carries meaning inside a sentence keeps its text.
  assert.is(
    modelText("One of [the visibility values](https://x.example/v): public or private."),
    "One of the visibility values: public or private.",
  );
  assert.is(modelText('For more information, see "[About X](https://x.example)."'), "");
  // Asked again (big APIs repeat argument descriptions), the same answer; a text without links is only trimmed.
  assert.is(modelText("A SHA. See [Git refs](https://git-scm.com/refs) for details."), "A SHA.");
  assert.is(modelText("  No link [here] (at all).  "), "No link [here] (at all).");
});

test.run();
