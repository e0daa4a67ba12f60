import { test } from "uvu";
import * as assert from "uvu/assert";
import { ValidationWorker, validateInBackground, WORKER_MIN_CHARS } from "../../generator/load/validate.js";

/** An OpenAPI 3.0 document with one schema violation (a response without description), padded to `size` characters. */
function invalidDocument(size: number): string {
  const doc = { openapi: "3.0.3", info: { title: "T", version: "1", description: "" }, paths: { "/a": { get: { responses: { "200": {} } } } } };
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
    assert.ok(findings.some((d) => d.pointer?.startsWith("#/paths/~1a/get/responses/200")), JSON.stringify(findings));
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

test.run();
