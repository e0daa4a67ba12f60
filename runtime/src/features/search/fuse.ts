/**
 * Several rankings of one search as one: reciprocal rank fusion (Cormack, Clarke and Büttcher,
 * SIGIR 2009). A result scores Σ 1 / (RRF_K + rank) over the rankings that have it, so one found
 * near the top by any query, or found by several, comes first; scores of different queries are
 * never compared (a BM25 score depends on the query's words). `search_operations` runs the
 * model's alternatives (`queries`) and merges their results with this (meta-tools.ts `searchMany`).
 * Measured against the first 10 of the fusion alone: docs/benchmarks/search.md.
 */

/** The constant of the original paper: large enough that the first ranks of one list do not drown the others. */
export const RRF_K = 60;

/**
 * The keys of `rankings` (each best first) fused, best first, at most `limit`: by fused score, then
 * by best single rank, then by the first ranking that has it (deterministic).
 */
export function fuseRankings<T>(rankings: ReadonlyArray<readonly T[]>, limit: number): T[] {
  const fused = new Map<T, { score: number; best: number; first: number }>();
  rankings.forEach((ranking, list) =>
    ranking.forEach((key, rank) => {
      const entry = fused.get(key) ?? { score: 0, best: rank, first: list };
      entry.score += 1 / (RRF_K + rank + 1);
      entry.best = Math.min(entry.best, rank);
      fused.set(key, entry);
    }),
  );
  return [...fused]
    .sort(([, a], [, b]) => b.score - a.score || a.best - b.best || a.first - b.first)
    .slice(0, limit)
    .map(([key]) => key);
}
