import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { type Timed, WorkerChoreography } from "../../generator/pipeline/generate-worker.js";

/** A document that validates with a warning (no `info`). */
const INVALID = { openapi: "3.0.3", paths: {} };
const timed: Timed = async (_stage, work) => await work();

test("validation done on this thread runs at validatedHere, once, its findings where the load stage left off", async () => {
  const bag = new DiagnosticBag();
  bag.add({ code: "MG000", severity: "info", message: "from load" });
  // No thread (a run that makes no files): validation is this thread's work.
  const choreography = new WorkerChoreography(false);
  choreography.startValidation(INVALID, JSON.stringify(INVALID), bag, timed);
  bag.add({ code: "MG001", severity: "info", message: "from plan" });
  assert.is(bag.items.length, 2, "nothing validated before it is asked");
  await choreography.validatedHere();
  const validation = bag.items.slice(1, -1);
  assert.ok(validation.length > 0, "the invalid document's warnings are in");
  assert.ok(validation.every((item) => item.severity === "warning"));
  assert.is(bag.items.at(-1)!.message, "from plan");
  const count = bag.items.length;
  await choreography.validated();
  assert.is(bag.items.length, count, "validated() after validatedHere() adds nothing again");
});

test("validatedHere leaves a validation the worker thread does alone", async () => {
  const bag = new DiagnosticBag();
  const choreography = new WorkerChoreography(true);
  try {
    choreography.startValidation(INVALID, JSON.stringify(INVALID), bag, timed);
    await choreography.validatedHere();
    assert.is(bag.items.length, 0, "not awaited here");
    await choreography.validated();
    assert.ok(bag.items.length > 0, "the thread's findings once awaited");
  } finally {
    await choreography.fail();
  }
});

test.run();
