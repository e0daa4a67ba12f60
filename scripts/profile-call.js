#!/usr/bin/env node
// npm run profile:call (not a test): where a generated server's per-call time goes. Builds the
// petstore example, runs it over stdio under `node --cpu-prof` against a local upstream, sends
// PROFILE_CALLS tools/call requests one at a time, then prints the CPU profile's self time by
// component (got and its helpers, the runtime, ajv, Node internals, idle) and the top functions.
// Needs `npm run build`. Samples vary from run to run: compare shares, not absolute times.
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INITIALIZE, buildPetstore, getPet, root, startPeer, startUpstream } from "./bench-parts.js";

const CALLS = Number(process.env.PROFILE_CALLS ?? 3000);
const TOP = Number(process.env.PROFILE_TOP ?? 25);

const { upstream, baseUrl } = await startUpstream();
const work = mkdtempSync(join(tmpdir(), "mcp-gen-profile-"));
// PROFILE_CHECKOUT=<another mcp-gen checkout> profiles that checkout's generated/petstore (a before/after pair).
const dir = await buildPetstore(process.env.PROFILE_CHECKOUT ?? root, work, "petstore");

const profileDir = join(work, "profile");
const peer = startPeer(["--cpu-prof", "--cpu-prof-dir", profileDir, join(dir, "dist/index.js"), "--base-url", baseUrl]);
const child = peer.child;
await peer.request("initialize", INITIALIZE);
const t0 = performance.now();
for (let i = 0; i < CALLS; i++) await getPet(peer);
const wall = performance.now() - t0;
child.stdin.end(); // stdio EOF: the server exits and writes its profile
await new Promise((resolve) => child.on("exit", resolve));
upstream.close();

const profile = JSON.parse(readFileSync(join(profileDir, readdirSync(profileDir)[0]), "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
}
/** The component a frame belongs to, by its script's path. */
function component(frame) {
  const url = frame.url ?? "";
  if (
    frame.functionName === "(idle)" ||
    frame.functionName === "(program)" ||
    frame.functionName === "(garbage collector)"
  )
    return frame.functionName;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg)
    return [
      "got",
      "@sindresorhus/is",
      "@szmarczak/http-timer",
      "cacheable-lookup",
      "cacheable-request",
      "decompress-response",
      "form-data-encoder",
      "http2-wrapper",
      "lowercase-keys",
      "p-cancelable",
      "responselike",
      "keyv",
      "type-fest",
      "byte-counter",
      "chunk-data",
      "@sec-ant/readable-stream",
    ].includes(pkg[1])
      ? "got"
      : pkg[1];
  if (url.includes("/src/runtime/") || url.includes("/dist/runtime/")) return "runtime";
  if (url.startsWith("node:") || url === "") return "node";
  return "server";
}
const perComponent = new Map();
const perFunction = new Map();
let total = 0;
for (const [nodeId, us] of self) {
  const frame = byId.get(nodeId).callFrame;
  total += us;
  const c = component(frame);
  perComponent.set(c, (perComponent.get(c) ?? 0) + us);
  const name = `${frame.functionName || "(anonymous)"} ${(frame.url ?? "").replace(/^.*node_modules\//, "").replace(/^.*\/(src|dist)\//, "")}:${frame.lineNumber + 1}`;
  perFunction.set(name, (perFunction.get(name) ?? 0) + us);
}
const busy = total - (perComponent.get("(idle)") ?? 0);
console.log(
  `${CALLS} calls in ${wall.toFixed(0)} ms (${(wall / CALLS).toFixed(3)} ms each); CPU busy ${(busy / 1000).toFixed(0)} ms = ${(busy / CALLS).toFixed(1)} µs per call`,
);
console.log("\nself time by component (share of busy time, µs per call):");
for (const [name, us] of [...perComponent].filter(([name]) => name !== "(idle)").sort((a, b) => b[1] - a[1])) {
  console.log(
    `  ${name.padEnd(22)} ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${(us / CALLS).toFixed(1).padStart(7)} µs`,
  );
}
console.log(`\ntop ${TOP} functions by self time:`);
for (const [name, us] of [...perFunction]
  .filter(([name]) => !name.startsWith("(idle)"))
  .sort((a, b) => b[1] - a[1])
  .slice(0, TOP)) {
  console.log(`  ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${name}`);
}
