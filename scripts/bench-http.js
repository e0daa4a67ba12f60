#!/usr/bin/env node
// npm run bench:http (not a test): many clients at once over Streamable HTTP. The petstore example, generated
// afresh from specs/petstore.yaml (with feature `sessions`) into a temporary folder and built as a user builds it,
// serves getPet against a local upstream (a node:http server on 127.0.0.1 answering one pet). In the same run,
// two baselines (scripts/bench-http-baselines.js): the same tool by hand on the official SDK 1.x's stateless
// Streamable HTTP server, and a floor, a bare node:http handler making the same upstream call with got; and an
// A/A control, the same floor in a second process.
//
// Six targets, each driven by a load generator in a process of its own (scripts/bench-http-load.js: raw JSON-RPC
// over node:http, keep-alive, one socket per client, closed loops): mcp-gen and the floor each in revision
// 2025-06-18 (stateless, no initialize: each request carries MCP-Protocol-Version) and 2026-07-28 (SEP-2243
// headers, `_meta`; the floor reads the same request and answers with `resultType`, checking nothing), the SDK
// and the control in 2025-06-18. mcp-gen in each revision is paired with the floor in the same one: the same
// request bytes, made and sent by the same load generator. Each run starts the servers afresh and warms every
// target with the same number of calls (BENCH_HTTP_WARM_CALLS). Then, for each number of clients, each target's
// point is BENCH_HTTP_SLICES timed slices of BENCH_HTTP_SECONDS, and the targets take turns slice by slice (in an
// order that rotates per run): for slice 1..K, for each target, BENCH_HTTP_LEAD_CALLS untimed calls to it, then its
// slice. On a 2-core machine shared by server, load generator and upstream, one point of a few seconds is noisy;
// slices spread a slow patch of the machine over every target's point instead of landing on one.
//
// A point adds up its slices: calls/s = the calls of all slices / their seconds; the server's CPU (all threads,
// /proc/<pid>/task/*/schedstat) summed over the slices, as a share of one core and per call, and per call on
// threads other than the main one (JIT, GC helpers); p50/p99 over all the slices' latencies; RSS at the end of
// the last slice. mcp-gen's throughput is then given as the runs' paired ratios against the SDK and the floor,
// and the control's paired ratio to the floor beside it: how far an identical server strays in this same
// measurement, its own noise. Last, idle sessions: a fresh mcp-gen server with --sessions (and
// scripts/bench-http-gc.js preloaded to collect garbage on demand) gets 100 sessions as a warm-up, then
// BENCH_HTTP_SESSIONS more (initialize + notifications/initialized, left idle); RSS per session is the growth of
// RSS after a full GC over those sessions.
//
// Environment (all bounded):
//   BENCH_HTTP_SECONDS      timed seconds of one slice (default 2, at most 60)
//   BENCH_HTTP_SLICES       slices per point, taken in turns with the other targets (default 3, at most 20)
//   BENCH_HTTP_CONCURRENCY  clients per point, comma-separated (default 1,16,64,256; each at most 1,024)
//   BENCH_HTTP_RUNS         runs; figures are medians over them (default 3, at most 9)
//   BENCH_HTTP_WARM_CALLS   warm-up calls per server and mode at the start of each run, 64 clients (default 5,000)
//   BENCH_HTTP_LEAD_CALLS   calls just before each slice, at its number of clients, not timed (default 2,000)
//   BENCH_HTTP_SESSIONS     idle sessions opened (default 2,000, at most 20,000; 0 skips the step)
// Needs `npm run build`. Everything listens on 127.0.0.1; only the processes it starts are stopped, by PID.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  buildPetstore,
  cpuNs,
  decodeLatencies,
  httpLoad as load,
  root,
  rssMb,
  startHttp,
  startUpstream,
} from "./bench-parts.js";
import { CONTROL, FLOOR, FLOOR_MODERN, SDK, printReport } from "./bench-http-report.js";

/** A positive number from the environment, `fallback` when unset, capped at `max`. */
const knob = (name, fallback, max) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return Math.min(value, max);
};
const SECONDS = knob("BENCH_HTTP_SECONDS", 2, 60);
const SLICES = Math.max(1, Math.round(knob("BENCH_HTTP_SLICES", 3, 20)));
const CONCURRENCY = (process.env.BENCH_HTTP_CONCURRENCY ?? "1,16,64,256").split(",").map((n) => {
  const clients = Number(n);
  if (!Number.isInteger(clients) || clients < 1 || clients > 1024) throw new Error(`bad BENCH_HTTP_CONCURRENCY ${n}`);
  return clients;
});
const RUNS = Math.max(1, Math.round(knob("BENCH_HTTP_RUNS", 3, 9)));
// Warm-up is counted in calls, not seconds: a contender's JIT settles after a number of calls (about 4,000 at 64
// clients for each of the four; docs/benchmarks/http.md), and seconds would give the faster server, or the one
// the machine's other load spares at that moment, more of them.
const WARM_CALLS = Math.round(knob("BENCH_HTTP_WARM_CALLS", 5000, 100_000));
// And each slice follows load on its own target, not an idle wait (the other targets' turns): the generated server
// spends more per call for its first ~2,000 calls after 10 s idle (docs/benchmarks/http.md).
const LEAD_CALLS = Math.round(knob("BENCH_HTTP_LEAD_CALLS", 2000, 100_000));
/** A bound on the time of one warm-up, for a machine too busy to make its calls. */
const WARM_SECONDS = 120;
const SESSIONS = Math.round(knob("BENCH_HTTP_SESSIONS", 2000, 20000));
/** A bound on the calls of one slice, far above what this machine makes in its time. */
const MAX_CALLS = 2_000_000;

/** The servers and the protocol revision each is driven in. */
const TARGETS = [
  { name: "mcp-gen 2025-06-18", server: "mcp-gen", mode: "2025-06-18" },
  { name: "mcp-gen 2026-07-28", server: "mcp-gen", mode: "2026-07-28" },
  { name: SDK, server: "sdk", mode: "2025-06-18" },
  { name: FLOOR, server: "floor", mode: "2025-06-18" },
  { name: FLOOR_MODERN, server: "floor", mode: "2026-07-28" },
  { name: CONTROL, server: "control", mode: "2025-06-18" },
];

/** CPU time of a process's main thread so far, in nanoseconds: the rest is background threads (JIT, GC helpers). */
const mainCpuNs = (pid) => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]);

/** One timed slice: `clients` clients against `server` in `mode` for SECONDS; the sums a point adds up. */
async function measureSlice(server, mode, clients) {
  const pid = server.child.pid;
  const cpu0 = cpuNs(pid);
  const main0 = mainCpuNs(pid);
  const t0 = performance.now();
  const job = { kind: "calls", url: server.url, mode, clients, seconds: SECONDS, maxCalls: MAX_CALLS, latencies: true };
  const outcome = await load(job);
  const cpuMs = (cpuNs(pid) - cpu0) / 1e6;
  const mainCpuMs = (mainCpuNs(pid) - main0) / 1e6;
  const wallMs = performance.now() - t0;
  if (outcome.errors > 0) console.log(`  ! ${outcome.errors} errors, first: ${outcome.firstError}`);
  const { calls, errors, seconds } = outcome;
  return {
    calls,
    errors,
    seconds,
    cpuMs,
    mainCpuMs,
    wallMs,
    latencies: decodeLatencies(outcome.latencies),
    rss: rssMb(pid),
  };
}

/** The latency at quantile `q` of the ascending `sorted` (NaN when there is none). */
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** p50 and p99 (ms) over all the latencies of `slices`. */
function percentiles(slices) {
  const all = new Float32Array(slices.reduce((n, s) => n + s.latencies.length, 0));
  let at = 0;
  for (const { latencies } of slices) {
    all.set(latencies, at);
    at += latencies.length;
  }
  all.sort();
  return { p50: quantile(all, 0.5), p99: quantile(all, 0.99) };
}

/** A point's figures from its slices: calls/s and CPU from their sums, latency over all of them, the last RSS. */
function pointOf(slices) {
  const sum = (field) => slices.reduce((total, s) => total + s[field], 0);
  const calls = sum("calls");
  const cpuMs = sum("cpuMs");
  return {
    rate: (calls - sum("errors")) / sum("seconds"),
    ...percentiles(slices),
    cpuShare: cpuMs / sum("wallMs"),
    cpuPerCall: cpuMs / Math.max(1, calls),
    backgroundPerCall: (cpuMs - sum("mainCpuMs")) / Math.max(1, calls),
    rss: slices.at(-1).rss,
    errors: sum("errors"),
  };
}

/** Prints one slice's or point's figures, after `label` and `stage` (the slice, or the point). */
const printFigures = (label, stage, name, p) =>
  console.log(
    `${label} · ${stage.padEnd(11)} · ${name.padEnd(24)} ${p.rate.toFixed(0).padStart(6)} calls/s  p50 ${p.p50.toFixed(1)} ms  p99 ${p.p99.toFixed(1)} ms  CPU ${(100 * p.cpuShare).toFixed(0)} %  ${(1000 * p.cpuPerCall).toFixed(0)} µs/call (bg ${(1000 * p.backgroundPerCall).toFixed(0)})  RSS ${p.rss.toFixed(0)} MB`,
  );

/** `calls` untimed calls to `target` with `clients` clients (bounded by WARM_SECONDS). */
const lead = (server, target, clients, calls) =>
  load({ kind: "calls", url: server.url, mode: target.mode, clients, seconds: WARM_SECONDS, maxCalls: calls });

/** The same warm-up for every target: WARM_CALLS calls at 64 clients, so that its timed slices find the JIT settled. */
async function warm(server, target, run) {
  const cpu0 = cpuNs(server.child.pid);
  const outcome = await lead(server, target, 64, WARM_CALLS);
  const perCall = (cpuNs(server.child.pid) - cpu0) / 1e3 / Math.max(1, outcome.calls);
  console.log(
    `run ${run + 1} · warm-up · ${target.name.padEnd(24)} ${outcome.calls} calls in ${outcome.seconds.toFixed(1)} s, ${perCall.toFixed(0)} µs/call`,
  );
  if (outcome.calls < WARM_CALLS) console.log(`  ! fewer than ${WARM_CALLS} warm-up calls in ${WARM_SECONDS} s`);
}

/**
 * The points of every target at `clients` in run `run`: SLICES rounds, each target in `order` taking its lead
 * calls and one timed slice per round. Returns the points by target name.
 */
async function measurePoints(servers, order, clients, run) {
  const slices = new Map(order.map((t) => [t.name, []]));
  const label = `run ${run + 1} · ${String(clients).padStart(3)} clients`;
  for (let k = 1; k <= SLICES; k++)
    for (const t of order) {
      if (LEAD_CALLS > 0) await lead(servers[t.server], t, clients, LEAD_CALLS);
      const slice = await measureSlice(servers[t.server], t.mode, clients);
      slices.get(t.name).push(slice);
      printFigures(label, `slice ${k}/${SLICES}`, t.name, pointOf([slice]));
    }
  const points = new Map(order.map((t) => [t.name, pointOf(slices.get(t.name))]));
  for (const t of order) printFigures(label, "point", t.name, points.get(t.name));
  return points;
}

/** Starts one server process per kind afresh: mcp-gen, the SDK baseline, the floor and the control (a second floor). */
async function startServers(index, baselines, baseUrl) {
  return {
    "mcp-gen": await startHttp([index, "--http", "--port", "0", "--base-url", baseUrl], "mcp-gen"),
    sdk: await startHttp([baselines, "sdk", baseUrl], "sdk"),
    floor: await startHttp([baselines, "floor", baseUrl], "floor"),
    control: await startHttp([baselines, "floor", baseUrl], CONTROL),
  };
}

/** Stops the servers this bench started (by PID) and waits until each has exited. */
async function stopServers(servers) {
  for (const server of Object.values(servers)) server.stop();
  await Promise.all(
    Object.values(servers).map((s) => new Promise((r) => (s.child.exitCode !== null ? r() : s.child.once("exit", r)))),
  );
}

/** One run: fresh servers, the warm-up, then every number of clients; adds its points to `results`. */
async function measureRun(run, start, results) {
  const servers = await start();
  const order = [...TARGETS];
  for (let i = 0; i < run % order.length; i++) order.push(order.shift());
  if (WARM_CALLS > 0) for (const t of order) await warm(servers[t.server], t, run);
  for (const clients of CONCURRENCY) {
    const points = await measurePoints(servers, order, clients, run);
    for (const [name, p] of points) ((results[name] ??= {})[clients] ??= []).push(p);
  }
  await stopServers(servers);
}

/** Idle sessions: a fresh mcp-gen server with --sessions; the RSS and heap growth per idle session after a GC. */
async function measureSessions(index, baseUrl) {
  const gc = join(root, "scripts/bench-http-gc.js");
  const server = await startHttp(
    ["--expose-gc", "--import", `file://${gc}`, index, "--http", "--port", "0", "--sessions", "--base-url", baseUrl],
    "mcp-gen --sessions",
  );
  const open = (sessions) => load({ kind: "sessions", url: server.url, sessions, clients: 16 });
  const warmUp = await open(100);
  const before = await server.memoryAfterGc();
  const opened = await open(SESSIONS);
  const after = await server.memoryAfterGc();
  const perSession = (field) => ((after[field] - before[field]) / Math.max(1, opened.opened) / 1024).toFixed(1);
  console.log(
    `\nidle sessions (2025-06-18, --sessions): ${warmUp.opened} warm-up, then ${opened.opened} opened in ${opened.seconds.toFixed(1)} s (${opened.errors} errors${opened.firstError ? `, first: ${opened.firstError}` : ""})`,
  );
  console.log(
    `  after a full GC: RSS ${(before.rss / 2 ** 20).toFixed(1)} → ${(after.rss / 2 ** 20).toFixed(1)} MB, ${perSession("rss")} KB per session; JS heap used ${(before.heapUsed / 2 ** 20).toFixed(1)} → ${(after.heapUsed / 2 ** 20).toFixed(1)} MB, ${perSession("heapUsed")} KB per session`,
  );
  console.log(`  target ≤ 50 KB of RSS per idle session: ${Number(perSession("rss")) <= 50 ? "met" : "NOT met"}`);
  server.stop();
}

const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
console.log(`load average at start (1/5/15 min): ${loadAverage()}`);
const { upstream, baseUrl } = await startUpstream();
const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-http-"));
const dir = await buildPetstore(root, work, "petstore", ["sessions"]);
const index = join(dir, "dist/index.js");
const baselines = join(root, "scripts/bench-http-baselines.js");

const results = {}; // results[target][clients] = [point per run]
for (let run = 0; run < RUNS; run++) await measureRun(run, () => startServers(index, baselines, baseUrl), results);
printReport(
  results,
  TARGETS.map((t) => t.name),
  CONCURRENCY,
  `medians of ${RUNS} run(s), ${SLICES} slice(s) of ${SECONDS} s per point; load average now (1/5/15 min): ${loadAverage()}`,
);
if (SESSIONS > 0) await measureSessions(index, baseUrl);
console.log(`load average at the end (1/5/15 min): ${loadAverage()}`);
upstream.close();
rmSync(work, { recursive: true, force: true });
process.exit(0);
