#!/usr/bin/env node
// npm run profile:stages: where a warm server's tools/call time goes, stage by stage. Builds the petstore
// example as a user does (scripts/bench-parts.js), copies its bundle and writes timestamps into the copy at
// the call path's landmarks (the JSON-RPC line read, dispatch, the tool call, validation, request build,
// the got call and its response, result mapping, the write), then drives it and the got floor (with the
// same timestamps at read, got call, got response and write) over stdio, alternating, and prints the
// median time between consecutive landmarks over the calls after the first STAGES_SKIP. The runtime itself
// carries no instrumentation: the copy is patched text, and a landmark the bundle no longer has is an error
// here (update LANDMARKS beside the change that moved it). Not a test; figures vary with the machine.
//
//   STAGES_CALLS (default 4,000) calls per server per rep, STAGES_SKIP (2,000) left out, STAGES_REPS (3).
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INITIALIZE, buildPetstore, getPet, root, startPeer, startUpstream, writeFloor } from "./bench-parts.js";

const CALLS = Number(process.env.STAGES_CALLS ?? 4000);
const SKIP = Number(process.env.STAGES_SKIP ?? 2000);
const REPS = Number(process.env.STAGES_REPS ?? 3);

const mark = (label) => `globalThis.__stages?.push(["${label}", performance.now()]);`;
/**
 * Landmarks in the bundled dist/index.js: `before` puts the timestamp before the text, `after` after the
 * line that holds it (a function's first line). Each text must occur exactly once.
 */
const LANDMARKS = [
  {
    label: "line read",
    after: 'lines.on("line", (line) => {',
    code: 'globalThis.__stages = [["line read", performance.now()]];',
  },
  { label: "dispatched", after: "async handleRequest(request, ctx) {" },
  { label: "handler called", before: "const result = await handler(" },
  { label: "tools/call", after: "async callTool(params, call) {" },
  { label: "operation", after: "async callOperation(name, args, context) {" },
  { label: "arguments validated", before: "const signIn = this.options.userSignIn;" },
  { label: "gate and hooks", before: "channel.progress(params, call, 0, 1, " },
  { label: "upstream call", after: "async function callUpstream(tool, args, call) {" },
  { label: "request built", before: "const exchange = () => exchangeWithUpstream(" },
  { label: "exchange", after: "async function exchangeWithUpstream(" },
  { label: "send", after: "async function send(client, prepared, authorize, call, limits, template) {" },
  { label: "got called", before: "const pending = upstreamClient(" },
  {
    label: "got responded",
    replace: "return await pending;",
    code: `const response = await pending; ${mark("got responded")} return response;`,
  },
  { label: "result mapped", before: "if (tool.http.pagination && call.paging && !result.isError)" },
  {
    label: "response written",
    before: 'output.write(JSON.stringify(message) + "\\n");',
    code: `${mark("response written")} if (globalThis.__stages?.length > 2) globalThis.__calls.push(globalThis.__stages); globalThis.__stages = undefined;`,
  },
];

// The same landmarks in the got floor of npm run bench (bench-parts.js writes it): read, got call, got response, write.
const FLOOR_LANDMARKS = [
  { label: "line read", after: '.on("line", async (line) => {', code: LANDMARKS[0].code },
  { label: "got called", before: "const text = " },
  { label: "got responded", after: "const text = " },
  {
    label: "response written",
    before: 'process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { content',
    code: LANDMARKS.at(-1).code,
  },
];

/** `source` with the landmarks' timestamps and a SIGTERM handler that writes them to $STAGES_FILE. */
function instrument(source, landmarks) {
  let text = source;
  for (const landmark of landmarks) {
    const anchor = landmark.after ?? landmark.before ?? landmark.replace;
    const at = text.indexOf(anchor);
    if (at < 0 || text.indexOf(anchor, at + 1) >= 0)
      throw new Error(`landmark "${landmark.label}": ${JSON.stringify(anchor)} does not occur exactly once`);
    const code = landmark.code ?? mark(landmark.label);
    if (landmark.before) text = `${text.slice(0, at)}${code}\n${text.slice(at)}`;
    else if (landmark.replace) text = `${text.slice(0, at)}${code}${text.slice(at + anchor.length)}`;
    else {
      const end = text.indexOf("\n", at);
      text = `${text.slice(0, end + 1)}${code}\n${text.slice(end + 1)}`;
    }
  }
  const flush =
    'globalThis.__calls = []; process.on("SIGTERM", () => { process.getBuiltinModule("node:fs").writeFileSync(' +
    "process.env.STAGES_FILE, JSON.stringify(globalThis.__calls)); process.exit(0); });";
  // After the bundle's shebang line, which must stay first.
  const shebang = text.startsWith("#!") ? text.slice(0, text.indexOf("\n") + 1) : "";
  return `${shebang}${flush}\n${text.slice(shebang.length)}`;
}

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
