#!/usr/bin/env node
// npm run profile:stages: where a warm server's tools/call time goes, stage by stage. Builds the petstore
// example as a user does (scripts/bench-parts.js), copies its bundle and writes timestamps into the copy at
// the call path's landmarks (the JSON-RPC line read, dispatch, the tool call, validation, request build,
// the got call and its response, result mapping, the write), then drives it and the got floor (with the
// same timestamps at read, got call, got response and write) over stdio, alternating, and prints the
// median time between consecutive landmarks over the calls after the first STAGES_SKIP. The runtime itself
// carries no instrumentation: the copy is patched text, and a landmark the bundle no longer has is an error
// here (update LANDMARKS in scripts/stage-landmarks.js beside the change that moved it; test/e2e/stage-landmarks.ts
// checks them against today's bundle). Not a test; figures vary with the machine.
//
//   STAGES_CALLS (default 4,000) calls per server per rep, STAGES_SKIP (2,000) left out, STAGES_REPS (3).
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INITIALIZE, buildPetstore, getPet, root, startPeer, startUpstream, writeFloor } from "./bench-parts.js";
import { FLOOR_LANDMARKS, LANDMARKS, instrument } from "./stage-landmarks.js";

const CALLS = Number(process.env.STAGES_CALLS ?? 4000);
const SKIP = Number(process.env.STAGES_SKIP ?? 2000);
const REPS = Number(process.env.STAGES_REPS ?? 3);

const work = mkdtempSync(join(tmpdir(), "mcp-gen-stages-"));
const built = await buildPetstore(root, work, "petstore");
const patched = join(work, "patched");
cpSync(built, patched, { recursive: true, dereference: false, verbatimSymlinks: true });
const entry = join(patched, "dist", "index.js");
writeFileSync(entry, instrument(readFileSync(entry, "utf8"), LANDMARKS));
const floor = writeFloor(work, "got");
writeFileSync(floor, instrument(readFileSync(floor, "utf8"), FLOOR_LANDMARKS));
const { upstream, baseUrl } = await startUpstream();

/** Runs one server for CALLS calls; resolves to its per-call landmark lists and its median latency. */
async function run(args, file) {
  const peer = startPeer(args, process.execPath, { STAGES_FILE: file });
  await peer.request("initialize", INITIALIZE);
  peer.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  const latencies = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await getPet(peer);
    latencies.push(performance.now() - started);
  }
  const exited = new Promise((resolve) => peer.child.once("exit", resolve));
  peer.stop();
  await exited;
  return { calls: JSON.parse(readFileSync(file, "utf8")).slice(SKIP), latency: median(latencies.slice(SKIP)) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const servers = {
  "got floor": [floor, baseUrl],
  "mcp-gen": [entry, "--base-url", baseUrl],
};
const figures = Object.fromEntries(Object.keys(servers).map((name) => [name, { latency: [], stages: new Map() }]));
for (let rep = 0; rep < REPS; rep++) {
  for (const [name, args] of Object.entries(servers)) {
    const { calls, latency } = await run(args, join(work, `stages-${rep}.json`));
    const figure = figures[name];
    figure.latency.push(latency);
    const labels = calls[0].map(([label]) => label);
    for (let i = 1; i < labels.length; i++) {
      const key = `${labels[i - 1]} → ${labels[i]}`;
      const values = figure.stages.get(key) ?? [];
      values.push(median(calls.map((stages) => stages[i][1] - stages[i - 1][1])));
      figure.stages.set(key, values);
    }
    process.stderr.write(`rep ${rep + 1}/${REPS} ${name}: median latency ${latency.toFixed(3)} ms\n`);
  }
}
upstream.close();

const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
console.log(
  `Calls ${SKIP + 1}–${CALLS} of each server, ${REPS} reps; medians of the reps' medians (petstore getPet, stdio).`,
);
for (const [name, { latency, stages }] of Object.entries(figures)) {
  console.log(`\n${name}: latency ${median(latency).toFixed(3)} ms`);
  let own = 0;
  for (const [key, values] of stages) {
    const value = median(values);
    if (!key.endsWith("got responded")) own += value;
    console.log(`  ${key.padEnd(44)} ${us(value).padStart(10)}`);
  }
  console.log(`  ${"all but the got call".padEnd(44)} ${us(own).padStart(10)}`);
}
