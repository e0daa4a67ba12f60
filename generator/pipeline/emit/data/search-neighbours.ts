/**
 * Words near in meaning, for the search index: from word-neighbours.json (distilled from word vectors
 * by scripts/build-word-neighbours.js), the entries this API needs — a query word its index lacks →
 * the indexed terms nearest it. Only those entries go into the server's data/search-index.json.
 */
import { Lexicon, type LexiconData, type SearchIndexData } from "../../../shared/contract.js";
import table from "./word-neighbours.json" with { type: "json" };

/** The distilled table: word → its nearest words, best first, separated by spaces. */
const NEIGHBOURS: Record<string, string> = table.neighbours;

/** Indexed terms kept per word (the nearest; more lowered recall on the tuning files). */
const NEAREST = 1;

/**
 * For each word of the table whose term the index lacks: the indexed term of its nearest neighbour.
 * Action words ("create", "delete" and those the lexicon maps onto them) are left out on both sides:
 * vectors put opposite actions side by side (open/close, add/remove), and the lexicon already reads them.
 * Words the lexicon drops or already leads to an indexed term are left out too: the search never asks for them.
 */
export function searchNeighbours(index: SearchIndexData, data: LexiconData): Record<string, string[]> {
  const lexicon = new Lexicon(data);
  const stopwords = new Set(data.stopwords ?? []);
  const indexed = (term: string) => Object.hasOwn(index.terms, term);
  const action = (term: string) => lexicon.actions(term).length > 0;
  const found = new Map<string, string[]>();
  for (const [word, list] of Object.entries(NEIGHBOURS)) {
    const term = lexicon.term(word);
    if (stopwords.has(word) || indexed(term) || action(term) || [...lexicon.synonyms(term)].some(indexed)) continue;
    const near = found.get(term) ?? [];
    for (const other of list.split(" ").map((w) => lexicon.term(w)))
      if (other !== term && indexed(other) && !action(other) && !near.includes(other)) near.push(other);
    if (near.length > 0) found.set(term, near.slice(0, NEAREST));
  }
  return Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
