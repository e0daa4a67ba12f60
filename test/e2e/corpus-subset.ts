/**
 * A small, fixed subset of the real-world corpus (../shared/corpus/dev) through the corpus runner:
 * generate, tsc --strict, start, tools/list with the SDK client, checks. Skipped when the shared
 * corpus is not next to the repository. The full run is `npm run corpus`.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs pinned spec packages installed with npm into .cache/corpus, and tsc builds of generated projects.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { formatRow, runAll } from "../corpus/run.js";
import { listSource } from "../corpus/sources.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const corpusDir = join(root, "..", "shared", "corpus");
/** One per origin group: 3.1 native, Swagger 2.0 origin, Google discovery, AWS, 3.0 with path-item $refs, small 3.0.1. */
const SUBSET = [
  "exoapi.dev",
  "wmata.com/rail-realtime",
  "googleapis.com/sourcerepo",
  "amazonaws.com/cloudsearchdomain",
  "surevoip.co.uk",
  "twilio.com/twilio_pricing_v2",
];

if (existsSync(join(corpusDir, "dev", "manifest.json"))) {
  test("corpus subset: every spec is clean end to end", async () => {
    const entries = listSource(root, "dev", corpusDir).filter((e) => SUBSET.includes(e.id));
    assert.is(entries.length, SUBSET.length);
    const rows = await runAll(
      entries,
      { sources: ["dev"], compile: true, jobs: 2, keep: false, outputSchemas: true, npmTest: false },
      root,
    );
    const failures = rows
      .filter((r) => r.problems.length > 0)
      .map((r) => `${formatRow(r)}\n  ${r.problems.slice(0, 5).join("\n  ")}`);
    assert.equal(failures, []);
    for (const row of rows) assert.ok(row.tools > 0 && row.tools === row.operations, row.id);
  });
} else {
  test.skip("corpus subset (../shared/corpus not present)", () => undefined);
}

test.run();
