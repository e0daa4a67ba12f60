/**
 * Issue 10: seeded mutations of specs/hostile/ through the generator (`FUZZ_SPECS` mutations,
 * default 40; `npm run fuzz` runs 400; `FUZZ_SEED` picks another run): never exit 3, never a
 * partial output folder or a leftover staging folder.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { fuzzCount, fuzzSeed } from "../fuzz/prng.js";
import { fuzzSpecs } from "../fuzz/spec-mutations.js";

const COUNT = fuzzCount("FUZZ_SPECS", 40);
const SEED = fuzzSeed(20261124);

test(`${COUNT} mutated hostile specs: exit 0 or a coded refusal, never exit 3, never a partial output folder`, async () => {
  const started = Date.now();
  const outcomes = await fuzzSpecs(COUNT, SEED);
  const codes = new Map<string, number>();
  for (const o of outcomes) codes.set(String(o.code), (codes.get(String(o.code)) ?? 0) + 1);
  console.log(
    `  fuzz specs: ${outcomes.length} mutations (seed ${SEED}) in ${Date.now() - started} ms, exit codes ${JSON.stringify(Object.fromEntries(codes))}`,
  );
  const problems = outcomes.filter((o) => o.problem).map((o) => `${o.name}: ${o.problem}`);
  assert.equal(problems, [], problems.join("\n"));
  assert.is(outcomes.length, COUNT);
  assert.ok(codes.has("0") && codes.has("1"), "the mutations both pass and fail generation (they exercise both paths)");
});

test.run();
