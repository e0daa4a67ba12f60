#!/usr/bin/env node
// Experiment (not a test): per-call counts of an HTTP server under load that, unlike time, do not depend on
// what else the machine runs: promises made (async_hooks), bytes allocated, bytes surviving a scavenge and
// bytes promoted to the old generation (V8's --trace-gc-nvp), over HTTP_COUNT_CALLS calls at
// HTTP_COUNT_CLIENTS clients after as many calls of warm-up, for a petstore server built from a checkout
// (or a prebuilt dist/index.js) and for the floor of npm run bench:http.
// Usage: node scripts/experiments/http-counts.js [checkout or …/dist/index.js …]   (default: this checkout)
//   HTTP_COUNT_CALLS (6000), HTTP_COUNT_CLIENTS (64), HTTP_COUNT_MODE (2025-06-18)
// Promises are counted in a second start of each server: the hook slows it, which moves the GC figures.
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildPetstore, httpLoad, root, startHttp, startUpstream } from "../bench-parts.js";

const CALLS = Number(process.env.HTTP_COUNT_CALLS ?? 6000);
const CLIENTS = Number(process.env.HTTP_COUNT_CLIENTS ?? 64);
const MODE = process.env.HTTP_COUNT_MODE ?? "2025-06-18";
/** Preloaded into the server: counts promises when asked, and writes a mark on stdout at each SIGUSR2. */
const PRELOAD = `data:text/javascript,${encodeURIComponent(`
  import { createHook } from "node:async_hooks";
  let promises = 0;
  if (process.env.HTTP_COUNT_PROMISES) createHook({ init(id, type) { if (type === "PROMISE") promises++; } }).enable();
  process.on("SIGUSR2", () => process.stdout.write("\\nMARK promises=" + promises + "\\n"));
`)}`;

const { upstream, baseUrl } = await startUpstream();
const work = mkdtempSync(join(tmpdir(), "mcp-gen-http-counts-"));
const servers = [];
for (const where of process.argv.slice(2).length > 0 ? process.argv.slice(2) : [root]) {
  const dir = where.endsWith("/dist/index.js")
    ? dirname(dirname(where))
    : await buildPetstore(where, work, `p${servers.length}`, ["sessions"]);
  servers.push({ name: where, args: [join(dir, "dist/index.js"), "--http", "--port", "0", "--base-url", baseUrl] });
}
servers.push({ name: "floor", args: [join(root, "scripts/bench-http-baselines.js"), "floor", baseUrl] });
console.log(`${CALLS} calls at ${CLIENTS} clients (${MODE}) after ${CALLS} of warm-up; per call:`);
console.log("server | promises | KB allocated | KB surviving scavenges | KB promoted | scavenges");
for (const server of servers) {
  const gc = await measure(server.args, false);
  const counted = await measure(server.args, true);
  console.log(
    `${server.name} | ${(counted.promises / CALLS).toFixed(1)} | ${(gc.allocated / CALLS / 1024).toFixed(1)} | ${(gc.survived / CALLS / 1024).toFixed(1)} | ${(gc.promoted / CALLS / 1024).toFixed(1)} | ${gc.scavenges}`,
  );
}
upstream.close();
rmSync(work, { recursive: true, force: true });
process.exit(0);

/** Starts a server, warms it, marks, makes CALLS calls, marks again: the GC lines and promises between the marks. */
async function measure(args, countPromises) {
  const out = join(work, `gc-${Date.now()}.txt`);
  const env = { ...process.env, HTTP_COUNT_PROMISES: countPromises ? "1" : "" };
  const { child, url } = await startHttp(["--trace-gc-nvp", "--import", PRELOAD, ...args], args[0], {
    stdout: openSync(out, "w"),
    env,
  });
  await load(url, CALLS);
  const marked = () => new Promise((resolve) => setTimeout(resolve, 300));
  child.kill("SIGUSR2");
  await marked();
  const outcome = await load(url, CALLS);
  child.kill("SIGUSR2");
  await marked();
  child.kill("SIGTERM");
  await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
  if (outcome.calls !== CALLS) throw new Error(`${outcome.calls} calls made of ${CALLS}`);
  const lines = readFileSync(out, "utf8").split("\n");
  const marks = lines.flatMap((line, i) => (line.startsWith("MARK") ? [i] : []));
  const between = lines.slice(marks[0], marks[1]);
  const promisesAt = (i) => Number(/promises=(\d+)/.exec(lines[marks[i]])[1]);
  /** Sum of a --trace-gc-nvp field over the GCs between the marks (scavenges only: `gc=s`, when asked). */
  const sum = (field, scavengesOnly) =>
    between.reduce((total, line) => {
      const value = new RegExp(`\\b${field}=(\\d+)`).exec(line)?.[1];
      return value === undefined || (scavengesOnly && !/\bgc=s\b/.test(line)) ? total : total + Number(value);
    }, 0);
  return {
    promises: promisesAt(1) - promisesAt(0),
    allocated: sum("allocated", false),
    survived: sum("new_space_survived", true),
    promoted: sum("promoted", true),
    scavenges: between.filter((line) => /\bgc=s\b/.test(line)).length,
  };
}

/** `calls` calls at CLIENTS clients through bench-http-load.js (bounded at 120 s). */
function load(url, calls) {
  return httpLoad({ kind: "calls", url, mode: MODE, clients: CLIENTS, seconds: 120, maxCalls: calls });
}
