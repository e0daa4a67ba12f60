/**
 * Operation search over data/search-index.json: BM25F with term weights computed at generation, so a query
 * is look-ups and sums; widened with the lexicon's synonyms, and with prefixes for a term the index lacks.
 */
import { decodePostings } from "./postings.js";
import { Lexicon, methodVerbs, requestWords, stem, type LexiconData } from "./search-text.js";

/** Version of the data layout; the server refuses an index of another version. */
export const SEARCH_INDEX_FORMAT = 5;
/** Longest query read (characters; `search_operations` refuses longer ones) and most terms analysed. */
export const MAX_QUERY_CHARS = 1_000;
export const MAX_QUERY_TERMS = 64;

/**
 * An operation: name, method (upper case), path, summary, tags (untagged: its path's group), required arguments,
 * and the analysed words of its name that say what it does (search-text.ts, nameTerms).
 */
export type IndexedOperation = [
  name: string,
  method: string,
  path: string,
  summary: string,
  tags: string[],
  required: string[],
  nameTerms: string[],
];

/** The file data/search-index.json. */
export interface SearchIndexData {
  format: number;
  /** BM25 saturation constant the weights were made for. */
  k1: number;
  /** Each operation as the JSON text of its IndexedOperation, parsed when a search first reads it. */
  docs: string[];
  /** Term → its postings, flat pairs `[docId, weightedTf × 100, …]` with doc ids ascending, as postings.ts encodes them. */
  terms: Record<string, string>;
  /** Term → where the API's document has it: a bit per field of the index (search-build.ts, FIELDS). */
  sources?: Record<string, number>;
  /** The lexicon the query is read with (search-lexicon.json); absent: none. */
  lexicon?: LexiconData;
  /** The API's collections, as words (path segments before a parameter: `payment_intents/{id}`). */
  collections?: string[][];
  /** Id prefixes the document's examples and patterns show (`bk_…`) → the collection's words. */
  ids?: Record<string, string[]>;
}

/** What a search returns at most, restricted to a tag (case-insensitive) and to what `allowed` accepts. */
type SearchOptions = { limit: number; tag?: string; allowed?: (name: string) => boolean };

/** Weights, relative to a word the user typed, of a lexicon synonym and of a prefix expansion (at most PREFIX_MAX). */
const [SYNONYM_WEIGHT, PREFIX_WEIGHT, PREFIX_MAX] = [0.8, 0.6, 8];
/** How strongly the share of the request's words an operation matches scales its score. */
const COVERAGE_POWER = 1.5;
/** The share of an operation's name the request explains scales its score from NAME_FLOOR to 1 (see namePrecision). */
const NAME_FLOOR = 0.4;
/** Scale of a write when a request only asks, of a GET when it only changes, of a GET of one item when it lists. */
const [WRITE_WHEN_ASKING, READ_WHEN_CHANGING, ONE_WHEN_LISTING] = [0.6, 0.7, 0.8];

/** A loaded index, ready for queries. */
export class OperationSearch {
  /** The operations parsed so far (see doc). */
  private readonly docs: Array<IndexedOperation | undefined>;
  /** Term → its encoded postings; `postings` holds those decoded so far. */
  private readonly terms: Map<string, string>;
  private readonly postings = new Map<string, number[]>();
  private readonly lexicon: Lexicon;
  private readonly ids: ReadonlyMap<string, string[]>;
  /** Per-document accumulators (score, concepts matched, best of one concept), left zeroed after each search. */
  private readonly totals: Float64Array;
  private readonly matched: Float64Array;
  private readonly best: Float64Array;

  constructor(private readonly data: SearchIndexData) {
    if (data.format !== SEARCH_INDEX_FORMAT)
      throw new Error(`search index format ${String(data.format)} is not ${SEARCH_INDEX_FORMAT}: regenerate it`);
    this.docs = new Array<IndexedOperation | undefined>(data.docs.length);
    this.terms = new Map(Object.entries(data.terms));
    this.lexicon = new Lexicon(data.lexicon);
    this.ids = new Map(Object.entries(data.ids ?? {}));
    const n = data.docs.length;
    [this.totals, this.matched, this.best] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  }

  /** The API's tags with their number of operations (among those `allowed` accepts), most first. */
  tags(allowed: (name: string) => boolean = () => true): Array<{ tag: string; operations: number }> {
    const counts = new Map<string, number>();
    for (const doc of this.data.docs.map((_, id) => this.doc(id)))
      if (allowed(doc[0])) for (const tag of doc[4]) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    return [...counts]
      .map(([tag, operations]) => ({ tag, operations }))
      .sort((a, b) => b.operations - a.operations || a.tag.localeCompare(b.tag));
  }

  /** The operations of one tag (case-insensitive), in the document's order. */
  withTag(tag: string, options: SearchOptions) {
    const ids = [...this.data.docs.keys()].filter((id) => this.passes(id, { ...options, tag }));
    return ids.slice(0, options.limit).map((id) => this.hit(id));
  }

  /** The best operations for `query`, best first (ties in index order). */
  search(query: string, options: SearchOptions) {
    const raw = requestWords(this.withIdResources(query.slice(0, MAX_QUERY_CHARS)));
    const read = this.lexicon.query(raw, MAX_QUERY_TERMS);
    const queryTerms = [...new Set([...read.terms, ...this.compounds(raw)])].slice(0, MAX_QUERY_TERMS);
    const typed = new Set(queryTerms);
    const { totals, matched, best } = this;
    const touched: number[] = [];
    // Words the index does not know (names, numbers: "alice", "17") do not count against coverage.
    let known = 0;
    // Words of one action ("make a new team") say one thing: they count once, for score and coverage.
    const concepts = new Map<string, string[]>();
    for (const term of queryTerms) {
      const key = this.lexicon.actions(term)[0] ?? term;
      concepts.set(key, [...(concepts.get(key) ?? []), term]);
    }
    // Things in the plural with a verb of looking ("show the books") are listed rather than got.
    if (read.lists) concepts.get("list")?.push("list");
    for (const concept of concepts.values()) {
      const alternatives = this.alternatives(concept, typed);
      if (alternatives.length > 0) known++;
      // Per document, the best of the concept's words and stand-ins; a stand-in never counts more than a typed word.
      const typedIdfs = concept.filter((term) => this.terms.has(term)).map((term) => this.idf(term));
      const typedIdf = typedIdfs.length > 0 ? Math.max(...typedIdfs) : Number.POSITIVE_INFINITY;
      const seen: number[] = [];
      for (const [alternative, weight] of alternatives) this.score(alternative, weight, typedIdf, seen);
      for (const id of seen) {
        if (matched[id] === 0) touched.push(id);
        totals[id] += best[id]!;
        matched[id]++;
        best[id] = 0;
      }
    }
    const explained = new Set(
      [...queryTerms, ...read.implied].flatMap((term) => [term, ...this.lexicon.synonyms(term)]),
    );
    // Ids, best first; their scores in best[], zeroed on the way out.
    const top: number[] = [];
    const ranks = (score: number, id: number, other: number) =>
      score > best[other]! || (score === best[other] && id < other);
    for (const id of touched) {
      // Documents matching more of the request rank above those matching one word strongly.
      const covered = totals[id]! * Math.min(1, matched[id]! / Math.max(1, known)) ** COVERAGE_POWER;
      totals[id] = matched[id] = 0;
      // The factors below are ≤ 1: only candidates that could enter pay for them.
      if (top.length >= options.limit && !ranks(covered, id, top.at(-1)!)) continue;
      const [, method, path] = this.doc(id);
      const score =
        covered *
        this.namePrecision(id, explained) *
        (read.asks && method !== "GET" ? WRITE_WHEN_ASKING : 1) *
        (read.changes && method === "GET" ? READ_WHEN_CHANGING : 1) *
        (read.lists && methodVerbs(method, path) === "get" ? ONE_WHEN_LISTING : 1);
      if ((top.length < options.limit || ranks(score, id, top.at(-1)!)) && this.passes(id, options)) {
        const at = top.findIndex((other) => ranks(score, id, other));
        top.splice(at < 0 ? top.length : at, 0, id);
        best[id] = score;
        if (top.length > options.limit) best[top.pop()!] = 0;
      }
    }
    for (const id of top) best[id] = 0;
    return top.map((id) => this.hit(id));
  }

  /** Whether operation `id` carries the options' tag (case-insensitive) and their predicate accepts it. */
  private passes(id: number, options: SearchOptions): boolean {
    const [name, , , , tags] = this.doc(id);
    const tag = options.tag?.toLowerCase();
    return (tag === undefined || tags.some((t) => t.toLowerCase() === tag)) && (options.allowed?.(name) ?? true);
  }

  private hit(id: number) {
    const [name, method, path, summary, , required] = this.doc(id);
    return { name, method, path, summary, required };
  }

  /**
   * NAME_FLOOR … 1: how much of operation `id`'s name the request explains. Of two operations matching
   * "delete the project", the one whose name says only that ranks above one whose extra words narrow
   * it. The name's words are computed at generation (search-text.ts, nameTerms).
   */
  private namePrecision(id: number, explained: ReadonlySet<string>): number {
    const terms = this.doc(id)[6];
    const hits = terms.filter((term) => explained.has(term)).length;
    return terms.length === 0 ? 1 : NAME_FLOOR + ((1 - NAME_FLOOR) * hits) / terms.length;
  }

  /**
   * An id with a type prefix ("bk_9Q") is read as the words of what it is the id of: a prefix the
   * document's examples show, else the one collection whose first word it starts or initials it spells.
   */
  private withIdResources(query: string): string {
    return query.replace(/\b([a-z]{2,6})_([A-Za-z0-9]+)\b/g, (id, prefix: string, rest: string) => {
      // snake_case words ("payment_intent") are words, not ids: an id has a digit or a capital.
      if (!/[0-9A-Z]/.test(rest)) return id;
      const known = this.ids.get(prefix.toLowerCase());
      const matches = (list: string[]) =>
        list.length === 1 ? list[0]!.startsWith(prefix) : list.map((word) => word[0]).join("") === prefix;
      const found = known ? [known] : (this.data.collections ?? []).filter(matches);
      return found.length === 1 ? ` ${found[0]!.join(" ")} ` : id;
    });
  }

  /** Two words of the request written as one in the API ("line item" → `lineitems`), when the index has it. */
  private compounds(list: readonly string[]): string[] {
    return list.slice(1).flatMap((word, i) => {
      const joined = stem(list[i]! + word);
      return this.terms.has(joined) ? [joined] : [];
    });
  }

  /** The indexed terms that stand for the query terms of `concept`, with their weights. */
  private alternatives(concept: readonly string[], typed: ReadonlySet<string>): Array<[string, number]> {
    const list: Array<[string, number]> = concept.filter((term) => this.terms.has(term)).map((term) => [term, 1]);
    const synonyms = new Set(concept.flatMap((term) => [...this.lexicon.synonyms(term)]));
    for (const synonym of synonyms)
      if (!typed.has(synonym) && this.terms.has(synonym)) list.push([synonym, SYNONYM_WEIGHT]);
    // A word the index lacks may be cut short: the indexed terms it starts (in the index's sorted order).
    for (const term of list.length > 0 ? [] : concept.filter((term) => term.length >= 3))
      for (const indexed of this.terms.keys())
        if (indexed.startsWith(term) && list.length < PREFIX_MAX) list.push([indexed, PREFIX_WEIGHT]);
    return list;
  }

  /** Operation `id`, parsed on first use: a large API's index loads without making an object per operation. */
  private doc(id: number): IndexedOperation {
    return (this.docs[id] ??= JSON.parse(this.data.docs[id]!) as IndexedOperation);
  }

  /** The postings of an indexed term, decoded on first use. */
  private postingsOf(term: string): number[] {
    let list = this.postings.get(term);
    if (!list) this.postings.set(term, (list = decodePostings(this.terms.get(term)!)));
    return list;
  }

  private idf(term: string): number {
    const df = this.postingsOf(term).length / 2;
    return Math.log(1 + (this.data.docs.length - df + 0.5) / (df + 0.5));
  }

  /** Raises `best[id]` to the BM25 score of `term` × `weight` (idf ≤ `maxIdf`) in each document; new ids go on `seen`. */
  private score(term: string, weight: number, maxIdf: number, seen: number[]): void {
    const postings = this.postingsOf(term);
    const idf = Math.min(this.idf(term), maxIdf);
    const [best, k1] = [this.best, this.data.k1];
    for (let i = 0; i < postings.length; i += 2) {
      const id = postings[i]!;
      const tf = postings[i + 1]! / 100;
      const value = (weight * idf * tf * (k1 + 1)) / (k1 + tf);
      if (best[id] === 0) seen.push(id);
      if (value > best[id]!) best[id] = value;
    }
  }
}
