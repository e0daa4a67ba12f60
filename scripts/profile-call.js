#!/usr/bin/env node
// npm run profile:call (not a test): where a generated server's per-call time goes. Builds the
// petstore example, runs it over stdio under `node --cpu-prof` against a local upstream, sends
// PROFILE_CALLS tools/call requests one at a time, then prints the CPU profile's self time by
// component (got and its helpers, the runtime, ajv, Node internals, idle) and the top functions.
// Needs `npm run build`. Samples vary from run to run: compare shares, not absolute times.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, symlinkSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const CALLS = Number(process.env.PROFILE_CALLS ?? 3000);
const TOP = Number(process.env.PROFILE_TOP ?? 25);

const body = JSON.stringify({ id: 1, name: "Rex", tag: "dog", status: "available" });
const upstream = createServer((req, res) =>
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body),
);
await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${upstream.address().port}`;

const work = mkdtempSync(join(tmpdir(), "mcp-gen-profile-"));
const dir = join(work, "petstore");
// PROFILE_CHECKOUT=<another mcp-gen checkout> profiles that checkout's generated/petstore (a before/after pair).
// The checked-in example leaves its vendored runtime out: materialize it as the tests and the bench do.
const checkout = process.env.PROFILE_CHECKOUT ?? root;
const helper = join(checkout, "dist/test/golden/example-custom.js");
const { materializeExample } = existsSync(helper) ? await import(pathToFileURL(helper).href) : {};
if (materializeExample) await materializeExample(checkout, "petstore", dir);
else cpSync(join(checkout, "generated/petstore"), dir, { recursive: true });
symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")]);
const bundle = join(dir, "scripts/bundle-dist.mjs");
if (existsSync(bundle)) execFileSync(process.execPath, [bundle]);

const profileDir = join(work, "profile");
const child = spawn(
  process.execPath,
  ["--cpu-prof", "--cpu-prof-dir", profileDir, join(dir, "dist/index.js"), "--base-url", baseUrl],
  { stdio: ["pipe", "pipe", "ignore"] },
);
const waiting = new Map();
createInterface({ input: child.stdout }).on("line", (line) => {
  const msg = JSON.parse(line);
  waiting.get(msg.id)?.(msg);
  waiting.delete(msg.id);
});
let id = 0;
const request = (method, params) =>
  new Promise((resolve) => {
    const n = ++id;
    waiting.set(n, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }) + "\n");
  });
await request("initialize", {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "profile", version: "1" },
});
const t0 = performance.now();
for (let i = 0; i < CALLS; i++) await request("tools/call", { name: "getPet", arguments: { petId: 1 } });
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
