import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/generate.js";
import { compareOutput } from "../../generator/write/compare-output.js";
import { readFileSync } from "node:fs";

/** Repository root (this file runs from dist/test/golden). */
const root = fileURLToPath(new URL("../../../", import.meta.url));

/** The examples list shared with scripts/generate-examples.js. */
const EXAMPLES = JSON.parse(readFileSync(join(root, "specs/examples.json"), "utf8")) as Array<{ name: string; spec: string }>;

for (const example of EXAMPLES) {
  test(`generated/${example.name} equals a fresh generation`, async () => {
    const result = await generate({ spec: join(root, example.spec) });
    const comparison = await compareOutput(join(root, "generated", example.name), result.files);
    const report = [
      ...comparison.missing.map((p) => `missing ${p}`),
      ...comparison.extra.map((p) => `not generated any more: ${p}`),
      ...comparison.changed.map((c) => `changed ${c.path}\n${c.diff}`),
    ].join("\n");
    assert.is(report, "", `generated/${example.name} is stale; run "npm run generate:examples"\n${report}`);
  });
}

test("generation is deterministic: two runs give byte-identical files", async () => {
  const spec = join(root, "specs/fixtures/oas31-library.json");
  const first = await generate({ spec });
  const second = await generate({ spec });
  assert.equal(second.files, first.files);
  assert.ok(first.files.length > 10);
});

test.run();
