#!/usr/bin/env node
// Regenerates generated/<example>/ from specs/ with the built generator, or with --check verifies
// that the checked-in folders equal a fresh generation (exit 1 and a line-numbered diff otherwise).
// The examples are always generated from scratch (not updated in place), so they show exactly what a
// first generation writes — `.mcp-gen/` state and once-files included — and never depend on the
// previous checked-in version (no version bumps, no locked names carried over). An example with
// `custom` (specs/examples.json) then gets that folder's files in src/custom/, as a user would
// have written them after the first generation. The vendored runtime (src/runtime/) is left out of
// the checked-in folders: it is runtime/src itself (test/golden/examples.ts checks that a generation
// vendors exactly that); tests that run an example add it back (test/support/example-custom.ts).
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generate } from "../dist/generator/pipeline/generate.js";
import { compareOutput, isUpToDate } from "../dist/generator/pipeline/write/compare-output.js";
import { customFiles, exampleFiles, isVendoredRuntime } from "../dist/test/support/example-custom.js";

/** The example servers checked in under generated/, and the spec each comes from. */
const EXAMPLES = JSON.parse(await readFile(new URL("../specs/examples.json", import.meta.url), "utf8"));

const check = process.argv.includes("--check");
let stale = 0;
for (const example of EXAMPLES) {
  const outDir = join("generated", example.name);
  if (!check) {
    await rm(outDir, { recursive: true, force: true });
    const result = await generate({ spec: example.spec, outDir, features: example.with ?? [] });
    await rm(join(outDir, "src", "runtime"), { recursive: true, force: true });
    for (const [path, content] of customFiles(".", example)) await writeFile(join(outDir, path), content);
    console.log(`generated ${outDir} (${result.files.length} files, ${result.plan.tools.length} tools)`);
    continue;
  }
  const result = await generate({ spec: example.spec, features: example.with ?? [] });
  const own = result.files.filter((file) => !isVendoredRuntime(file.path));
  const comparison = await compareOutput(outDir, exampleFiles(".", example, own));
  if (isUpToDate(comparison)) {
    console.log(`ok ${outDir}`);
    continue;
  }
  stale++;
  console.log(`STALE ${outDir}: regenerate with "npm run generate:examples"`);
  for (const path of comparison.missing) console.log(`  missing: ${path}`);
  for (const path of comparison.extra) console.log(`  not generated any more: ${path}`);
  for (const { path, diff } of comparison.changed) console.log(`  changed: ${path}\n${diff}`);
}
process.exitCode = stale > 0 ? 1 : 0;
