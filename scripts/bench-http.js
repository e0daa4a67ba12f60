#!/usr/bin/env node
// npm run bench:http (not a test): many clients at once over Streamable HTTP. The petstore example, generated
// afresh from specs/petstore.yaml (with feature `sessions`) into a temporary folder and built as a user builds it,
// serves getPet against a local upstream (a node:http server on 127.0.0.1 answering one pet). In the same run,
// two baselines (scripts/bench-http-baselines.js): the same tool by hand on the official SDK 1.x's stateless
// Streamable HTTP server, and a floor, a bare node:http handler making the same upstream call with got.
//
// Each run starts the servers afresh and warms every target with the same number of calls (BENCH_HTTP_WARM_CALLS).
// Then, for each number of clients, every server takes its turn (the order rotates per run; each point right
// after BENCH_HTTP_LEAD_CALLS untimed calls to the same target) under a load
// generator in a process of its own (scripts/bench-http-load.js: raw JSON-RPC over node:http, keep-alive, one
// socket per client, closed loops): mcp-gen in revision 2025-06-18 (stateless, no initialize: each request
// carries MCP-Protocol-Version) and 2026-07-28 (SEP-2243 headers, `_meta`), the SDK and the floor in 2025-06-18.
// Each point reports calls/s, p50/p99 latency, the server's CPU (all threads, /proc/<pid>/task/*/schedstat, as a
// share of one core and per call, and per call on threads other than the main one: JIT, GC helpers) and its RSS at the end of the point; mcp-gen's throughput is then given as the
// median of the runs' paired ratios against the SDK and the floor. Last, idle sessions: a fresh mcp-gen server
// with --sessions (and scripts/bench-http-gc.js preloaded to collect garbage on demand) gets 100 sessions as a
// warm-up, then BENCH_HTTP_SESSIONS more (initialize + notifications/initialized, left idle); RSS per session is
// the growth of RSS after a full GC over those sessions.
//
// Environment (all bounded):
//   BENCH_HTTP_SECONDS      seconds of load per point (default 3, at most 60)
//   BENCH_HTTP_CONCURRENCY  clients per point, comma-separated (default 1,16,64,256; each at most 1,024)
//   BENCH_HTTP_RUNS         runs; figures are medians over them (default 3, at most 9)
//   BENCH_HTTP_WARM_CALLS   warm-up calls per server and mode at the start of each run, 64 clients (default 5,000)
//   BENCH_HTTP_LEAD_CALLS   calls just before each point, at its number of clients, not timed (default 2,000)
//   BENCH_HTTP_SESSIONS     idle sessions opened (default 2,000, at most 20,000; 0 skips the step)
// Needs `npm run build`. Everything listens on 127.0.0.1; only the processes it starts are stopped, by PID.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  buildPetstore,
  cpuNs,
  httpLoad as load,
  median,
  root,
  rssMb,
  startHttp,
  startUpstream,
} from "./bench-parts.js";

/** A positive number from the environment, `fallback` when unset, capped at `max`. */
const knob = (name, fallback, max) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return Math.min(value, max);
};
const SECONDS = knob("BENCH_HTTP_SECONDS", 3, 60);
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
// And each point follows load on its own target, not an idle wait whose length depends on the order: the
// generated server spends more per call for its first ~2,000 calls after 10 s idle (docs/benchmarks/http.md).
const LEAD_CALLS = Math.round(knob("BENCH_HTTP_LEAD_CALLS", 2000, 100_000));
/** A bound on the time of one warm-up, for a machine too busy to make its calls. */
const WARM_SECONDS = 120;
const SESSIONS = Math.round(knob("BENCH_HTTP_SESSIONS", 2000, 20000));
/** A bound on the calls of one point, far above what this machine makes in its time. */
const MAX_CALLS = 2_000_000;

/** CPU time of a process's main thread so far, in nanoseconds: the rest is background threads (JIT, GC helpers). */
const mainCpuNs = (pid) => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]);

/** One measured point: `clients` clients against `server` in `mode` for SECONDS; calls/s, latency, CPU, RSS. */
async function point(server, mode, clients) {
  const pid = server.child.pid;
  const cpu0 = cpuNs(pid);
  const main0 = mainCpuNs(pid);
  const t0 = performance.now();
  const outcome = await load({ kind: "calls", url: server.url, mode, clients, seconds: SECONDS, maxCalls: MAX_CALLS });
  const cpu = cpuNs(pid) - cpu0;
  const mainCpu = mainCpuNs(pid) - main0;
  const wall = performance.now() - t0;
  if (outcome.errors > 0) console.log(`  ! ${outcome.errors} errors, first: ${outcome.firstError}`);
  return {
    rate: (outcome.calls - outcome.errors) / outcome.seconds,
    p50: outcome.p50,
    p99: outcome.p99,
    cpuShare: cpu / 1e6 / wall,
    cpuPerCall: cpu / 1e6 / Math.max(1, outcome.calls),
    backgroundPerCall: (cpu - mainCpu) / 1e6 / Math.max(1, outcome.calls),
    rss: rssMb(pid),
    errors: outcome.errors,
  };
}

/** The same warm-up for every target: WARM_CALLS calls at 64 clients, so that its timed points find the JIT settled. */
async function warm(server, target, run) {
  const cpu0 = cpuNs(server.child.pid);
  const outcome = await lead(server, target, 64, WARM_CALLS);
  const perCall = (cpuNs(server.child.pid) - cpu0) / 1e3 / Math.max(1, outcome.calls);
  console.log(
    `run ${run + 1} · warm-up · ${target.name.padEnd(24)} ${outcome.calls} calls in ${outcome.seconds.toFixed(1)} s, ${perCall.toFixed(0)} µs/call`,
  );
  if (outcome.calls < WARM_CALLS) console.log(`  ! fewer than ${WARM_CALLS} warm-up calls in ${WARM_SECONDS} s`);
}

/** `calls` untimed calls to `target` with `clients` clients (bounded by WARM_SECONDS). */
const lead = (server, target, clients, calls) =>
  load({ kind: "calls", url: server.url, mode: target.mode, clients, seconds: WARM_SECONDS, maxCalls: calls });

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

const SDK = "SDK 1.x stateless";
const FLOOR = "floor (node:http + got)";
/** The servers and the protocol revision each is driven in. */
const TARGETS = [
  { name: "mcp-gen 2025-06-18", server: "mcp-gen", mode: "2025-06-18" },
  { name: "mcp-gen 2026-07-28", server: "mcp-gen", mode: "2026-07-28" },
  { name: SDK, server: "sdk", mode: "2025-06-18" },
  { name: FLOOR, server: "floor", mode: "2025-06-18" },
];
const results = {}; // results[target][clients] = [point per run]
for (let run = 0; run < RUNS; run++) {
  const servers = {
    "mcp-gen": await startHttp([index, "--http", "--port", "0", "--base-url", baseUrl], "mcp-gen"),
    sdk: await startHttp([baselines, "sdk", baseUrl], "sdk"),
    floor: await startHttp([baselines, "floor", baseUrl], "floor"),
  };
  const order = [...TARGETS];
  for (let i = 0; i < run % order.length; i++) order.push(order.shift());
  if (WARM_CALLS > 0) for (const t of order) await warm(servers[t.server], t, run);
  for (const clients of CONCURRENCY) {
    for (const t of order) {
      if (LEAD_CALLS > 0) await lead(servers[t.server], t, clients, LEAD_CALLS);
      const p = await point(servers[t.server], t.mode, clients);
      ((results[t.name] ??= {})[clients] ??= []).push(p);
      console.log(
        `run ${run + 1} · ${String(clients).padStart(3)} clients · ${t.name.padEnd(24)} ${p.rate.toFixed(0).padStart(6)} calls/s  p50 ${p.p50.toFixed(1)} ms  p99 ${p.p99.toFixed(1)} ms  CPU ${(100 * p.cpuShare).toFixed(0)} %  ${(1000 * p.cpuPerCall).toFixed(0)} µs/call (bg ${(1000 * p.backgroundPerCall).toFixed(0)})  RSS ${p.rss.toFixed(0)} MB`,
      );
    }
  }
  for (const server of Object.values(servers)) server.stop();
  await Promise.all(
    Object.values(servers).map((s) => new Promise((r) => (s.child.exitCode !== null ? r() : s.child.once("exit", r)))),
  );
}

/** Median of one figure of a target's points at `clients`. */
const med = (target, clients, figure) => median(results[target][clients].map((p) => p[figure]));
/** The runs' paired ratios of `figure` of target `a` to target `b` at `clients`. */
const ratios = (a, b, clients, figure) => results[a][clients].map((p, i) => p[figure] / results[b][clients][i][figure]);
/** "median× (run 1 / run 2 / …)" of those ratios. */
const ratioText = (a, b, clients, figure) => {
  const each = ratios(a, b, clients, figure);
  return `${median(each).toFixed(2)}× (${each.map((r) => r.toFixed(2)).join(" / ")})`;
};

console.log(`\nmedians of ${RUNS} run(s), ${SECONDS} s per point; load average now (1/5/15 min): ${loadAverage()}`);
console.log("clients | server | calls/s | p50 ms | p99 ms | server CPU (% of a core) | CPU ms/call | RSS MB");
for (const clients of CONCURRENCY)
  for (const { name } of TARGETS)
    console.log(
      `${clients} | ${name} | ${med(name, clients, "rate").toFixed(0)} | ${med(name, clients, "p50").toFixed(1)} | ${med(name, clients, "p99").toFixed(1)} | ${(100 * med(name, clients, "cpuShare")).toFixed(0)} | ${med(name, clients, "cpuPerCall").toFixed(3)} | ${med(name, clients, "rss").toFixed(0)}`,
    );
// Throughput is what the targets are written in; CPU per call is the figure other load on the machine moves least.
console.log("\nmcp-gen against the baselines, median of the runs' paired ratios (per run in brackets):");
for (const clients of CONCURRENCY)
  for (const mode of ["2025-06-18", "2026-07-28"]) {
    const name = `mcp-gen ${mode}`;
    console.log(
      `${String(clients).padStart(3)} clients · ${mode}: calls/s ${ratioText(name, SDK, clients, "rate")} the SDK's, ${ratioText(name, FLOOR, clients, "rate")} the floor's; CPU per call ${ratioText(name, SDK, clients, "cpuPerCall")} the SDK's, ${ratioText(name, FLOOR, clients, "cpuPerCall")} the floor's`,
    );
  }

// The issue's targets at 64 and 256 clients: ahead of the SDK and at least 0.75× the floor's calls/s, in every run.
const judged = CONCURRENCY.filter((clients) => clients === 64 || clients === 256);
if (judged.length > 0) console.log("\ntargets (every run: ahead of the SDK's calls/s, at least 0.75× the floor's):");
for (const clients of judged)
  for (const mode of ["2025-06-18", "2026-07-28"]) {
    const name = `mcp-gen ${mode}`;
    const sdk = ratios(name, SDK, clients, "rate");
    const floor = ratios(name, FLOOR, clients, "rate");
    const verdict = (each, bound) =>
      `${each.every((r) => r > bound) ? "met" : "NOT met"} (lowest ${Math.min(...each).toFixed(2)}×)`;
    console.log(
      `${String(clients).padStart(3)} clients · ${mode}: against the SDK ${verdict(sdk, 1)}; against the floor ${verdict(floor, 0.75 - 1e-9)}`,
    );
  }

if (SESSIONS > 0) {
  const gc = join(root, "scripts/bench-http-gc.js");
  const server = await startHttp(
    ["--expose-gc", "--import", `file://${gc}`, index, "--http", "--port", "0", "--sessions", "--base-url", baseUrl],
    "mcp-gen --sessions",
  );
  const open = (sessions) => load({ kind: "sessions", url: server.url, sessions, clients: 16 });
  const warm = await open(100);
  const before = await server.memoryAfterGc();
  const opened = await open(SESSIONS);
  const after = await server.memoryAfterGc();
  const perSession = (field) => ((after[field] - before[field]) / Math.max(1, opened.opened) / 1024).toFixed(1);
  console.log(
    `\nidle sessions (2025-06-18, --sessions): ${warm.opened} warm-up, then ${opened.opened} opened in ${opened.seconds.toFixed(1)} s (${opened.errors} errors${opened.firstError ? `, first: ${opened.firstError}` : ""})`,
  );
  console.log(
    `  after a full GC: RSS ${(before.rss / 2 ** 20).toFixed(1)} → ${(after.rss / 2 ** 20).toFixed(1)} MB, ${perSession("rss")} KB per session; JS heap used ${(before.heapUsed / 2 ** 20).toFixed(1)} → ${(after.heapUsed / 2 ** 20).toFixed(1)} MB, ${perSession("heapUsed")} KB per session`,
  );
  console.log(`  target ≤ 50 KB of RSS per idle session: ${Number(perSession("rss")) <= 50 ? "met" : "NOT met"}`);
  server.stop();
}
console.log(`load average at the end (1/5/15 min): ${loadAverage()}`);
upstream.close();
rmSync(work, { recursive: true, force: true });
process.exit(0);
