/**
 * Issue 57, classes 2 to 4: a `type` that contradicts its `oneOf`/`anyOf` read as the union meant
 * (specs/fixtures/type-contradicts-union.yaml), required bodies that may be `{}`
 * (specs/fixtures/required-empty-body.yaml), and a `Content-Type` header parameter of an operation
 * without a body (specs/fixtures/fidelity-entity-header.yaml), Swagger 2.0 form fields in their
 * `collectionFormat` (specs/fixtures/fidelity-form-collections.yaml).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Ajv2020 } from "ajv/dist/2020.js";
import { fileURLToPath } from "node:url";
import { generate } from "../../generator/pipeline/generate.js";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { SchemaNormalizer } from "../../generator/pipeline/ir/schema-normalizer.js";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { buildRequest } from "../../runtime/src/upstream/request.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { requestEncodings } from "../../runtime/src/features/encodings/index.js";
import type { JsonSchema } from "../../runtime/src/api/types.js";
import { apiFeatures } from "../support/factories.js";
import { startUpstream } from "../support/runtime-fixture.js";
import { testCases } from "../../generator/pipeline/emit/test-cases/test-cases.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const fixture = (name: string) => `${root}specs/fixtures/${name}`;

function accepts(schema: JsonSchema, value: unknown): boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return ajv.validate(schema as object, value) as boolean;
}

function normalize(schema: unknown, version: "3.0" | "3.1" = "3.1") {
  const bag = new DiagnosticBag();
  const normalized = new SchemaNormalizer({}, version, bag).normalize(schema, "#/s");
  return { normalized, diagnostics: bag.items };
}

/** A server of the planned tools with the usual API features, calling `baseUrl`. */
function planServer(plan: { tools: Parameters<typeof toolDefinition>[0][] }, name: string, baseUrl: string) {
  return new McpServer({
    ...apiFeatures,
    info: { name, version: "1.0.0" },
    tools: plan.tools.map(toolDefinition),
    upstream: { baseUrl, timeoutMs: 5_000 },
  });
}

// --- class 2: a type that contradicts its union ------------------------------------------------

test("class 2: type null beside a oneOf of other types is read as 'one of these, or null' (MG119, pointer)", () => {
  const { normalized, diagnostics } = normalize({
    type: "null",
    oneOf: [{ type: "string" }, { type: "number" }],
  });
  assert.equal(normalized, { oneOf: [{ type: "string" }, { type: "number" }, { type: "null" }] });
  assert.equal(
    diagnostics.map((d) => [d.code, d.severity, d.pointer]),
    [["MG119", "warning", "#/s/type"]],
  );
  for (const value of ["a", 2.5, null]) assert.ok(accepts(normalized, value), JSON.stringify(value));
  assert.not.ok(accepts(normalized, true));
});

test("class 2: type [X] beside an anyOf of other types becomes one more branch", () => {
  const { normalized, diagnostics } = normalize({
    type: ["boolean"],
    anyOf: [{ type: "string" }, { type: "integer" }],
  });
  assert.equal(normalized, { anyOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }] });
  assert.is(diagnostics[0]?.code, "MG119");
  const two = normalize({ type: ["boolean", "null"], oneOf: [{ type: "string" }] }).normalized;
  assert.equal(two, { oneOf: [{ type: "string" }, { type: ["boolean", "null"] }] });
});

test("class 2: a type some branch can have, or a branch of unknown type, is left as written", () => {
  for (const schema of [
    {
      type: "string",
      oneOf: [
        { type: "string", format: "date" },
        { type: "string", maxLength: 3 },
      ],
    },
    { type: "number", oneOf: [{ type: "integer" }, { type: "string" }] },
    { type: "integer", anyOf: [{ type: "number", minimum: 1 }, { type: "null" }] },
    { type: "object", oneOf: [{ required: ["a"] }, { required: ["b"] }] },
    { type: "null", oneOf: [{ type: "string" }, { enum: [1, 2] }] },
    { type: "null", oneOf: [{ type: "string" }], anyOf: [{ type: "number" }] },
  ]) {
    const { normalized, diagnostics } = normalize(schema);
    assert.equal(normalized, schema, JSON.stringify(schema));
    assert.equal(diagnostics, [], JSON.stringify(schema));
  }
});

test("class 2: fixture: input and output schemas accept the real values, and the server's output check passes", async () => {
  const { plan, diagnostics } = await generate({ spec: fixture("type-contradicts-union.yaml"), planOnly: true });
  assert.equal(
    diagnostics
      .filter((d) => d.code === "MG119")
      .map((d) => d.pointer)
      .sort(),
    [
      "#/components/schemas/Setting/properties/label/type",
      "#/components/schemas/Value/type",
      "#/paths/~1settings~1{key}/put/requestBody/content/application~1json/schema/properties/label/type",
    ],
  );
  const put = plan.tools.find((t) => t.name === "putSetting")!;
  const get = plan.tools.find((t) => t.name === "getSetting")!;
  for (const value of ["on", 3, null, ["a", "b"]]) {
    assert.ok(accepts(put.inputSchema, { key: "k", value }), `input value ${JSON.stringify(value)}`);
    assert.ok(accepts(get.outputSchema!, { key: "k", value, label: true }), `output value ${JSON.stringify(value)}`);
  }
  assert.ok(accepts(put.inputSchema, { key: "k", value: "x", label: 7 }));
  assert.not.ok(accepts(put.inputSchema, { key: "k", value: {} }), "still not any value");

  const answer = { key: "theme", value: "dark", label: "Theme" };
  const upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(answer),
  }));
  try {
    const server = planServer(plan, "settings", upstream.baseUrl);
    const response = await server.handle(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "getSetting", arguments: { key: "theme" } } },
      {},
    );
    const result = (response as { result: { isError?: boolean; structuredContent?: unknown } }).result;
    assert.not.ok(result.isError, JSON.stringify(result));
    assert.equal(result.structuredContent, answer, "the real answer, as it came, with no output problems");
  } finally {
    await upstream.close();
  }
});

// --- class 3: a required body that may be empty ------------------------------------------------

test("class 3: a required JSON body whose properties are all optional is sent, {} included", async () => {
  const { plan } = await generate({ spec: fixture("required-empty-body.yaml"), planOnly: true });
  const expectations: Record<string, Record<string, unknown>> = {
    putPreferences: { id: "b1" },
    archiveBoard: { id: "b1", body: {} },
    refreshAll: {},
  };
  for (const [name, args] of Object.entries(expectations)) {
    const tool = plan.tools.find((t) => t.name === name)!;
    assert.ok(accepts(tool.inputSchema, args), `${name}: ${JSON.stringify(args)} is a valid call`);
    const request = buildRequest(tool.http, args, "https://api.example.com");
    assert.is(request.body, "{}", `${name}: the empty body goes out`);
    assert.is(request.headers["content-type"], "application/json", name);
  }
});

test("class 3: each contract-test case of the fixture reaches the upstream with its whole body, {} included", async () => {
  const { plan } = await generate({ spec: fixture("required-empty-body.yaml"), planOnly: true });
  const upstream = await startUpstream(() => ({ status: 204 }));
  try {
    const server = planServer(plan, "boards", upstream.baseUrl);
    for (const c of testCases(plan).cases) {
      const from = upstream.received.length;
      const params = { name: c.tool, arguments: c.arguments };
      const response = await server.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params }, {});
      const sent = upstream.received.slice(from);
      assert.is(sent.length, 1, `${c.tool}: ${JSON.stringify(response)}`);
      // A declared Content-Length parameter (sampled 0) never frames the request: the body does.
      assert.is(sent[0]!.body, "{}", c.tool);
      assert.is(sent[0]!.headers["content-length"], "2", c.tool);
    }
  } finally {
    await upstream.close();
  }
});

// --- class 4: Content-Type of an operation without a body -------------------------------------

test("class 4: a Content-Type header parameter is an argument, sent as declared, only when no body decides it", async () => {
  const { plan, diagnostics } = await generate({ spec: fixture("fidelity-entity-header.yaml"), planOnly: true });
  const tool = (name: string) => plan.tools.find((t) => t.name === name)!;
  assert.equal(tool("getExport").inputSchema.required, ["id", "Content-Type"]);
  assert.equal(tool("deleteExport").inputSchema.required, ["id", "content-type"]);
  const get = buildRequest(
    tool("getExport").http,
    { id: "e1", "Content-Type": "application/json" },
    "https://api.example.com",
  );
  assert.is(get.headers["content-type"], "application/json");
  assert.is(get.body, undefined);
  // Beside a body the body's media type decides it (MG104), whatever the argument would have said.
  const create = tool("createExport");
  assert.equal(Object.keys(create.inputSchema.properties ?? {}), ["name", "_fields"]);
  assert.ok(diagnostics.some((d) => d.code === "MG104" && d.pointer?.includes("~1exports/post")));
  const post = buildRequest(
    { ...create.http, parameters: [{ ...tool("getExport").http.parameters[1]! }] },
    { "Content-Type": "text/plain", name: "n" },
    "https://api.example.com",
  );
  assert.is(post.headers["content-type"], "application/json");
});

test("class 4: Swagger 2.0 form fields go out in their collectionFormat, in forms and multipart bodies", async () => {
  const { plan } = await generate({ spec: fixture("fidelity-form-collections.yaml"), planOnly: true });
  const tool = (name: string) => plan.tools.find((t) => t.name === name)!;
  assert.equal(tool("tagItems").http.body?.encoding, {
    tags: { style: "form", explode: false },
    owners: { style: "pipeDelimited", explode: false },
    words: { style: "spaceDelimited", explode: false },
    ids: { style: "form", explode: true },
  });
  const form = buildRequest(
    tool("tagItems").http,
    { item: "i", tags: ["a", "b"], owners: ["x", "y"], words: ["p", "q"], ids: [1, 2], notes: ["n", "m"] },
    "https://api.example.com",
    requestEncodings(),
  );
  assert.is(form.body, "item=i&tags=a%2Cb&owners=x%7Cy&words=p%20q&ids=1&ids=2&notes=n&notes=m");
  const multipart = buildRequest(
    tool("attachFile").http,
    { file: Buffer.from("hello").toString("base64"), tags: ["a", "b"] },
    "https://api.example.com",
    requestEncodings(),
  );
  const text = multipart.body!.toString();
  assert.match(text, /name="tags"\r\n\r\na,b\r\n/);
  assert.is(text.match(/name="tags"/g)?.length, 1, "one part a,b, not one part per item");
});

test("class 4: a JSON media type under another name (text/json, application/x-json) is chosen and sent as JSON", async () => {
  const { plan } = await generate({ spec: fixture("fidelity-json-media.yaml"), planOnly: true });
  const tool = (name: string) => plan.tools.find((t) => t.name === name)!;
  const note = { text: "hi", tags: ["a"], meta: { color: "red" } };
  const created = buildRequest(tool("createNote").http, note, "https://api.example.com");
  assert.is(created.headers["content-type"], "text/json");
  assert.equal(JSON.parse(String(created.body)), note);
  const draft = buildRequest(tool("createDraft").http, note, "https://api.example.com");
  assert.equal(JSON.parse(String(draft.body)), note, "JSON text, not [object Object]");
  assert.is(tool("replaceNote").http.body?.mediaType, "application/x-json", "JSON before XML");
  const replaced = buildRequest(tool("replaceNote").http, { id: "n1", ...note }, "https://api.example.com");
  assert.equal(JSON.parse(String(replaced.body)), note);
});

test.run();
