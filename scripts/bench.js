#!/usr/bin/env node
// npm run bench: per-call overhead, cold start, idle memory and tools/list time of a generated
// server (the petstore example as generated with defaults, over stdio) against baselines measured
// in the same run: a direct HTTP call to the same local upstream, and two "floor" MCP stdio servers
// that read a line, make one call and write a line (no validation): through got, as the runtime
// calls (the per-call reference), and through fetch (the start-up and memory reference). Not a test:
// it prints figures and ratios. Needs `npm run build`.
// BENCH_BASELINE=<folder of another mcp-gen checkout> adds that checkout's generated/petstore (say,
// main before a change) to the same run, alternating with the others, so before/after compare under
// the same load.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  INITIALIZE,
  buildPetstore,
  cpuNs,
  getPet,
  median,
  root,
  rssMb,
  startPeer,
  startUpstream,
  writeFloor,
} from "./bench-parts.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const REPS = Number(process.env.BENCH_REPS ?? 5);
/** Calls a server makes in one turn before the next server's turn. */
const BLOCK = Number(process.env.BENCH_BLOCK ?? 10);
// 25 starts: with 7, one run of the day measured the fetch floor at 100 ms against 140–150 ms in others (ratio 1.64×
// against 1.18–1.23× with 25).
const STARTS = Number(process.env.BENCH_STARTS ?? 25);
// A fresh server's first calls run while V8 is still compiling the hot path (and the more code a
// server runs per call, the more it compiles then): the first window measures calls 51–550 of a fresh
// process, the warm window the same number of calls after BENCH_WARM (default 2,000) more, when the
// call path is compiled. Instruction counts under valgrind (docs/benchmarks/index.md) show the split.
const WARM = Number(process.env.BENCH_WARM ?? 2000);

const ms = (n) => `${n.toFixed(3)} ms`;

const { upstream, baseUrl } = await startUpstream();

// The generated server (and the baseline's), built once.
const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-"));
const dir = await buildPetstore(root, work, "petstore");
const baselineDir = process.env.BENCH_BASELINE
  ? await buildPetstore(process.env.BENCH_BASELINE, work, "baseline")
  : undefined;

// The fetch floor (start-up and memory reference) and the got floor (per-call reference);
// BENCH_FLOORS=got,http adds node:http itself, to show what the HTTP client alone costs; BENCH_FLOORS=mcp the
// MCP floor (bench-parts.js), to show what a compliant server cannot leave out, and parts,upstream the steps
// from it towards the generated server (the runtime's request building and result mapping, its upstream module).
const floor = writeFloor(work, "fetch");
const extraFloors = [...new Set(["got", ...(process.env.BENCH_FLOORS ?? "").split(",").filter(Boolean)])];
const floorFiles = Object.fromEntries(extraFloors.map((name) => [name, writeFloor(work, name, dir)]));

const servers = {
  floor: () => startPeer([floor, baseUrl]),
  "mcp-gen": () => startPeer([join(dir, "dist/index.js"), "--base-url", baseUrl]),
  ...(baselineDir ? { baseline: () => startPeer([join(baselineDir, "dist/index.js"), "--base-url", baseUrl]) } : {}),
  ...Object.fromEntries(extraFloors.map((name) => [`floor-${name}`, () => startPeer([floorFiles[name], baseUrl])])),
};

/** The time of one awaited call, in milliseconds. */
async function timed(call) {
  const t = performance.now();
  await call();
  return performance.now() - t;
}

const results = {};
const directMedians = [];
const direct = () => fetch(`${baseUrl}/pets/1`).then((r) => r.text());
const warmDirectMedians = [];
/**
 * One measured window: CALLS calls per server in blocks of BLOCK, taking turns with the direct call.
 * Medians of latency per server and of the direct call, and each server's CPU per call in ms.
 */
async function measureWindow(peers) {
  const directTimes = [];
  const times = Object.fromEntries(peers.map(([name]) => [name, []]));
  const cpu = Object.fromEntries(peers.map(([name]) => [name, 0]));
  for (let done = 0; done < CALLS; done += BLOCK) {
    for (let i = 0; i < BLOCK; i++) directTimes.push(await timed(direct));
    for (const [name, peer] of peers) {
      // The server's own CPU time per measured call: unlike latency, barely moved by other load on the machine.
      const before = cpuNs(peer.child.pid);
      for (let i = 0; i < BLOCK; i++) times[name].push(await timed(() => getPet(peer)));
      cpu[name] += cpuNs(peer.child.pid) - before;
    }
  }
  return {
    direct: median(directTimes),
    call: Object.fromEntries(peers.map(([name]) => [name, median(times[name])])),
    cpu: Object.fromEntries(peers.map(([name]) => [name, cpu[name] / times[name].length / 1e6])),
  };
}
for (let rep = 0; rep < REPS; rep++) {
  // All servers run side by side and take turns in blocks of BLOCK calls (the direct call too), so a
  // slow patch of the machine hits each of them alike instead of spoiling one server's figures.
  const order = Object.entries(servers);
  for (let i = 0; i < rep % order.length; i++) order.push(order.shift());
  const peers = order.map(([name, make]) => [name, make()]);
  for (const [, peer] of peers) await peer.request("initialize", INITIALIZE);
  await new Promise((r) => setTimeout(r, 300));
  for (const [name, peer] of peers) {
    (results[name] ??= { call: [], cpu: [], start: [], rss: [], busyRss: [] }).rss.push(rssMb(peer.child.pid)); // idle: started, no call yet
  }
  for (let i = 0; i < 50; i++) {
    await direct();
    for (const [, peer] of peers) await getPet(peer); // warm-up
  }
  const first = await measureWindow(peers);
  directMedians.push(first.direct);
  if (WARM > 0) {
    for (let i = 0; i < WARM; i += BLOCK)
      for (const [, peer] of peers) for (let j = 0; j < BLOCK; j++) await getPet(peer);
    const warm = await measureWindow(peers);
    warmDirectMedians.push(warm.direct);
    for (const [name] of peers) {
      (results[name].warmCall ??= []).push(warm.call[name]);
      (results[name].warmCpu ??= []).push(warm.cpu[name]);
    }
  }
  await new Promise((r) => setTimeout(r, 300));
  for (const [name, peer] of peers) {
    results[name].call.push(first.call[name]);
    results[name].cpu.push(first.cpu[name]);
    results[name].busyRss.push(rssMb(peer.child.pid));
    peer.stop();
  }
}
// Starts alternate between the servers too.
for (let i = 0; i < STARTS; i++) {
  for (const [name, make] of Object.entries(servers)) {
    const peer = make();
    await peer.request("initialize", INITIALIZE);
    results[name].start.push(performance.now() - peer.t0);
    peer.stop();
    await new Promise((resolve) => peer.child.once("exit", resolve));
  }
}

// tools/list of a server with 1,200 tools, in process.
const { McpServer } = await import(join(root, "dist/runtime/src/server/server.js"));
const many = Array.from({ length: 1200 }, (_, i) => ({
  name: `tool_${i}`,
  description: `Operation number ${i} of a large API.`,
  inputSchema: { type: "object", properties: { id: { type: "integer" }, q: { type: "string" } }, required: ["id"] },
  annotations: { readOnlyHint: true },
  http: {
    method: "get",
    path: `/things/${i}/{id}`,
    parameters: [{ argument: "id", name: "id", in: "path", style: "simple", explode: false, required: true }],
    response: { accept: ["application/json"] },
  },
}));
const big = new McpServer({ info: { name: "big", version: "1.0.0" }, tools: many, upstream: { baseUrl } });
const listAll = async () => {
  let cursor;
  let count = 0;
  do {
    const res = await big.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: cursor ? { cursor } : {} });
    count += res.result.tools.length;
    cursor = res.result.nextCursor;
  } while (cursor);
  return count;
};
for (let i = 0; i < 20; i++) await listAll();
const listTimes = [];
for (let i = 0; i < 100; i++) {
  const t = performance.now();
  await listAll();
  listTimes.push(performance.now() - t);
}

const directCall = median(directMedians);
const summary = (r) => ({
  call: median(r.call) - directCall,
  cpu: median(r.cpu),
  warmCall: r.warmCall ? median(r.warmCall) - median(warmDirectMedians) : NaN,
  warmCpu: r.warmCpu ? median(r.warmCpu) : NaN,
  start: median(r.start),
  rss: median(r.rss),
  busyRss: median(r.busyRss),
});
const f = summary(results.floor);
const g = summary(results["mcp-gen"]);
console.log(`direct HTTP call (median of ${CALLS} × ${REPS}):  ${ms(directCall)}`);
const gotFloor = summary(results["floor-got"]);
// Each rep measures every server in the same minutes: the ratio of a rep is a paired comparison, and
// the headline is the median of those ratios.
/** Per rep: server `a`'s overhead over the direct call against server `b`'s (`call` and `direct` of one window). */
const pairedRatiosOf = (a, b, call, direct) =>
  results[a][call].map((m, i) => (m - direct[i]) / (results[b][call][i] - direct[i]));
/** Per rep: mcp-gen's overhead against the got floor's. */
const overheadRatiosOf = (call, direct) => pairedRatiosOf("mcp-gen", "floor-got", call, direct);
/** Per rep: mcp-gen's CPU per call against the got floor's. */
const cpuRatiosOf = (cpu) => results["mcp-gen"][cpu].map((c, i) => c / results["floor-got"][cpu][i]);
const overheadRatios = overheadRatiosOf("call", directMedians);
const cpuRatios = cpuRatiosOf("cpu");
console.log(
  `first window (calls 51–${CALLS + 50} of a fresh server): per-call overhead over direct   fetch floor ${ms(f.call)}   got floor ${ms(gotFloor.call)}   mcp-gen ${ms(g.call)}`,
);
console.log(
  `per-call overhead ratio to the got floor ${median(overheadRatios).toFixed(2)} (median of ${REPS} reps; target ≤ 1.2); per rep ${overheadRatios.map((r) => r.toFixed(2)).join(" / ")}; to the fetch floor ${(g.call / f.call).toFixed(2)}`,
);
console.log(
  `server CPU per call (all threads) fetch floor ${ms(f.cpu)}   got floor ${ms(gotFloor.cpu)}   mcp-gen ${ms(g.cpu)}   ratio to the got floor ${median(cpuRatios).toFixed(2)}; per rep ${cpuRatios.map((r) => r.toFixed(2)).join(" / ")}`,
);
if (WARM > 0) {
  const warmRatios = overheadRatiosOf("warmCall", warmDirectMedians);
  const warmCpuRatios = cpuRatiosOf("warmCpu");
  console.log(
    `warm window (calls ${CALLS + 50 + WARM + 1}–${2 * CALLS + 50 + WARM}; direct ${ms(median(warmDirectMedians))}): per-call overhead fetch floor ${ms(f.warmCall)}   got floor ${ms(gotFloor.warmCall)}   mcp-gen ${ms(g.warmCall)}`,
  );
  console.log(
    `  ratio to the got floor ${median(warmRatios).toFixed(2)} (median of ${REPS} reps; target ≤ 1.2); per rep ${warmRatios.map((r) => r.toFixed(2)).join(" / ")}`,
  );
  console.log(
    `  server CPU per call fetch floor ${ms(f.warmCpu)}   got floor ${ms(gotFloor.warmCpu)}   mcp-gen ${ms(g.warmCpu)}   ratio to the got floor ${median(warmCpuRatios).toFixed(2)}; per rep ${warmCpuRatios.map((r) => r.toFixed(2)).join(" / ")}`,
  );
}
console.log(
  `cold start (spawn → initialize) fetch floor ${ms(f.start)}   mcp-gen ${ms(g.start)}   ratio ${(g.start / f.start).toFixed(2)} (target ≤ 1.5)`,
);
console.log(
  `idle RSS (started, no call)     fetch floor ${f.rss.toFixed(1)} MB   mcp-gen ${g.rss.toFixed(1)} MB   +${(g.rss - f.rss).toFixed(1)} MB (target ≤ +15)`,
);
console.log(
  `RSS after ${(WARM > 0 ? 2 * CALLS + WARM : CALLS) + 50} calls           floor ${f.busyRss.toFixed(1)} MB   mcp-gen ${g.busyRss.toFixed(1)} MB   +${(g.busyRss - f.busyRss).toFixed(1)} MB`,
);
if (baselineDir) {
  const b = summary(results.baseline);
  console.log(`baseline (${process.env.BENCH_BASELINE}):`);
  console.log(
    `  per-call overhead over direct  ${ms(b.call)}   ratio to floor ${(b.call / f.call).toFixed(2)}   mcp-gen / baseline ${(g.call / b.call).toFixed(2)}`,
  );
  console.log(
    `  server CPU per call            ${ms(b.cpu)}   ratio to floor ${(b.cpu / f.cpu).toFixed(2)}   mcp-gen / baseline ${(g.cpu / b.cpu).toFixed(2)}`,
  );
  if (WARM > 0)
    console.log(
      `  warm window: overhead ${ms(b.warmCall)}   mcp-gen / baseline ${(g.warmCall / b.warmCall).toFixed(2)}; server CPU ${ms(b.warmCpu)}   mcp-gen / baseline ${(g.warmCpu / b.warmCpu).toFixed(2)}`,
    );
  console.log(
    `  CPU ratio to floor per rep     mcp-gen ${results["mcp-gen"].cpu.map((c, i) => (c / results.floor.cpu[i]).toFixed(2)).join(" / ")}   baseline ${results.baseline.cpu.map((c, i) => (c / results.floor.cpu[i]).toFixed(2)).join(" / ")}`,
  );
  console.log(`  cold start                     ${ms(b.start)}   ratio to floor ${(b.start / f.start).toFixed(2)}`);
  console.log(
    `  idle RSS                       ${b.rss.toFixed(1)} MB   +${(b.rss - f.rss).toFixed(1)} MB over the floor`,
  );
}
/** Medians of the per-rep overhead ratios of server `a` to server `b`, first and warm window. */
const pairedRatios = (a, b) =>
  [
    ["call", directMedians],
    ["warmCall", warmDirectMedians],
  ].map(([call, direct]) => median(pairedRatiosOf(a, b, call, direct)).toFixed(2));
for (const name of extraFloors) {
  const x = summary(results[`floor-${name}`]);
  console.log(
    `floor through ${name.padEnd(4)}: per-call overhead ${ms(x.call)} (ratio to the fetch floor ${(x.call / f.call).toFixed(2)}; mcp-gen / this floor ${(g.call / x.call).toFixed(2)}), server CPU ${ms(x.cpu)} (${(x.cpu / f.cpu).toFixed(2)}× the fetch floor's; mcp-gen / this floor ${(g.cpu / x.cpu).toFixed(2)})`,
  );
  if (name === "got" || WARM === 0) continue;
  const [first, warm] = pairedRatios(`floor-${name}`, "floor-got");
  const [ownFirst, ownWarm] = pairedRatios("mcp-gen", `floor-${name}`);
  console.log(
    `  its overhead against the got floor's, first / warm window (median of the reps' ratios): ${first} / ${warm}; mcp-gen's against it: ${ownFirst} / ${ownWarm}`,
  );
}
console.log(
  `tools/list, 1,200 tools, all ${Math.ceil(1200 / 100)} pages (in process, median of 100): ${ms(median(listTimes))} (target ≤ 10 ms)`,
);
upstream.close();
process.exit(0);
