import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag, type Diagnostic } from "../../generator/shared/diagnostics.js";
import { EmitWorker } from "../../generator/pipeline/emit/worker/emit-worker.js";
import { workerOutput } from "../../generator/pipeline/emit/worker/worker-files.js";
import { workerInput } from "../../generator/pipeline/emit/project-files.js";
import { formatFiles } from "../../generator/pipeline/emit/format.js";
import { generate } from "../../generator/pipeline/generate.js";
import { loadSpec } from "../../generator/pipeline/load/load-spec.js";
import { validationFindings } from "../../generator/pipeline/load/validate.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-emit-worker-"));
test.after(() => rmSync(work, { recursive: true, force: true }));

/** An OpenAPI 3.0 document with two schema violations (responses without a description). */
const invalid = {
  openapi: "3.0.3",
  info: { title: "T", version: "1" },
  paths: {
    "/a": { get: { operationId: "getA", responses: { "200": {} } } },
    "/b": { get: { operationId: "getB", responses: { "404": {} } } },
  },
};

const sentinel: Diagnostic[] = [{ code: "MG000", severity: "info", message: "validated in this thread" }];

test("the worker validates the document's JSON text and finds what this thread would", async () => {
  const worker = new EmitWorker();
  let here = 0;
  const findings = await worker.validate(JSON.stringify(invalid), async () => {
    here += 1;
    return sentinel;
  });
  worker.stop();
  assert.is(here, 0, "not validated in this thread");
  assert.equal(findings, await validationFindings(structuredClone(invalid)));
  assert.ok(findings.length >= 2, JSON.stringify(findings));
  assert.ok(findings.every((finding) => finding.code === "MG101" && finding.severity === "warning"));
});

test("a job the thread cannot answer (it was stopped) is done in this thread", async () => {
  const worker = new EmitWorker();
  // The thread is still starting (loading its modules and prettier) when it is stopped.
  const findings = worker.validate(JSON.stringify(invalid), async () => sentinel);
  worker.stop();
  assert.is(await findings, sentinel);
});

/** `promise`'s value, or "still waiting" after 5 s (a ref'd timer: the worker is unref'd, so waiting on it alone would end the run). */
async function within<T>(promise: Promise<T>): Promise<T | "still waiting"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"still waiting">((resolve) => (timer = setTimeout(() => resolve("still waiting"), 5000)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

test("after the thread failed, a job asked of it is done in this thread at once (not left waiting)", async () => {
  const worker = new EmitWorker();
  // Text that is not JSON makes the thread throw: it ends, and its jobs are done here.
  assert.equal(await within(worker.validate("{ not json", async () => sentinel)), sentinel);
  assert.is(await within(worker.exited), undefined, "the thread exited");
  const later: Diagnostic[] = [{ code: "MG000", severity: "info", message: "asked after the thread ended" }];
  assert.is(await within(worker.validate(JSON.stringify(invalid), async () => later)), later);
  worker.stop();
});

test("the thread formats the files it makes, as format.ts formats them in this thread", async () => {
  const spec = join(work, "valid.json");
  writeFileSync(spec, JSON.stringify({ ...invalid, paths: {} }));
  const { plan } = await generate({ spec, planOnly: true, allowEmpty: true });
  const worker = new EmitWorker();
  const output = await within(worker.run(workerInput(plan, false)));
  worker.stop();
  assert.ok(output !== "still waiting");
  const unformatted = workerOutput(workerInput(plan, false)).files;
  const formatted = await formatFiles(unformatted, plan.tools.length);
  assert.equal(output.files, formatted);
  assert.ok(
    formatted.some((file, i) => file.content !== unformatted[i]!.content),
    "formatting changes some file (src/index.ts)",
  );
});

test("generate reports the worker's validation warnings after the load's, with their pointers", async () => {
  const spec = join(work, "invalid.json");
  writeFileSync(spec, JSON.stringify(invalid));
  const result = await generate({ spec, outDir: join(work, "out") });
  const warnings = result.diagnostics.filter((d) => d.code === "MG101");
  assert.equal(
    warnings.map((d) => d.pointer),
    (await validationFindings(structuredClone(invalid))).map((d) => d.pointer),
  );
  assert.ok(
    warnings.some((d) => d.pointer?.startsWith("#/paths/~1a/get/responses/200")),
    JSON.stringify(warnings),
  );
  // Loading reports nothing else for this spec, so the findings come first, before the later stages'.
  const bag = new DiagnosticBag();
  await loadSpec(spec, { validate: false }, bag);
  assert.is(bag.items.length, 0);
  assert.equal(
    result.diagnostics.slice(0, warnings.length).map((d) => d.code),
    warnings.map(() => "MG101"),
  );
  assert.ok(result.write, "the project was written");
});

test.run();
