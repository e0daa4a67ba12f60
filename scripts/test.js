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
  [
    "node_modules/c8/bin/c8.js",
    "--reporter=text-summary",
    ...(process.argv[2] ? [] : COVERAGE),
    "--exclude=dist/test/**",
    "--exclude=node_modules/**",
    "node_modules/uvu/bin.js",
    "dist/test",
    pattern,
  ],
  { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, FORCE_COLOR: "0" } },
);
let output = "";
let pending = "";
// When each test file started (uvu prints its path, e.g. "e2e/fleet.js", on a line of its own): the
// slowest files are listed at the end, so the suite's time budget (well under 20 minutes) stays visible.
const started = [];
// uvu does not exit while a handle is open (a server or child process a failed test did not close):
// once it has printed its totals, give it a minute to exit, then end it rather than hang CI.
const EXIT_GRACE_MS = 60_000;
let lingering;
let killedLingering = false;
child.stdout.on("data", (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
  pending += chunk;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const raw of lines) {
    const line = raw.replace(/\x1b\[[0-9;]*m/g, "").trim();
    if (/^[\w./-]+\.js$/.test(line)) started.push({ file: line, at: Date.now() });
  }
  if (!lingering && /Duration:\s+[\d.]+ms/.test(output)) {
    lingering = setTimeout(() => {
      killedLingering = true;
      console.error(
        `test runner: the test process did not exit ${EXIT_GRACE_MS / 1000} s after its totals (an open handle: a server or child process left running); ending it`,
      );
      child.kill("SIGTERM");
    }, EXIT_GRACE_MS);
  }
});
const code = await new Promise((resolve) => child.on("close", (status) => resolve(status ?? 1)));
clearTimeout(lingering);
const ended = Date.now();
const durations = started.map((entry, i) => ({ file: entry.file, ms: (started[i + 1]?.at ?? ended) - entry.at }));
durations.sort((a, b) => b.ms - a.ms);
if (durations.length > 1) {
  console.error(
    `test runner: slowest files: ${durations
      .slice(0, 8)
      .map((d) => `${d.file} ${(d.ms / 1000).toFixed(0)} s`)
      .join(", ")}`,
  );
}
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
if (failed === 0 && code !== 0 && !killedLingering)
  console.error("test runner: every test passed but the run failed (coverage under its floor? see c8's message above)");
if (killedLingering && failed === 0)
  console.error("test runner: every test passed, but the test process had to be ended (see above): failing the run");
process.exit(failed > 0 || killedLingering ? 1 : code);
