#!/usr/bin/env node
// Runs the whole suite (uvu over dist/test in parallel lanes, scripts/test-lanes.js, under c8 for
// coverage, which it collects from every process) and ends with the line CI reads: "N passed, N failed".
// The lanes print uvu's totals of all lanes in uvu's format; we read them from that summary. Coverage may not
// fall below the floors in COVERAGE (set about two points under the level of 2026-11-25: lines 96%,
// functions 95.8%, branches 86.9%): c8 then fails the run, so it cannot drop unnoticed.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";

// Every run starts with an empty compile cache (test/support/compile-cache.ts): each distinct generated
// project is compiled by tsc at least once per run, as on a fresh clone.
rmSync(".tmp/tsc-cache", { recursive: true, force: true });

const pattern = process.argv[2] ?? "\\.js$";
const COVERAGE = ["--check-coverage", "--lines=94", "--functions=93", "--branches=84"];
const child = spawn(
  process.execPath,
  [
    "node_modules/c8/bin/c8.js",
    "--reporter=text-summary",
    ...(process.argv[2] ? [] : COVERAGE),
    "--exclude=dist/test/**",
    "--exclude=node_modules/**",
    // Build output that is not our source: ajv's standalone code for the OpenAPI schemas and the
    // registry's server.json schema (scripts/build-validators.js) and the CLI bundle
    // (scripts/bundle-cli.js; its modules are covered as themselves, bin/mcp-gen.js runs them
    // unbundled under coverage).
    "--exclude=dist/generator/pipeline/load/openapi-validators/**",
    "--exclude=dist/generator/pipeline/emit/publishing/server-json-validator.cjs",
    "--exclude=dist/cli/mcp-gen.cjs",
    process.execPath,
    "scripts/test-lanes.js",
    pattern,
  ],
  { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, FORCE_COLOR: "0" } },
);
let output = "";
// The lanes end a uvu process that does not exit after its totals (an open handle a failed test
// left) and the lane runner exits explicitly, so what follows the totals is c8 merging the coverage
// of every process (~700 files): about 20 s on a quiet machine, over a minute at load 20 (a CI run
// failed so with every test passed). Only a run still open ten minutes after its totals is ended.
const EXIT_GRACE_MS = 600_000;
let lingering;
let killedLingering = false;
child.stdout.on("data", (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
  // The lanes' own totals are prefixed with their lane ("[1]   Duration: …"); the run's come last, unprefixed.
  if (!lingering && /^\s*Duration:\s+[\d.]+ms/m.test(output)) {
    lingering = setTimeout(() => {
      killedLingering = true;
      console.error(
        `test runner: the test process did not exit ${EXIT_GRACE_MS / 1000} s after its totals (the lane runner or c8 hangs); ending it`,
      );
      child.kill("SIGTERM");
    }, EXIT_GRACE_MS);
  }
});
const code = await new Promise((resolve) => child.on("close", (status) => resolve(status ?? 1)));
clearTimeout(lingering);
// The lanes print "Total: N", "Passed: N", "Skipped: N" for the whole run last, at the start of a line.
const number = (label) => Number([...output.matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)`, "gm"))].at(-1)?.[1] ?? NaN);
const total = number("Total");
const passed = number("Passed");
const skipped = number("Skipped") || 0;
if (Number.isNaN(total) || Number.isNaN(passed)) {
  console.log("0 passed, 1 failed");
  console.error("test runner: could not read uvu's totals (did the runner crash?)");
  process.exit(code || 1);
}
const failed = total - passed - skipped;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
if (failed === 0 && code !== 0 && !killedLingering)
  console.error("test runner: every test passed but the run failed (coverage under its floor? see c8's message above)");
if (killedLingering && failed === 0)
  console.error("test runner: every test passed, but the test process had to be ended (see above): failing the run");
process.exit(failed > 0 || killedLingering ? 1 : code);
