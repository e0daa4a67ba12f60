#!/usr/bin/env node
// The load generator of npm run bench:http (scripts/bench-http.js), a process of its own so that its CPU is not
// counted as the server's. Raw JSON-RPC over node:http with keep-alive (one socket per client), no SDK client.
// Usage: node scripts/bench-http-load.js '<JSON job>'; writes one JSON line with the outcome on stdout. Jobs:
//   { "kind": "calls", "url", "mode": "2025-06-18" | "2026-07-28", "clients", "seconds", "maxCalls", "latencies"? }
//     `clients` closed loops each calling getPet { petId: 1 } until `seconds` have passed or `maxCalls` calls
//     were made in all → { calls, errors, firstError, seconds, p50, p99, cpuUs } (latencies in ms; cpuUs: this
//     process's own CPU time for the job, in µs, which the server's CPU does not include). With
//     "latencies": true, also every call's latency, so that a caller can pool several jobs' percentiles: as
//     `latencies`, the base64 of float32 milliseconds in this machine's byte order (decodeLatencies in
//     bench-parts.js; about 5.3 characters a call).
//   { "kind": "sessions", "url", "sessions", "clients" }
//     opens `sessions` legacy sessions (2025-06-18: initialize, then notifications/initialized with the
//     Mcp-Session-Id), `clients` at a time, and leaves them open → { opened, errors, firstError, seconds }.
import { Agent, request } from "node:http";

const job = JSON.parse(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: job.clients });
const url = new URL(job.url);

/** POSTs one JSON-RPC message; resolves to the status, headers and the JSON-RPC message of the answer (or undefined). */
function post(message, headers) {
  const body = JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, answer: answerOf(chunks, res) }));
        res.on("error", reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error("no answer in 30 s")));
    req.on("error", reject);
    req.end(body);
  });
}

/** The JSON-RPC answer in a response body: JSON, or the first `data:` line of an event stream. */
function answerOf(chunks, res) {
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  const json = String(res.headers["content-type"]).startsWith("text/event-stream")
    ? /^data: ?(.*)$/m.exec(text)?.[1]
    : text;
  return json === undefined ? undefined : JSON.parse(json);
}

/** The headers and params of one getPet call in protocol revision `mode` (2026-07-28: SEP-2243 headers, `_meta`). */
function callOf(mode) {
  const params = { name: "getPet", arguments: { petId: 1 } };
  if (mode !== "2026-07-28") return { headers: { "mcp-protocol-version": mode }, params };
  return {
    headers: { "mcp-protocol-version": mode, "mcp-method": "tools/call", "mcp-name": "getPet" },
    params: {
      ...params,
      _meta: { "io.modelcontextprotocol/protocolVersion": mode, "io.modelcontextprotocol/clientCapabilities": {} },
    },
  };
}

/** The calls job: closed loops until the time or the call budget runs out. */
async function calls() {
  const { headers, params } = callOf(job.mode);
  const latencies = new Float64Array(job.maxCalls);
  let made = 0;
  let errors = 0;
  let firstError;
  const t0 = performance.now();
  const end = t0 + job.seconds * 1000;
  const loop = async () => {
    while (performance.now() < end && made < job.maxCalls) {
      const n = made++;
      const t = performance.now();
      try {
        const { status, answer } = await post({ jsonrpc: "2.0", id: n, method: "tools/call", params }, headers);
        if (status !== 200 || !answer?.result || answer.result.isError)
          throw new Error(`${status} ${JSON.stringify(answer)}`);
      } catch (error) {
        errors++;
        firstError ??= String(error.message ?? error).slice(0, 300);
      }
      latencies[n] = performance.now() - t;
    }
  };
  await Promise.all(Array.from({ length: job.clients }, loop));
  const seconds = (performance.now() - t0) / 1000;
  const sorted = latencies.subarray(0, made).sort();
  const at = (q) => sorted[Math.min(made - 1, Math.floor(q * made))];
  const figures = { calls: made, errors, firstError, seconds, p50: at(0.5), p99: at(0.99) };
  if (!job.latencies) return figures;
  return { ...figures, latencies: Buffer.from(Float32Array.from(sorted).buffer).toString("base64") };
}

/** The sessions job: `sessions` legacy sessions opened and left idle. */
async function sessions() {
  const init = {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench-http", version: "1" },
  };
  let next = 0;
  let opened = 0;
  let errors = 0;
  let firstError;
  const t0 = performance.now();
  const loop = async () => {
    while (next < job.sessions) {
      const n = next++;
      try {
        const first = await post({ jsonrpc: "2.0", id: n, method: "initialize", params: init }, {});
        const id = first.headers["mcp-session-id"];
        if (first.status !== 200 || !first.answer?.result || typeof id !== "string")
          throw new Error(`initialize: ${first.status}`);
        const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" };
        const second = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
        if (second.status !== 202) throw new Error(`initialized: ${second.status}`);
        opened++;
      } catch (error) {
        errors++;
        firstError ??= String(error.message ?? error).slice(0, 300);
      }
    }
  };
  await Promise.all(Array.from({ length: job.clients }, loop));
  return { opened, errors, firstError, seconds: (performance.now() - t0) / 1000 };
}

const cpu0 = process.cpuUsage();
const outcome = job.kind === "sessions" ? await sessions() : await calls();
const cpu = process.cpuUsage(cpu0);
process.stdout.write(JSON.stringify({ ...outcome, cpuUs: cpu.user + cpu.system }) + "\n");
agent.destroy();
