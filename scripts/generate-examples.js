#!/usr/bin/env node
// Regenerates generated/<example>/ from specs/ with the built generator, or with --check verifies
// that the checked-in folders equal a fresh generation (exit 1 and a line-numbered diff otherwise).
// The examples are always generated from scratch (not updated in place), so they show exactly what a
// first generation writes — `.mcp-gen/` state and once-files included — and never depend on the
// previous checked-in version (no version bumps, no locked names carried over). An example with
// `custom` (specs/examples.json) then gets that folder's files in src/custom/, as a user would
// have written them after the first generation.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generate } from "../dist/generator/generate.js";
import { compareOutput, isUpToDate } from "../dist/generator/write/compare-output.js";
import { customFiles, exampleFiles } from "../dist/test/golden/example-custom.js";

/** The example servers checked in under generated/, and the spec each comes from. */
const EXAMPLES = JSON.parse(await readFile(new URL("../specs/examples.json", import.meta.url), "utf8"));

const check = process.argv.includes("--check");
let stale = 0;
for (const example of EXAMPLES) {
  const outDir = join("generated", example.name);
  if (!check) {
    await rm(outDir, { recursive: true, force: true });
    const result = await generate({ spec: example.spec, outDir });
    for (const [path, content] of customFiles(".", example)) await writeFile(join(outDir, path), content);
    console.log(`generated ${outDir} (${result.files.length} files, ${result.plan.tools.length} tools)`);
    continue;
  }
  const result = await generate({ spec: example.spec });
  const comparison = await compareOutput(outDir, exampleFiles(".", example, result.files));
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
