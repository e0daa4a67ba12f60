#!/usr/bin/env node
// Runs the test files of dist/test in parallel lanes: one uvu process per lane (MCP_GEN_TEST_LANES,
// default 2, one per core of the CI machine), each running its share of the files one after the other,
// as uvu always does. Much of an end-to-end file's time is spent waiting (on a server to start, a
// child process, npm, a browser), which the other lane uses. Files are dealt to the lanes longest
// first (by the time each took in the last full run, .tmp/test-times.json, or the figures below on
// a fresh clone), so the lanes end at about the same time.
//
// Lines are printed as they come, prefixed with their lane; the uvu totals of all lanes are added up
// and printed once in uvu's own format (scripts/test.js reads them), followed by the slowest files.
// A lane whose process is still running a minute after its totals (an open handle a failed test
// left) is ended and the run fails.
//
//   node scripts/test-lanes.js [pattern]     (pattern: uvu's, a regular expression on the file path)
//   MCP_GEN_TEST_LANES_LIST=1 node scripts/test-lanes.js    prints how the files would be dealt, runs nothing
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const testDir = join(root, "dist", "test");
const pattern = new RegExp(process.argv[2] ?? "\\.js$", "i");
const laneCount = Math.max(1, Number(process.env.MCP_GEN_TEST_LANES ?? 2) || 1);
const timesFile = join(root, ".tmp", "test-times.json");
const EXIT_GRACE_MS = 60_000;

/** Seconds per file on a quiet 2-core machine (2026-11-26, one lane): the weights when no run has been recorded. */
const DEFAULT_SECONDS = {
  "e2e/fleet.js": 165,
  "e2e/generated-npm-test.js": 112,
  "e2e/corpus-subset.js": 78,
  "e2e/conformance.js": 69,
  "e2e/cli.js": 67,
  "e2e/fidelity-subset.js": 58,
  "e2e/check.js": 54,
  "e2e/large-surfaces.js": 43,
  // docs/guide/protocol.md, "Conformance and interop": about 65 s.
  "e2e/inspector.js": 65,
};
/** The weight of a file with no figure (most unit files take well under a second). */
const UNKNOWN_SECONDS = 2;
/**
 * Files that run the same installer, which is not safe to run twice at once on a fresh clone, share a
 * lane: scripts/setup-conformance.js (npm install into tools/conformance) and the apt-get installs of
 * scripts/setup-chromium.js and scripts/setup-scale.js (apt-get holds one lock), and the npm install of
 * the corpus packages into .cache/corpus. The deploy-target files run setup-conformance.js too (and
 * scripts/setup-runtimes.js, an npm ci into tools/runtimes), so they join the first group. A new file that runs
 * one of these installers joins its group.
 */
const SAME_LANE = [
  ["e2e/conformance.js", "e2e/inspector.js", "e2e/target-bun.js", "e2e/target-deno.js", "e2e/target-lambda.js"],
  ["e2e/fleet.js", "e2e/state-redis.js", "e2e/user-sign-in.js"],
  // Both install pinned spec packages into .cache/corpus with npm (test/corpus/sources.ts installPackage).
  ["e2e/corpus-subset.js", "e2e/large-surfaces.js"],
];

/** The test files as uvu finds them: paths relative to dist/test, sorted, matching the pattern. */
function listFiles(dir, prefix = "") {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (/^\.git|node_modules/i.test(name)) continue;
    if (entry.isDirectory()) files.push(...listFiles(join(dir, entry.name), name));
    else if (pattern.test(name)) files.push(name);
  }
  return files.sort((a, b) => a.localeCompare(b));
}

function readTimes() {
  try {
    return { ...DEFAULT_SECONDS, ...JSON.parse(readFileSync(timesFile, "utf8")) };
  } catch {
    return DEFAULT_SECONDS;
  }
}

/** Longest first, each file (or group of SAME_LANE files) to the lane with the least work so far. */
function dealLanes(files, seconds) {
  const lanes = Array.from({ length: Math.min(laneCount, files.length) }, () => ({ files: [], load: 0 }));
  const weight = (file) => seconds[file] ?? UNKNOWN_SECONDS;
  const grouped = new Set(SAME_LANE.flat());
  const units = [
    ...SAME_LANE.map((group) => group.filter((file) => files.includes(file))).filter((group) => group.length > 0),
    ...files.filter((file) => !grouped.has(file)).map((file) => [file]),
  ].map((unit) => ({ files: unit, load: unit.reduce((n, file) => n + weight(file), 0) }));
  for (const unit of units.sort((a, b) => b.load - a.load || a.files[0].localeCompare(b.files[0]))) {
    const lane = lanes.reduce((best, candidate) => (candidate.load < best.load ? candidate : best));
    lane.files.push(...unit.files);
    lane.load += unit.load;
  }
  return lanes;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Runs one lane's files in one uvu process; resolves with its totals and per-file times. */
function runLane(index, files, prefix) {
  const only = `^(?:${files.map(escape).join("|")})$`;
  const child = spawn(process.execPath, [join(root, "node_modules", "uvu", "bin.js"), relative(root, testDir), only], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  let pending = "";
  const started = [];
  // Each failed test's block (uvu's FAIL line, its message and the first line of its stack), repeated at
  // the end of the run: CI shows the run's last lines, and the lanes' output is long and interleaved.
  const failures = [];
  let failure;
  let lingering;
  let killed = false;
  const print = (line) => process.stdout.write(`${prefix}${line}\n`);
  child.stdout.on("data", (chunk) => {
    output += chunk;
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const raw of lines) {
      print(raw);
      const line = raw.replace(/\x1b\[[0-9;]*m/g, "").trim();
      if (/^[\w./-]+\.js$/.test(line)) started.push({ file: line, at: Date.now() });
      if (/^FAIL\s/.test(line)) {
        failure = [`${started.at(-1)?.file ?? "?"}: ${line}`];
        failures.push(failure);
      } else if (failure && line) {
        failure.push(`    ${line}`);
        // The message, then up to the first stack line outside node_modules (the test's own line).
        if (failure.length >= 24 || (/^at /.test(line) && !/node_modules/.test(line))) failure = undefined;
      }
      // A file whose test.before threw runs none of its tests, and uvu prints neither the error nor a FAIL.
      const none = /^\(0 \/ (\d+)\)$/.exec(line);
      if (none && Number(none[1]) > 0 && started.length > 0)
        console.error(
          `test lanes: ${started.at(-1).file} passed none of its ${none[1]} tests (with no FAIL for them below, its test.before threw, an error uvu does not print: run the file alone, e.g. npx uvu dist/test/${started.at(-1).file.replace(/\/[^/]*$/, "")} ${started.at(-1).file.replace(/^.*\//, "").replace(/\./g, "\\.")}$)`,
        );
    }
    if (!lingering && /Duration:\s+[\d.]+ms/.test(output)) {
      lingering = setTimeout(() => {
        killed = true;
        console.error(
          `test lanes: lane ${index + 1} did not exit ${EXIT_GRACE_MS / 1000} s after its totals (an open handle: a server or child process left running); ending it`,
        );
        child.kill("SIGTERM");
      }, EXIT_GRACE_MS);
    }
  });
  return new Promise((done) =>
    child.on("close", (status) => {
      clearTimeout(lingering);
      if (pending) print(pending);
      const ended = Date.now();
      // uvu's summary ends the lane's output: the last match, as a test may print "Total: N" too.
      const number = (label) => Number([...output.matchAll(new RegExp(`${label}:\\s+(\\d+)`, "g"))].at(-1)?.[1] ?? NaN);
      done({
        code: status ?? 1,
        killed,
        total: number("Total"),
        passed: number("Passed"),
        skipped: number("Skipped") || 0,
        failures,
        durations: started.map((entry, i) => ({ file: entry.file, ms: (started[i + 1]?.at ?? ended) - entry.at })),
      });
    }),
  );
}

// The suites are the files of these folders; helpers live in test/support/, the runners of the
// corpus, fidelity, fuzz, large and scale tiers in their own folders (run by their npm scripts).
// uvu runs no empty suite (test/unit/test-layout.ts).
const SUITE_FOLDERS = ["unit", "e2e", "golden"];
const files = SUITE_FOLDERS.flatMap((folder) => listFiles(join(testDir, folder), folder));
const lanes = dealLanes(files, readTimes());
if (process.env.MCP_GEN_TEST_LANES_LIST) {
  // Only print how the files would be dealt (one line per lane), run nothing.
  for (const [i, lane] of lanes.entries())
    console.log(`lane ${i + 1} (~${Math.round(lane.load)} s): ${lane.files.join(" ")}`);
  process.exit(0);
}
const began = Date.now();
if (lanes.length > 1)
  console.error(
    `test lanes: ${files.length} files in ${lanes.length} lanes (${lanes.map((l) => `${l.files.length} files, ~${Math.round(l.load)} s`).join("; ")})`,
  );
const results = await Promise.all(
  lanes.map((lane, i) => runLane(i, lane.files, lanes.length > 1 ? `[${i + 1}] ` : "")),
);

const unreadable = results.some((r) => Number.isNaN(r.total) || Number.isNaN(r.passed));
const sum = (key) => results.reduce((n, r) => n + r[key], 0);
if (!unreadable)
  process.stdout.write(
    `\n  Total:     ${sum("total")}\n  Passed:    ${sum("passed")}\n  Skipped:   ${sum("skipped")}\n  Duration:  ${Date.now() - began}ms\n\n`,
  );
const failures = results.flatMap((r) => r.failures);
if (failures.length > 0)
  console.error(`test lanes: ${failures.length} failed:\n${failures.map((lines) => lines.join("\n")).join("\n")}`);
const durations = results.flatMap((r) => r.durations).sort((a, b) => b.ms - a.ms);
if (durations.length > 1) {
  console.error(
    `test runner: slowest files: ${durations
      .slice(0, 8)
      .map((d) => `${d.file} ${(d.ms / 1000).toFixed(0)} s`)
      .join(", ")}`,
  );
  if (lanes.length > 1)
    console.error(
      `test lanes: lanes ended after ${results.map((r) => `${(r.durations.reduce((n, d) => n + d.ms, 0) / 1000).toFixed(0)} s`).join(", ")} (wall ${((Date.now() - began) / 1000).toFixed(0)} s)`,
    );
}
// The weights of the next run: every file's time in this one (a full run only: a pattern's run is partial).
if (!process.argv[2] && !unreadable) {
  mkdirSync(dirname(timesFile), { recursive: true });
  const times = Object.fromEntries(durations.map((d) => [d.file, Math.round(d.ms / 100) / 10]));
  writeFileSync(timesFile, `${JSON.stringify(times, null, 2)}\n`);
}
if (results.some((r) => r.killed)) {
  console.error("test lanes: a lane had to be ended (see above): failing the run");
  process.exit(1);
}
process.exit(unreadable ? 1 : Math.max(...results.map((r) => r.code)));
