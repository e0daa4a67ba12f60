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
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const REPS = Number(process.env.BENCH_REPS ?? 5);
/** Calls a server makes in one turn before the next server's turn. */
const BLOCK = Number(process.env.BENCH_BLOCK ?? 10);
// 25 starts: with 7, one run of the day measured the fetch floor at 100 ms against 140–150 ms in others (ratio 1.64×
// against 1.18–1.23× with 25).
const STARTS = Number(process.env.BENCH_STARTS ?? 25);
// BENCH_STEADY=<n>: after the measured calls, n more calls, then the server CPU of CALLS further calls
// (JIT-compiled code; the default figures cover calls 51–550 of a fresh process, when V8 is still
// compiling the hot path).
const STEADY = Number(process.env.BENCH_STEADY ?? 0);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (n) => `${n.toFixed(3)} ms`;

// The upstream: one small JSON document.
const body = JSON.stringify({ id: 1, name: "Rex", tag: "dog", status: "available" });
const upstream = createServer((req, res) =>
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body),
);
await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${upstream.address().port}`;

// The generated server (and the baseline's), built once.
const work = mkdtempSync(join(tmpdir(), "mcp-gen-bench-"));
/**
 * Writes `<checkout>`'s petstore example (with its vendored runtime, which the checked-in example
 * leaves out; an older checkout's example holds it) into the work folder as `name` and compiles it.
 */
async function buildPetstore(checkout, name) {
  const source = join(checkout, "generated/petstore");
  if (!existsSync(source)) throw new Error(`no ${source}`);
  const target = join(work, name);
  const helper = join(checkout, "dist/test/golden/example-custom.js");
  const { materializeExample } = existsSync(helper) ? await import(pathToFileURL(helper).href) : {};
  if (materializeExample) await materializeExample(checkout, "petstore", target);
  else cpSync(source, target, { recursive: true });
  symlinkSync(join(root, "node_modules"), join(target, "node_modules"), "dir");
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(target, "tsconfig.json")]);
  // The rest of the project's `npm run build` (esbuild joining dist/, when the checkout's projects have it).
  const bundle = join(target, "scripts/bundle-dist.mjs");
  if (existsSync(bundle)) execFileSync(process.execPath, [bundle]);
  return target;
}
const dir = await buildPetstore(root, "petstore");
const baselineDir = process.env.BENCH_BASELINE
  ? await buildPetstore(process.env.BENCH_BASELINE, "baseline")
  : undefined;

// The floor: the least an MCP stdio server can do per call.
const floor = join(work, "floor.mjs");
writeFileSync(
  floor,
  `import { createInterface } from "node:readline";
const base = process.argv[2];
createInterface({ input: process.stdin }).on("line", async (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method !== "tools/call") return process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: {} }) + "\\n");
  const res = await fetch(base + "/pets/" + msg.params.arguments.petId);
  const text = await res.text();
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text }] } }) + "\\n");
});
`,
);

// The got floor makes the same one call through got as the runtime does (buffered body, no HTTP
// errors thrown): no server that calls through got can do less per call. BENCH_FLOORS=got,http adds
// node:http itself, to show what the HTTP client alone costs against the fetch floor.
const extraFloors = [...new Set(["got", ...(process.env.BENCH_FLOORS ?? "").split(",").filter(Boolean)])];
const floorOf = (call) => `import { createInterface } from "node:readline";
${call.imports}
const base = process.argv[2];
createInterface({ input: process.stdin }).on("line", async (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method !== "tools/call") return process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: {} }) + "\\n");
  const url = base + "/pets/" + msg.params.arguments.petId;
  const text = ${call.text};
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text }] } }) + "\\n");
});
`;
const FLOOR_CALLS = {
  got: {
    imports: `import got from ${JSON.stringify(join(root, "node_modules/got/dist/source/index.js"))};`,
    text: `(await got(url, { throwHttpErrors: false, responseType: "buffer" })).body.toString("utf8")`,
  },
  http: {
    imports: `import { get } from "node:http";`,
    text: `await new Promise((resolve, reject) => get(url, (res) => { const chunks = []; res.on("data", (c) => chunks.push(c)); res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8"))); }).on("error", reject))`,
  },
};
for (const name of extraFloors) {
  if (!FLOOR_CALLS[name]) throw new Error(`BENCH_FLOORS: unknown floor ${name} (got, http)`);
  writeFileSync(join(work, `floor-${name}.mjs`), floorOf(FLOOR_CALLS[name]));
}

/** A stdio MCP peer: spawn, send one request at a time, await its response. */
function start(args) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"] });
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
  return { child, t0, request, stop: () => child.kill("SIGTERM") };
}

const initialize = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } };
const servers = {
  floor: () => start([floor, baseUrl]),
  "mcp-gen": () => start([join(dir, "dist/index.js"), "--base-url", baseUrl]),
  ...(baselineDir ? { baseline: () => start([join(baselineDir, "dist/index.js"), "--base-url", baseUrl]) } : {}),
  ...Object.fromEntries(
    extraFloors.map((name) => [`floor-${name}`, () => start([join(work, `floor-${name}.mjs`), baseUrl])]),
  ),
};

/** The time of one awaited call, in milliseconds. */
async function timed(call) {
  const t = performance.now();
  await call();
  return performance.now() - t;
}

/** CPU time of a process so far, all threads, in nanoseconds (/proc/<pid>/task/<tid>/schedstat). */
const cpuNs = (pid) =>
  readdirSync(`/proc/${pid}/task`).reduce(
    (sum, tid) => sum + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]),
    0,
  );
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
const results = {};
const directMedians = [];
const getPet = (peer) => peer.request("tools/call", { name: "getPet", arguments: { petId: 1 } });
const direct = () => fetch(`${baseUrl}/pets/1`).then((r) => r.text());
for (let rep = 0; rep < REPS; rep++) {
  // All servers run side by side and take turns in blocks of BLOCK calls (the direct call too), so a
  // slow patch of the machine hits each of them alike instead of spoiling one server's figures.
  const order = Object.entries(servers);
  for (let i = 0; i < rep % order.length; i++) order.push(order.shift());
  const peers = order.map(([name, make]) => [name, make()]);
  for (const [, peer] of peers) await peer.request("initialize", initialize);
  await new Promise((r) => setTimeout(r, 300));
  for (const [name, peer] of peers) {
    (results[name] ??= { call: [], cpu: [], start: [], rss: [], busyRss: [] }).rss.push(rssMb(peer.child.pid)); // idle: started, no call yet
  }
  for (let i = 0; i < 50; i++) {
    await direct();
    for (const [, peer] of peers) await getPet(peer); // warm-up
  }
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
  directMedians.push(median(directTimes));
  await new Promise((r) => setTimeout(r, 300));
  for (const [name, peer] of peers) {
    results[name].call.push(median(times[name]));
    results[name].cpu.push(cpu[name] / times[name].length / 1e6);
    results[name].busyRss.push(rssMb(peer.child.pid));
    if (STEADY > 0) {
      for (let i = 0; i < STEADY; i++) await getPet(peer);
      const before = cpuNs(peer.child.pid);
      for (let i = 0; i < CALLS; i++) await getPet(peer);
      (results[name].steadyCpu ??= []).push((cpuNs(peer.child.pid) - before) / CALLS / 1e6);
    }
    peer.stop();
  }
}
// Starts alternate between the servers too.
for (let i = 0; i < STARTS; i++) {
  for (const [name, make] of Object.entries(servers)) {
    const peer = make();
    await peer.request("initialize", initialize);
    results[name].start.push(performance.now() - peer.t0);
    peer.stop();
    await new Promise((resolve) => peer.child.once("exit", resolve));
  }
}

// tools/list of a server with 1,200 tools, in process.
const { McpServer } = await import(join(root, "dist/runtime/src/index.js"));
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
  steadyCpu: r.steadyCpu ? median(r.steadyCpu) : NaN,
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
const overheadRatios = results["mcp-gen"].call.map(
  (m, i) => (m - directMedians[i]) / (results["floor-got"].call[i] - directMedians[i]),
);
const cpuRatios = results["mcp-gen"].cpu.map((c, i) => c / results["floor-got"].cpu[i]);
console.log(
  `per-call overhead over direct   fetch floor ${ms(f.call)}   got floor ${ms(gotFloor.call)}   mcp-gen ${ms(g.call)}`,
);
console.log(
  `per-call overhead ratio to the got floor ${median(overheadRatios).toFixed(2)} (median of ${REPS} reps; target ≤ 1.2); per rep ${overheadRatios.map((r) => r.toFixed(2)).join(" / ")}; to the fetch floor ${(g.call / f.call).toFixed(2)}`,
);
console.log(
  `server CPU per call (all threads) fetch floor ${ms(f.cpu)}   got floor ${ms(gotFloor.cpu)}   mcp-gen ${ms(g.cpu)}   ratio to the got floor ${median(cpuRatios).toFixed(2)}; per rep ${cpuRatios.map((r) => r.toFixed(2)).join(" / ")}`,
);
if (STEADY > 0)
  console.log(
    `server CPU per call after ${STEADY + CALLS + 50} calls floor ${ms(f.steadyCpu)}   mcp-gen ${ms(g.steadyCpu)}   ratio ${(g.steadyCpu / f.steadyCpu).toFixed(2)}`,
  );
console.log(
  `cold start (spawn → initialize) fetch floor ${ms(f.start)}   mcp-gen ${ms(g.start)}   ratio ${(g.start / f.start).toFixed(2)} (target ≤ 1.5)`,
);
console.log(
  `idle RSS (started, no call)     fetch floor ${f.rss.toFixed(1)} MB   mcp-gen ${g.rss.toFixed(1)} MB   +${(g.rss - f.rss).toFixed(1)} MB (target ≤ +15)`,
);
console.log(
  `RSS after ${CALLS + 50} calls            floor ${f.busyRss.toFixed(1)} MB   mcp-gen ${g.busyRss.toFixed(1)} MB   +${(g.busyRss - f.busyRss).toFixed(1)} MB`,
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
  if (STEADY > 0)
    console.log(
      `  server CPU per call, steady    ${ms(b.steadyCpu)}   ratio to floor ${(b.steadyCpu / f.steadyCpu).toFixed(2)}   mcp-gen / baseline ${(g.steadyCpu / b.steadyCpu).toFixed(2)}`,
    );
  console.log(
    `  CPU ratio to floor per rep     mcp-gen ${results["mcp-gen"].cpu.map((c, i) => (c / results.floor.cpu[i]).toFixed(2)).join(" / ")}   baseline ${results.baseline.cpu.map((c, i) => (c / results.floor.cpu[i]).toFixed(2)).join(" / ")}`,
  );
  console.log(`  cold start                     ${ms(b.start)}   ratio to floor ${(b.start / f.start).toFixed(2)}`);
  console.log(
    `  idle RSS                       ${b.rss.toFixed(1)} MB   +${(b.rss - f.rss).toFixed(1)} MB over the floor`,
  );
}
for (const name of extraFloors) {
  const x = summary(results[`floor-${name}`]);
  console.log(
    `floor through ${name.padEnd(4)}: per-call overhead ${ms(x.call)} (ratio to the fetch floor ${(x.call / f.call).toFixed(2)}; mcp-gen / this floor ${(g.call / x.call).toFixed(2)}), server CPU ${ms(x.cpu)} (${(x.cpu / f.cpu).toFixed(2)}× the fetch floor's; mcp-gen / this floor ${(g.cpu / x.cpu).toFixed(2)})`,
  );
}
console.log(
  `tools/list, 1,200 tools, all ${Math.ceil(1200 / 100)} pages (in process, median of 100): ${ms(median(listTimes))} (target ≤ 10 ms)`,
);
upstream.close();
process.exit(0);
