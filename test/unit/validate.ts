import { createRequire } from "node:module";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ValidationWorker, validateInBackground, WORKER_MIN_CHARS } from "../../generator/load/validate.js";

/** An OpenAPI 3.0 document with one schema violation (a response without description), padded to `size` characters. */
function invalidDocument(size: number): string {
  const doc = {
    openapi: "3.0.3",
    info: { title: "T", version: "1", description: "" },
    paths: { "/a": { get: { responses: { "200": {} } } } },
  };
  const base = JSON.stringify(doc).length;
  doc.info.description = "x".repeat(Math.max(0, size - base));
  return JSON.stringify(doc);
}

test("small documents are validated in this thread, big ones in a worker: same warnings", async () => {
  const small = await validateInBackground(invalidDocument(1000));
  const big = await validateInBackground(invalidDocument(WORKER_MIN_CHARS + 10));
  for (const findings of [small, big]) {
    assert.ok(findings.length > 0);
    assert.ok(findings.every((d) => d.severity === "warning" && d.code === "MG101"));
    assert.ok(
      findings.some((d) => d.pointer?.startsWith("#/paths/~1a/get/responses/200")),
      JSON.stringify(findings),
    );
  }
  assert.equal(big, small);
});

test("a worker started early validates the document it is given, or is stopped unused", async () => {
  const worker = new ValidationWorker();
  const findings = await validateInBackground(invalidDocument(WORKER_MIN_CHARS + 10), worker);
  assert.ok(findings.some((d) => d.code === "MG101"));
  const unused = new ValidationWorker();
  const valid = JSON.stringify({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths: {} });
  assert.equal(await validateInBackground(valid, unused), []); // small: validated here, the worker stopped
});

test("each OpenAPI version is checked against its own published schema (compiled once)", async () => {
  const { openApiSchemaViolations, openApiValidator, schemaVersion } = await import(
    "../../generator/load/openapi-schema.js"
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
    "../../generator/load/openapi-schema.js"
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
test.run();
