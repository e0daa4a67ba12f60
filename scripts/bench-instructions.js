#!/usr/bin/env node
// npm run bench:instructions: the instructions a generated server executes per tools/call against
// the got floor's, counted by valgrind (callgrind), all threads, and how many of them are V8's JIT
// compiler and GC. Not a time: cache misses and system calls are not in them. Per call = (count after
// N2 calls − count after N1 calls) / (N2 − N1), one process per count, after 300 warm-up calls (V8
// still compiling the hot path, as in npm run bench's first window). Runs on one machine agree within
// ±3 % (docs/benchmarks/index.md); later windows (BENCH_INSTR_WARM="300,2500") do not: under valgrind,
// when V8 compiles and collects depends on time, and the counts after 2,500 calls moved by half.
// BENCH_BASELINE=<folder of another mcp-gen checkout> adds its petstore. Needs `npm run build` and
// valgrind (installed with apt-get when missing and root).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INITIALIZE, buildPetstore, getPet, root, startPeer, startUpstream, writeFloor } from "./bench-parts.js";

const N1 = 100;
const N2 = 600;
const WINDOWS = (process.env.BENCH_INSTR_WARM ?? "300").split(",").map(Number);

if (spawnSync("valgrind", ["--version"]).status !== 0) {
  if (process.getuid?.() !== 0) throw new Error("valgrind is missing (Debian: apt-get install -y valgrind)");
  process.stderr.write("installing valgrind (apt-get) …\n");
  execFileSync("apt-get", ["install", "-y", "-q", "valgrind"], { stdio: "ignore" });
}

const { upstream, baseUrl } = await startUpstream();
const work = mkdtempSync(join(tmpdir(), "mcp-gen-instr-"));
const servers = {
  "got floor": [writeFloor(work, "got"), baseUrl],
  "mcp-gen": [join(await buildPetstore(root, work, "petstore"), "dist/index.js"), "--base-url", baseUrl],
};
if (process.env.BENCH_BASELINE)
  servers.baseline = [
    join(await buildPetstore(process.env.BENCH_BASELINE, work, "baseline"), "dist/index.js"),
    "--base-url",
    baseUrl,
  ];

/** Instructions of one process that answers `warm` + `calls` getPet calls, split into JIT compiling, GC and the rest. */
async function count(args, warm, calls, out) {
  const peer = startPeer(["--tool=callgrind", `--callgrind-out-file=${out}`, process.execPath, ...args], "valgrind");
  await peer.request("initialize", INITIALIZE);
  for (let i = 0; i < warm + calls; i++) await getPet(peer);
  peer.child.stdin.end();
  await new Promise((resolve) => peer.child.once("exit", resolve));
  const split = { total: 0, compile: 0, gc: 0 };
  const annotated = execFileSync("callgrind_annotate", ["--inclusive=no", "--threshold=100", out], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  for (const line of annotated.split("\n")) {
    const m = /^\s*([\d,]+) \([^)]*\)\s+(.*)$/.exec(line);
    if (!m) continue;
    const n = Number(m[1].replaceAll(",", ""));
    if (m[2].includes("PROGRAM TOTALS")) split.total = n;
    else if (/compiler::|Compil|maglev/i.test(m[2])) split.compile += n;
    else if (/Scaveng|Marking|Sweep|heap::|MarkCompact/.test(m[2])) split.gc += n;
  }
  return split;
}

const results = {};
// Two counts at a time (one per core): a count does not depend on the load.
const jobs = [];
for (const warm of WINDOWS)
  for (const [name, args] of Object.entries(servers))
    for (const calls of [N1, N2]) jobs.push({ name, args, warm, calls });
let next = 0;
await Promise.all(
  [0, 1].map(async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      process.stderr.write(`${job.name}: ${job.warm} + ${job.calls} calls under callgrind …\n`);
      const split = await count(job.args, job.warm, job.calls, join(work, `cg-${next}.out`));
      ((results[job.warm] ??= {})[job.name] ??= {})[job.calls] = split;
    }
  }),
);

const perCall = (r, key) => (r[N2][key] - r[N1][key]) / (N2 - N1);
const k = (n) => `${(n / 1000).toFixed(0)}k`;
for (const warm of WINDOWS) {
  const floor = perCall(results[warm]["got floor"], "total");
  console.log(`after ${warm} warm-up calls (calls ${warm + N1 + 1}–${warm + N2}), instructions per call:`);
  for (const name of Object.keys(servers)) {
    const r = results[warm][name];
    const total = perCall(r, "total");
    console.log(
      `  ${name.padEnd(10)} ${k(total).padStart(6)} (JIT compiling ${k(perCall(r, "compile"))}, GC ${k(perCall(r, "gc"))})   ratio to the got floor ${(total / floor).toFixed(3)}`,
    );
  }
}
upstream.close();
