#!/usr/bin/env node
// npm run bench:search-queries: does a search the model steers find more? For every task file of
// each source (BENCH_SEARCH_SOURCES, default github,stripe; the sources of bench:search), recall@1/5/10
// of search_operations' ranking (searchMany, as the meta tool runs it) for
//   - the request alone (today's figure, as bench:search measures it),
//   - one "operation description" alone, and
//   - both in one call (`query` + `queries`: their rankings merged by reciprocal rank fusion).
// The operation description stands for what a model that knows the domain writes when asked to
// "phrase the query as the operation you expect": it is made by a script, the same way for every
// request, from the spec's own wording of the operation the request expects (its first expected
// operation): the HTTP method, the verb the method means on that path ("list", "get", "create" …,
// search-text.ts methodVerbs) and the literal segments of the path (`POST
// /repos/{owner}/{repo}/issues/{issue_number}/comments` → "POST create repos issues comments").
// Never the operation's name, summary or description, and never written from a miss. It is an
// optimistic stand-in for a model's guess (the model is assumed to know the method and the object),
// so the figure that matters is whether merging never loses against the better single query.
// The index is built from a plan-only generation (no project is written). Prints a table; no misses.
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { specOf, taskFilesOf } from "./bench-search-sources.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const SOURCES = (process.env.BENCH_SEARCH_SOURCES ?? "github,stripe").split(",").filter(Boolean);
const load = (path) => import(pathToFileURL(join(root, "dist", path)).href);
const { generate } = await load("generator/pipeline/generate.js");
const { workerInput } = await load("generator/pipeline/emit/project-files.js");
const { searchIndexFromDocuments } = await load("generator/pipeline/emit/data/search-index.js");
const { OperationSearch } = await load("runtime/src/features/search/search-index.js");
const { searchMany } = await load("runtime/src/features/search/meta-tools.js");
const { methodVerbs } = await load("runtime/src/features/search/search-text.js");

/** The scripted "operation description" of an operation: method, its verb on the path, the path's literal segments. */
function operationDescription(tool) {
  const { method, path } = tool.http;
  const segments = path
    .split("/")
    .filter((segment) => segment !== "" && !segment.includes("{") && !/^v\d+(\.\d+)*$/.test(segment));
  return [method.toUpperCase(), methodVerbs(method, path), ...segments].filter(Boolean).join(" ");
}

/** recall@1/@5/@10 of these ranks (-1: not found; ranks past 10 count only for "found"), in per cent. */
function recall(ranks) {
  const at = (k) => ((100 * ranks.filter((rank) => rank >= 0 && rank < k).length) / ranks.length).toFixed(1);
  return `${at(1)} / ${at(5)} / ${at(10)}`;
}
const at10 = (ranks) => ranks.filter((rank) => rank >= 0 && rank < 10).length;

const rows = [];
for (const source of SOURCES) {
  const { plan } = await generate({ spec: await specOf(root, source), planOnly: true, features: ["search"] });
  const index = new OperationSearch(JSON.parse(searchIndexFromDocuments(workerInput(plan, false).searchDocuments)));
  const byName = new Map(plan.tools.map((tool) => [tool.name, tool]));
  const rank = (queries, expect) =>
    searchMany(index, queries, { limit: 10 }).findIndex((hit) => expect.includes(hit.name));
  // Both queries' results as returned (each one's 10 best, merged): found at all, and within the first 10.
  for (const [file, tasks] of taskFilesOf(root, source)) {
    const [alone, described, both] = [[], [], []];
    let returned = 0;
    for (const task of tasks) {
      const expected = byName.get(task.expect[0]);
      if (!expected) throw new Error(`${file}: ${task.expect[0]} is not an operation of ${source}`);
      const description = operationDescription(expected);
      alone.push(rank([task.q], task.expect));
      described.push(rank([description], task.expect));
      both.push(rank([task.q, description], task.expect));
      returned += searchMany(index, [task.q, description], { limit: 10 }).length;
    }
    const best = Math.max(at10(alone), at10(described));
    const found = both.filter((rank) => rank >= 0).length;
    rows.push([
      file,
      tasks.length,
      recall(alone),
      recall(described),
      recall(both),
      `${((100 * found) / tasks.length).toFixed(1)} (${(returned / tasks.length).toFixed(1)})`,
      found >= best ? "yes" : "NO",
    ]);
    process.stderr.write(`${source}: ${file} done\n`);
  }
}
console.log(
  "| Task file | Requests | Request alone @1/@5/@10 | Description alone @1/@5/@10 | Both merged @1/@5/@10 | Both: found (results) | Found ≥ best single @10 |",
);
console.log("| --- | ---: | --- | --- | --- | --- | --- |");
for (const row of rows) console.log(`| \`${row[0]}\` | ${row.slice(1).join(" | ")} |`);
