#!/usr/bin/env node
// npm run bench:list: how big and how slow `tools/list` is on real APIs. Not a test: it prints figures.
// For each source (default github; BENCH_LIST_SOURCES=github,stripe) it generates the server into
// .tmp/bench-list/, compiles it, then
//   - server side: builds the server in process and times `tools/list` over all pages, including
//     the JSON serialization the transport does (median of many rounds);
//   - client side: starts it over stdio and lists all tools with the official SDK 1.x client
//     (`Client.listTools`, which compiles every `outputSchema` with ajv), in a fresh client process
//     per round (a client lists once, with ajv cold: a warm process would flatter the figure);
//   - size: total bytes and o200k tokens (gpt-tokenizer) of the `tools/list` results, split into
//     input schemas, output schemas and the rest, then per kind of field (scripts/list-parts.js).
// Needs `npm run build` (the npm script does it). BENCH_LIST_REPS (default 5) sets the SDK rounds
// (0 skips the client side: the sizes alone do not depend on the machine's load);
// BENCH_LIST_REUSE=1 lists the servers already built under .tmp/bench-list/ instead of generating;
// BENCH_LIST_DIR=<folder> measures one server built elsewhere (e.g. by another checkout, to compare).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { listParts, partsTable } from "./list-parts.js";

const root = fileURLToPath(new URL("..", import.meta.url));

// Client mode (a child process per round, so every round pays what a real client pays once: ajv
// cold, nothing compiled yet): list all tools of the server in argv[3], print wall and CPU time.
if (process.argv[2] === "--client") {
  const client = new Client({ name: "bench-list", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(process.argv[3], "dist/index.js"), "--base-url", "http://127.0.0.1:9", "--surface", "all"],
      stderr: "ignore",
    }),
  );
  const cpu = process.cpuUsage();
  const t = performance.now();
  let count = 0;
  let cursor;
  do {
    const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: 120_000 });
    count += result.tools.length;
    cursor = result.nextCursor;
  } while (cursor);
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  await client.close();
  process.stdout.write(JSON.stringify({ count, wall, cpu: (used.user + used.system) / 1000 }));
  process.exit(0);
}
const SOURCES = process.env.BENCH_LIST_DIR
  ? ["(BENCH_LIST_DIR)"]
  : (process.env.BENCH_LIST_SOURCES ?? "github").split(",").filter(Boolean);
const REPS = Number(process.env.BENCH_LIST_REPS ?? 5);
const SERVER_ROUNDS = 50;

const { generate } = await import(pathToFileURL(join(root, "dist/generator/pipeline/generate.js")).href);
const { listSource } = await import(pathToFileURL(join(root, "dist/test/corpus/sources.js")).href);

const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => sorted(values)[Math.floor(values.length / 2)];
const ms = (n) => (n >= 100 ? `${n.toFixed(0)} ms` : `${n.toFixed(1)} ms`);
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
const pct = (part, whole) => `${((100 * part) / whole).toFixed(0)} %`;

for (const source of SOURCES) {
  const dir = process.env.BENCH_LIST_DIR ?? join(root, ".tmp", "bench-list", source);
  let t = performance.now();
  let generateMs = 0;
  let compileMs = 0;
  if (
    !process.env.BENCH_LIST_DIR &&
    (process.env.BENCH_LIST_REUSE !== "1" || !existsSync(join(dir, "dist", "index.js")))
  ) {
    const [entry] = listSource(root, source, join(root, "..", "shared", "corpus"));
    if (!entry) throw new Error(`unknown source ${source}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await generate({ spec: entry.spec, outDir: dir, force: true });
    generateMs = performance.now() - t;
    if (!existsSync(join(dir, "node_modules")))
      symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    t = performance.now();
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], {
      stdio: "inherit",
    });
    compileMs = performance.now() - t;
  }

  // Server side, in process: dispatch every page and serialize it as the stdio transport does.
  const url = (file) => pathToFileURL(join(dir, "dist", file)).href;
  const { McpServer } = await import(url("runtime/server/server.js"));
  const { tools } = await import(url("tools/index.js"));
  const { serverInfo } = await import(url("server-info.js"));
  const server = new McpServer({ info: serverInfo, tools, upstream: { baseUrl: "http://127.0.0.1:9" } });
  await server.dispatch({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  });
  const listOnce = async () => {
    const pages = [];
    let cursor;
    do {
      const response = await server.dispatch({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: cursor ? { cursor } : {},
      });
      pages.push(JSON.stringify(response));
      cursor = response.result.nextCursor;
    } while (cursor);
    return pages;
  };
  const pages = await listOnce();
  const serverTimes = [];
  for (let i = 0; i < SERVER_ROUNDS; i++) {
    t = performance.now();
    await listOnce();
    serverTimes.push(performance.now() - t);
  }
  const bytes = pages.reduce((n, page) => n + Buffer.byteLength(page), 0);
  const listed = pages.flatMap((page) => JSON.parse(page).result.tools);
  const size = (value) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));
  const inputBytes = listed.reduce((n, tool) => n + size(tool.inputSchema), 0);
  const outputBytes = listed.reduce((n, tool) => n + size(tool.outputSchema), 0);
  const withOutput = listed.filter((tool) => tool.outputSchema).length;

  // Client side: the official SDK 1.x client over stdio, a fresh client process per round.
  const clientTimes = [];
  const clientCpu = [];
  for (let rep = 0; rep < REPS; rep++) {
    const round = JSON.parse(
      execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--client", dir], {
        encoding: "utf8",
        maxBuffer: 2 ** 20,
      }),
    );
    if (round.count !== listed.length)
      throw new Error(`SDK client listed ${round.count} tools, expected ${listed.length}`);
    clientTimes.push(round.wall);
    clientCpu.push(round.cpu);
  }

  console.log(
    `\n== ${process.env.BENCH_LIST_DIR ?? source}: ${listed.length} tools (${withOutput} with an output schema), ${pages.length} pages; generate ${ms(generateMs)}, tsc ${ms(compileMs)}`,
  );
  const tokens = pages.reduce((n, page) => n + countTokens(page), 0);
  console.log(
    `tools/list total         ${mb(bytes)} (${bytes.toLocaleString("en-US")} bytes, ${tokens.toLocaleString("en-US")} o200k tokens)`,
  );
  console.log(`  input schemas          ${mb(inputBytes)} (${pct(inputBytes, bytes)})`);
  console.log(`  output schemas         ${mb(outputBytes)} (${pct(outputBytes, bytes)})`);
  console.log(
    `  rest                   ${mb(bytes - inputBytes - outputBytes)} (${pct(bytes - inputBytes - outputBytes, bytes)}): names, titles, descriptions, annotations, framing`,
  );
  console.log(`\nWhere the bytes go:\n${partsTable(listParts(listed), { tools: listed.length, bytes, tokens })}\n`);
  if (REPS > 0) {
    const c = sorted(clientTimes);
    console.log(
      `SDK 1.x Client.listTools, all pages, ${REPS} fresh client processes: min ${ms(c[0])}  median ${ms(median(c))}  max ${ms(c[c.length - 1])}`,
    );
    console.log(`  client CPU time: median ${ms(median(clientCpu))} (less sensitive to other load on the machine)`);
  }
  const s = sorted(serverTimes);
  console.log(
    `server side, all pages dispatched and serialized, ${SERVER_ROUNDS} rounds: min ${ms(s[0])}  median ${ms(median(s))}`,
  );
  console.log(
    `load average during the run: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")} (${cpus().length} cores)`,
  );
}
process.exit(0);
