#!/usr/bin/env node
// npm run bench:search-reach: how far any ranking of a search index could go on each task file. A request
// that shares no term with an operation it expects (read as the engine reads it: ids, stems, joins, synonyms,
// compounds, prefixes of words the index lacks) cannot be brought into a top 10 by re-weighting: only new knowledge
// of what words mean can. For each task file of the sources `npm run bench:search` has generated into
// .tmp/bench-search/ (run it first; BENCH_SEARCH_REUSE=1 rebuilds the indexes with the current code), it
// prints counts only, never a request: held-out files (see bench-search.js) are read by it too.
//   found@10        requests whose expected operation is in the top 10 today (OperationSearch, limit 10)
//   apart           of the others, those that share no content term (not an action word) with any indexed
//                   field of any expected operation; "reach" is the recall@10 if every other miss were found
//   apart, strong   the same with the operation's name, summary, path and tags only (description,
//                   arguments and enum values left out: their words weigh 0.1–0.2 of a name's)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const load = (path) => import(pathToFileURL(join(root, "dist/runtime/src/features/search", path)).href);
const { OperationSearch } = await load("search-index.js");
const { Lexicon, requestWords } = await load("search-text.js");
const { decodePostings } = await load("postings.js");

/**
 * The indexed terms that could match a request's content words (not action words), read as the engine reads
 * it: ids as the collection they name, the lexicon, compounds, then each word's synonyms or, for a word the
 * index lacks, the terms it starts. Its own steps are called (TypeScript's `private` is not enforced at run
 * time) so that this count cannot drift from what the engine does.
 */
function requestTerms(query, search, lexicon) {
  const raw = requestWords(search.withIdResources(query));
  const terms = [...new Set([...lexicon.query(raw, 64).terms, ...search.compounds(raw)])];
  const typed = new Set(terms);
  return new Set(
    terms
      .filter((term) => lexicon.actions(term).length === 0)
      .flatMap((term) => search.alternatives([term], typed).map(([alternative]) => alternative)),
  );
}

const percent = (part, whole) => `${((100 * part) / whole).toFixed(1)} %`;
const dir = join(root, ".tmp", "bench-search");
for (const file of readdirSync(join(root, "bench", "search-tasks")).sort()) {
  const source = file.replace(/(-[a-z0-9]+)?\.json$/, "");
  const indexFile = join(dir, source, "data", "search-index.json");
  if (!existsSync(indexFile)) continue;
  const data = JSON.parse(readFileSync(indexFile, "utf8"));
  const docs = data.docs.map((doc) => JSON.parse(doc));
  const search = new OperationSearch(data);
  const lexicon = new Lexicon(data.lexicon);
  const ids = new Map(docs.map((doc, id) => [doc[0], id]));
  // Every indexed term of each operation, and the terms of its name, summary, path and tags.
  const anyField = docs.map(() => new Set());
  for (const [term, text] of Object.entries(data.terms))
    for (let i = 0, postings = decodePostings(text); i < postings.length; i += 2) anyField[postings[i]].add(term);
  const strong = docs.map(
    ([name, , path, summary, tags]) =>
      new Set(lexicon.analyze([name, summary, path.replace(/\{[^}]*\}/g, " "), ...tags].join(" "))),
  );
  const tasks = JSON.parse(readFileSync(join(root, "bench", "search-tasks", file), "utf8")).tasks;
  let found = 0;
  let apart = 0;
  let apartStrong = 0;
  for (const { q, expect } of tasks) {
    const names = search.search(q, { limit: 10 }).map((hit) => hit.name);
    if (expect.some((name) => names.includes(name))) {
      found++;
      continue;
    }
    const terms = [...requestTerms(q, search, lexicon)];
    const shares = (sets) => expect.some((name) => terms.some((term) => sets[ids.get(name)]?.has(term)));
    if (!shares(anyField)) apart++;
    if (!shares(strong)) apartStrong++;
  }
  const n = tasks.length;
  console.log(
    `${file.padEnd(22)} ${String(n).padStart(3)} requests  found@10 ${percent(found, n).padStart(7)}  ` +
      `missed ${String(n - found).padStart(2)}: apart ${String(apart).padStart(2)} (reach ${percent(n - apart, n)}), ` +
      `apart in strong fields ${String(apartStrong).padStart(2)} (reach ${percent(n - apartStrong, n)})`,
  );
}
