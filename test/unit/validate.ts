import { createRequire } from "node:module";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { validationFindings } from "../../generator/pipeline/load/validate.js";

/** An OpenAPI 3.0 document with one schema violation (a response without description). */
function invalidDocument(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "T", version: "1" },
    paths: { "/a": { get: { responses: { "200": {} } } } },
  };
}

test("a 3.x document is validated in place and left as it was (generate validates the loaded one)", async () => {
  const document = invalidDocument();
  const json = JSON.stringify(document);
  const findings = await validationFindings(document);
  assert.ok(findings.length > 0);
  assert.ok(findings.every((d) => d.severity === "warning" && d.code === "MG101"));
  assert.ok(
    findings.some((d) => d.pointer?.startsWith("#/paths/~1a/get/responses/200")),
    JSON.stringify(findings),
  );
  assert.is(JSON.stringify(document), json, "unchanged");
});

test("a Swagger 2.0 document is left as it was: swagger-parser dereferences a copy", async () => {
  // Valid against the 2.0 schema, so swagger-parser's rules run, on a dereferenced document (which
  // would replace the $ref in place without `mutateInputSchema: false`); the path parameter the
  // template names and no parameter declares is what they find.
  const document = {
    swagger: "2.0",
    info: { title: "T", version: "1" },
    paths: {
      "/pets/{id}": {
        get: { responses: { "200": { description: "ok", schema: { $ref: "#/definitions/Pet" } } } },
      },
    },
    definitions: { Pet: { type: "object", properties: { name: { type: "string" } } } },
  };
  const json = JSON.stringify(document);
  const findings = await validationFindings(document);
  assert.is(findings.length, 1, JSON.stringify(findings));
  assert.match(findings[0]!.message, /missing path parameter/i);
  assert.is(JSON.stringify(document), json, "the $ref is still there");
});

test("each OpenAPI version is checked against its own published schema (compiled once)", async () => {
  const { openApiSchemaViolations, openApiValidator, schemaVersion } = await import(
    "../../generator/pipeline/load/openapi-schema.js"
  );
  const swagger = {
    swagger: "2.0",
    info: { title: "T", version: "1" },
    paths: { "/a": { get: { responses: { "200": {} } } } },
  };
  const v30 = {
    openapi: "3.0.3",
    info: { title: "T", version: "1" },
    paths: { "/a": { get: { responses: { "200": { description: "ok" } } } } },
  };
  // 3.1: Schema Objects (reached through $dynamicRef) take 2020-12 keywords; a parameter "in: body"
  // (a Swagger 2.0 habit) is found with its pointer.
  const v31 = {
    openapi: "3.1.0",
    info: { title: "T", version: "1" },
    paths: {
      "/a": { get: { parameters: [{ name: "x", in: "body", schema: { type: ["string", "null"], prefixItems: [] } }] } },
    },
  };
  assert.is(schemaVersion(swagger), "2.0");
  assert.is(schemaVersion(v30), "3.0");
  assert.is(schemaVersion(v31), "3.1");
  assert.is(schemaVersion({ openapi: "4.0.0" }), undefined);
  assert.ok(openApiSchemaViolations(swagger).some((v) => v.instancePath.startsWith("/paths/~1a/get/responses/200")));
  assert.equal(openApiSchemaViolations(v30), []);
  const found31 = openApiSchemaViolations(v31);
  assert.ok(
    found31.length > 0 && found31.every((v) => v.instancePath.startsWith("/paths/~1a/get/parameters/0")),
    JSON.stringify(found31),
  );
  const fixed = structuredClone(v31);
  fixed.paths["/a"].get.parameters[0]!.in = "query";
  assert.equal(openApiSchemaViolations(fixed), []);
  assert.is(openApiValidator("3.1"), openApiValidator("3.1"));
});

test("npm run build precompiles each version's validator, and it is the one used", async () => {
  const { compileOpenApiValidator, openApiValidator, PRECOMPILED } = await import(
    "../../generator/pipeline/load/openapi-schema.js"
  );
  const load = createRequire(new URL("../../", import.meta.url)); // dist/
  const documents = {
    "2.0": {
      swagger: "2.0",
      info: { title: "T", version: "1" },
      paths: { "/a": { get: { responses: { "200": {} } } } },
    },
    "3.0": { openapi: "3.0.3", info: { title: "T" }, paths: {} },
    "3.1": {
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      paths: { "/a": { get: { parameters: [{ name: "x", in: "body" }] } } },
    },
  } as const;
  for (const version of ["2.0", "3.0", "3.1"] as const) {
    const precompiled = load(`./${PRECOMPILED[version]}`) as (document: unknown) => boolean;
    assert.is(openApiValidator(version), precompiled, version);
    // The same findings as a validator compiled now (the build's code is not stale).
    const fresh = compileOpenApiValidator(version).validate;
    assert.is(precompiled(documents[version]), false, version);
    assert.is(fresh(documents[version]), false, version);
    assert.equal(
      (precompiled as unknown as { errors: unknown[] }).errors,
      fresh.errors,
      `${version}: the same violations`,
    );
  }
});
test("no stage after load changes the loaded document (when the worker fails, generate validates it after the emit stage)", async () => {
  const { readdirSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { repoRoot } = await import("../support/e2e.js");
  const { loadSpec } = await import("../../generator/pipeline/load/load-spec.js");
  const { buildIR } = await import("../../generator/pipeline/ir/build-ir.js");
  const { planProject } = await import("../../generator/pipeline/plan/plan-project.js");
  const { emitProject } = await import("../../generator/pipeline/emit/project-files.js");
  const { DiagnosticBag } = await import("../../generator/shared/diagnostics.js");
  const fixtures = join(repoRoot, "specs", "fixtures");
  const specs = [
    join(repoRoot, "specs", "petstore.yaml"),
    ...readdirSync(fixtures)
      .filter((name) => /\.(ya?ml|json)$/.test(name) && !/broken|invalid/.test(name))
      .map((name) => join(fixtures, name)),
  ];
  let checked = 0;
  for (const file of specs) {
    const bag = new DiagnosticBag();
    const spec = await loadSpec(file, { validate: false }, bag);
    if (!spec) throw new Error(`${file} did not load`);
    const before = JSON.stringify(spec.document);
    emitProject(planProject(buildIR(spec, bag), {}, bag), { apiDocument: before });
    assert.is(JSON.stringify(spec.document), before, file);
    checked += 1;
  }
  assert.ok(checked >= 15, `${checked} specs`);
});

test("a validator that throws is a warning, not a failed generation", async () => {
  const document: Record<string, unknown> = { openapi: "3.0.3", paths: {} };
  Object.defineProperty(document, "info", {
    enumerable: true,
    get() {
      throw new Error("boom");
    },
  });
  const findings = await validationFindings(document);
  assert.is(findings.length, 1);
  assert.is(findings[0]!.severity, "warning");
  assert.is(findings[0]!.message, "The spec could not be validated: boom");
});

/** A 3.0 document whose one response has `schema` (its content's) as given. */
function responseWith(schema: unknown, openapi = "3.0.3"): Record<string, unknown> {
  const content = { "application/json": { schema } };
  return {
    openapi,
    info: { title: "T", version: "1" },
    paths: { "/a": { get: { responses: { "200": { description: "ok", content } } } } },
  };
}

test("one `schema: null` is one finding, in OpenAPI's words, in each version", async () => {
  const swagger = {
    swagger: "2.0",
    info: { title: "T", version: "1" },
    paths: { "/a": { get: { responses: { "200": { description: "ok", schema: null } } } } },
  };
  for (const document of [responseWith(null), responseWith(null, "3.1.0"), swagger]) {
    const findings = await validationFindings(document);
    assert.is(findings.length, 1, JSON.stringify(findings)); // ajv: 5 errors in 3.0, 7 in 2.0
    assert.is(findings[0]!.message, "`schema` is null.");
    assert.match(findings[0]!.pointer!, /\/schema$/);
    assert.not.match(JSON.stringify(findings), /\$ref|oneOf/);
  }
});

test("one mistake repeated in four schemas is one finding with the count and the pointers", async () => {
  const schemas = Object.fromEntries(
    ["A", "B", "C", "D"].map((name) => [name, { type: "object", properties: { x: { type: "null" } } }]),
  );
  const document = { ...responseWith({ $ref: "#/components/schemas/A" }), components: { schemas } };
  const findings = await validationFindings(document);
  assert.is(findings.length, 1, JSON.stringify(findings)); // ajv: 20 errors
  assert.match(findings[0]!.message, /^`type: 'null'` is OpenAPI 3\.1 \(4 places: /);
  for (const name of ["A", "B", "C", "D"])
    assert.ok(findings[0]!.message.includes(`#/components/schemas/${name}/properties/x/type`));
  assert.is(findings[0]!.help, "In 3.0 write `nullable: true` on the schema.");
});

test("distinct problems stay distinct, each with its own fix; the Reference alternative is not one", async () => {
  const findings = await validationFindings(responseWith({ type: ["string", "null"], exclusiveMinimum: 0 }));
  assert.equal(
    findings.map((f) => [f.pointer, f.help]),
    [
      [
        "#/paths/~1a/get/responses/200/content/application~1json/schema/exclusiveMinimum",
        "In 3.0 write `minimum: 0` and `exclusiveMinimum: true`.",
      ],
      [
        "#/paths/~1a/get/responses/200/content/application~1json/schema/type",
        "In 3.0 write one type, and `nullable: true` for null.",
      ],
    ],
  );
  const noDescription = responseWith({ type: "string" });
  delete (noDescription.paths as any)["/a"].get.responses["200"].description;
  const missing = await validationFindings(noDescription);
  assert.equal(
    missing.map((f) => [f.pointer, f.message]),
    [["#/paths/~1a/get/responses/200", "`200` lacks the required field `description`."]],
  );
});

test("alternatives' allowed values are one list; a wrong type says what it is", async () => {
  const document = responseWith({ type: "object", required: "x" });
  const parameter = { name: "x", in: "header", schema: { type: "string" }, style: "deep" };
  (document.paths as any)["/a"].get.parameters = [parameter];
  const findings = await validationFindings(document);
  assert.equal(
    findings.map((f) => f.message),
    [
      '`style` is "deep"; allowed: matrix, label, simple, form, spaceDelimited, pipeDelimited, deepObject.',
      "`required` must be array, not string.",
    ],
  );
  parameter.in = "body";
  delete (parameter as any).style;
  assert.equal((await validationFindings(document))[0]!.message, "`in: body` is Swagger 2.0.");
});

test("past 20 problems the rest are counted", async () => {
  const paths = Object.fromEntries(
    Array.from({ length: 25 }, (_, i) => [
      `/p${i}`,
      { get: { responses: { "200": { description: "ok" } }, [`bad${i}`]: 1 } },
    ]),
  );
  const findings = await validationFindings({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths });
  assert.is(findings.length, 21);
  assert.is(findings[20]!.message, "…and 5 more problems with the OpenAPI schema.");
  assert.match(findings[0]!.message, /`get` has `bad0`, which is not a field here/);
});

test.run();
