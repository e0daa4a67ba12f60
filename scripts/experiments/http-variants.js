#!/usr/bin/env node
// Experiment (not a test, not a benchmark the docs' targets rest on): where a generated server's HTTP
// calls cost more than the bare floor of npm run bench:http. Runs petstore servers built from one or more
// mcp-gen checkouts (or prebuilt dist/index.js files) beside variants of the floor that each add one
// thing the generated server does, in interleaved rounds at a fixed number of clients, and prints per
// target: calls/s, the server's CPU per call, and the CPU per call of the load generator and of the
// upstream (which share the machine's cores with the server), each against the plain floor's.
//
// Usage: node scripts/experiments/http-variants.js
//   HTTP_AB_SERVERS   "name=<checkout or …/dist/index.js>[=<server flags>],…"  (default: this checkout)
//   HTTP_AB_FLOORS    floor variants, comma-separated, each a set of letters:
//                       S  the result also carries structuredContent (the upstream body parsed)
//                       G  got called as the runtime calls it (an extended instance: retry, hooks, headers, context)
//                       P  with the runtime's downloadProgress watch of the response size
//                       Q  at most 8 upstream calls at once (the runtime's default per-host cap)
//                       R  capitalized answer header names
//                       K  keepAliveTimeout 65 s (the runtime's)
//   HTTP_AB_CLIENTS (64), HTTP_AB_ROUNDS (6), HTTP_AB_SECONDS (3), HTTP_AB_WARM (6000 calls), HTTP_AB_MODE (2025-06-18)
// Internal: `node http-variants.js floor <letters> <upstream base URL>` serves one floor variant.
// Everything listens on 127.0.0.1; every load is bounded; only the processes it starts are stopped, by PID.
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPetstore, cpuNs, httpLoad, median, root, startHttp, startUpstream } from "../bench-parts.js";

const self = fileURLToPath(import.meta.url);

if (process.argv[2] === "floor") await serveFloor(process.argv[3], process.argv[4]);
else await compare();

/** One floor variant (see the letters above), announced like the generated server. */
async function serveFloor(letters, base) {
  const { default: got } = await import("got");
  const has = (letter) => letters.includes(letter);
  const instance = got.extend({
    throwHttpErrors: false,
    followRedirect: true,
    responseType: "buffer",
    retry: {
      limit: 2,
      methods: ["GET", "PUT", "HEAD", "DELETE", "OPTIONS", "TRACE"],
      statusCodes: [408, 429, 502, 503, 504],
    },
    hooks: { beforeRetry: [() => {}], beforeRedirect: [(options) => options.context?.onRedirect?.(options)] },
  });
  const waiting = [];
  let running = 0;
  /** The upstream call, as the plain floor makes it or as the runtime does (G, P). */
  const fetchPet = async (petId) => {
    const url = `${base}/pets/${encodeURIComponent(String(petId))}`;
    if (!has("G")) return (await got(url, { throwHttpErrors: false, responseType: "buffer" })).body.toString("utf8");
    const limits = { maxResponseBytes: 50 * 1024 * 1024 };
    const headers = { accept: "application/json", "user-agent": "petstore-mcp/1.0.0" };
    const pending = instance(url, { method: "GET", headers, context: { limits } });
    if (has("P"))
      void pending.on(
        "downloadProgress",
        ({ transferred }) => transferred > limits.maxResponseBytes && pending.cancel(),
      );
    return (await pending).body.toString("utf8");
  };
  /** The call in one of 8 slots (Q). */
  const inSlot = async (petId) => {
    if (running < 8) running += 1;
    else await new Promise((resolve) => waiting.push(resolve));
    try {
      return await fetchPet(petId);
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
  const http = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", async () => {
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const result = {};
      if (message.method === "tools/call") {
        const petId = message.params.arguments.petId;
        const text = await (has("Q") ? inSlot(petId) : fetchPet(petId));
        result.content = [{ type: "text", text }];
        if (has("S")) result.structuredContent = JSON.parse(text);
      }
      const body = JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
      const length = Buffer.byteLength(body);
      res
        .writeHead(
          200,
          has("R")
            ? { "Content-Type": "application/json", "Content-Length": length }
            : { "content-type": "application/json", "content-length": length },
        )
        .end(body);
    });
  });
  if (has("K")) http.keepAliveTimeout = 65_000;
  http.listen(0, "127.0.0.1", () => process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`));
  process.on("SIGTERM", () => http.close(() => process.exit(0)));
}

/** Starts the targets, warms each alike, then measures them in interleaved rounds and prints the comparison. */
async function compare() {
  const clients = Number(process.env.HTTP_AB_CLIENTS ?? 64);
  const rounds = Number(process.env.HTTP_AB_ROUNDS ?? 6);
  const seconds = Math.min(60, Number(process.env.HTTP_AB_SECONDS ?? 3));
  const warmCalls = Number(process.env.HTTP_AB_WARM ?? 6000);
  const mode = process.env.HTTP_AB_MODE ?? "2025-06-18";
  const { upstream, baseUrl } = await startUpstream();
  const work = mkdtempSync(join(tmpdir(), "mcp-gen-http-variants-"));
  const targets = [];
  for (const spec of (process.env.HTTP_AB_SERVERS ?? `mcp-gen=${root}`).split(",")) {
    const [name, where, flags] = spec.split("=");
    const dir = where.endsWith("/dist/index.js")
      ? dirname(dirname(where))
      : await buildPetstore(where, work, name, ["sessions"]);
    const args = [join(dir, "dist/index.js"), "--http", "--port", "0", "--base-url", baseUrl];
    targets.push({ name, ...(await start([...args, ...(flags ? flags.split(" ") : [])])) });
  }
  for (const letters of (process.env.HTTP_AB_FLOORS ?? "").split(",").filter(Boolean))
    targets.push({ name: `floor+${letters}`, ...(await start([self, "floor", letters, baseUrl])) });
  const floor = { name: "floor", ...(await start([join(root, "scripts/bench-http-baselines.js"), "floor", baseUrl])) };
  targets.push(floor);
  console.log(
    `load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}; ${clients} clients, ${mode}`,
  );
  for (const target of targets) {
    await load({ url: target.url, mode, clients: 64, seconds: 120, maxCalls: warmCalls });
    Object.assign(target, { rates: [], cpu: [], loader: [], upstream: [] });
  }
  for (let round = 0; round < rounds; round++) {
    for (const target of targets.map((_, i) => targets[(i + round) % targets.length])) {
      await load({ url: target.url, mode, clients, seconds: 120, maxCalls: 1000 }); // lead: no point after idle
      const cpu0 = cpuNs(target.child.pid);
      const upstream0 = process.cpuUsage();
      const outcome = await load({ url: target.url, mode, clients, seconds, maxCalls: 2_000_000 });
      const upstreamCpu = process.cpuUsage(upstream0);
      target.rates.push(outcome.calls / outcome.seconds);
      target.cpu.push((cpuNs(target.child.pid) - cpu0) / 1e3 / outcome.calls);
      target.loader.push(outcome.cpuUs / outcome.calls);
      target.upstream.push((upstreamCpu.user + upstreamCpu.system) / outcome.calls);
      if (outcome.errors > 0) console.log(`  ! ${target.name}: ${outcome.errors} errors, first: ${outcome.firstError}`);
    }
    console.log(
      `round ${round + 1}: ${targets.map((t) => `${t.name} ${t.rates[round].toFixed(0)}/s ${t.cpu[round].toFixed(0)} µs`).join(" | ")}`,
    );
  }
  const paired = (target, figure) => median(target[figure].map((value, i) => value / floor[figure][i])).toFixed(2);
  console.log(
    "target | calls/s | × floor (lowest) | server µs/call | × floor | load generator µs/call | upstream µs/call",
  );
  for (const t of targets) {
    const lowest = Math.min(...t.rates.map((rate, i) => rate / floor.rates[i])).toFixed(2);
    console.log(
      `${t.name} | ${median(t.rates).toFixed(0)} | ${paired(t, "rates")} (${lowest}) | ${median(t.cpu).toFixed(0)} | ${paired(t, "cpu")} | ${median(t.loader).toFixed(0)} | ${median(t.upstream).toFixed(0)}`,
    );
  }
  for (const target of targets) target.child.kill("SIGTERM");
  upstream.close();
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

/** A server process of the comparison, stopped at the end. */
function start(args) {
  return startHttp(args, args[0]);
}

/** One closed-loop load of `job` (calls). */
function load(job) {
  return httpLoad({ kind: "calls", ...job });
}
