#!/usr/bin/env node
// Runs the whole suite (uvu over dist/test, under c8 for coverage) and ends with the line CI reads:
// "N passed, N failed". uvu prints its own totals; we add them up from its summary. Coverage may not
// fall below the floors in COVERAGE (set about two points under the level of 2026-11-25: lines 96%,
// functions 95.8%, branches 86.9%): c8 then fails the run, so it cannot drop unnoticed.
import { spawn } from "node:child_process";

const pattern = process.argv[2] ?? "\\.js$";
const COVERAGE = ["--check-coverage", "--lines=94", "--functions=93", "--branches=84"];
const child = spawn(
  process.execPath,
  ["node_modules/c8/bin/c8.js", "--reporter=text-summary", ...(process.argv[2] ? [] : COVERAGE), "--exclude=dist/test/**", "--exclude=node_modules/**", "node_modules/uvu/bin.js", "dist/test", pattern],
  { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, FORCE_COLOR: "0" } },
);
let output = "";
child.stdout.on("data", (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
});
const code = await new Promise((resolve) => child.on("close", (status) => resolve(status ?? 1)));
// uvu prints "Total: N", "Passed: N", "Skipped: N" once for the whole run.
const number = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(output)?.[1] ?? NaN);
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
if (failed === 0 && code !== 0) console.error("test runner: every test passed but the run failed (coverage under its floor? see c8's message above)");
process.exit(failed > 0 ? 1 : code);
