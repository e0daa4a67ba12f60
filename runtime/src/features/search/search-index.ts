/**
 * Operation search over the index the generator built (data/search-index.json): BM25F, whose
 * field-weighted, length-normalised term frequencies were computed at generation time, so a query
 * is only look-ups and sums. The query is read once with the lexicon the index carries
 * (search-text.ts); its terms are widened with the lexicon's synonyms (at a lower weight), and a
 * term missing from the index falls back to the indexed terms it is a prefix of.
 */
import { Lexicon, requestWords, stem, words, type LexiconData } from "./search-text.js";

/** Version of the data layout; the server refuses an index of another version. */
export const SEARCH_INDEX_FORMAT = 2;
/**
 * Longest query read (characters; `search_operations` refuses longer ones) and most distinct terms
 * analysed: a request is a sentence, and a query is never work without end.
 */
export const MAX_QUERY_CHARS = 1_000;
export const MAX_QUERY_TERMS = 64;
/** At most this many typed ids of a query ("bk_9Q") are matched to the API's collections (see withIdResources). */
const MAX_ID_RESOURCES = 8;

/** One indexed operation: tool name, HTTP method (upper case), path template, one-line summary, tags, required arguments. */
export type IndexedOperation = [
  name: string,
  method: string,
  path: string,
  summary: string,
  tags: string[],
  required: string[],
];

/** The file data/search-index.json. */
export interface SearchIndexData {
  format: number;
  /** BM25 saturation constant the weights were made for. */
  k1: number;
  docs: IndexedOperation[];
  /** Term → flat pairs `[docId, weightedTf × 100, …]`, doc ids ascending. */
  terms: Record<string, number[]>;
  /** Term → where the API's document has it: a bit per field of the index (search-build.ts, FIELDS). */
  sources?: Record<string, number>;
  /** The lexicon the query is read with (generator/emit/search-lexicon.json); absent: none. */
  lexicon?: LexiconData;
  /** The API's collections, as words (path segments before a parameter: `payment_intents/{id}`). */
  collections?: string[][];
  /** Id prefixes the document's examples and patterns show (`bk_…`) → the collection's words. */
  ids?: Record<string, string[]>;
}

/** One search result, best first. */
export interface SearchHit {
  name: string;
  method: string;
  path: string;
  summary: string;
  /** The arguments a call needs. */
  required: string[];
}

/** What a search may be restricted to. */
export interface SearchOptions {
  limit: number;
  /** Only operations carrying this tag (case-insensitive). */
  tag?: string;
  /** Only operations this predicate accepts (the server's toolset filters). */
  allowed?: (name: string) => boolean;
}

/** Weight of a lexicon synonym relative to the word the user typed. */
const SYNONYM_WEIGHT = 0.8;
/** How strongly the share of the request's words an operation matches scales its score. */
const COVERAGE_POWER = 1.5;
/** Weight of a term the request implies relative to a typed one. */
const IMPLIED_WEIGHT = 0.5;
/** Weight of a prefix expansion (a term the user may have cut short). */
const PREFIX_WEIGHT = 0.6;
/** At most this many indexed terms stand in for one unknown query term. */
const PREFIX_MAX = 8;
/**
 * Name precision: the share of an operation's name words that the request explains (its words or
 * their synonyms) scales the score between NAME_FLOOR and 1. Of two operations matching "delete the
 * project", `projects/delete` (every word explained) ranks above `teams/remove-project-in-org`,
 * whose extra words narrow it to something the request did not ask for.
 */
const NAME_FLOOR = 0.4;
/**
 * Coverage counts a matched term whole when its contribution reaches FULL_MATCH × its idf (a word
 * of the name, summary or path does), and in proportion below that (a word only in an enum value
 * or a parameter name).
 */
const FULL_MATCH = 0.3;
/** A request that only asks to know something scales the score of an operation that is not a GET by this. */
const WRITE_WHEN_ASKING = 0.6;
/** A request that only says to change something scales the score of a GET by this. */
const READ_WHEN_CHANGING = 0.7;
/** Name words after which the rest of a name only qualifies it (see namePrecision). */
const QUALIFIER_WORDS: ReadonlySet<string> = new Set(["for", "by", "in", "on", "with", "from"]);

/** A loaded index, ready for queries. */
export class OperationSearch {
  private readonly docs: IndexedOperation[];
  private readonly k1: number;
  private readonly terms: Map<string, number[]>;
  private readonly sortedTerms: string[];
  private readonly byName: Map<string, number>;
  private buffers: { totals: Float64Array; matched: Float64Array; best: Float64Array } | undefined;
  /** The API's collections and id prefixes (see withIdResources). */
  private readonly collections: string[][];
  private readonly ids: ReadonlyMap<string, string[]>;
  /** The lexicon queries are read with. */
  readonly lexicon: Lexicon;
  /** Analysed words of each operation's name (and its qualifiers), computed on first use. */
  private readonly nameTerms: Array<{ terms: string[]; qualifiers: string[] } | undefined> = [];

  constructor(data: SearchIndexData) {
    if (data.format !== SEARCH_INDEX_FORMAT)
      throw new Error(
        `search index format ${String(data.format)} is not ${SEARCH_INDEX_FORMAT}: regenerate the server`,
      );
    this.docs = data.docs;
    this.k1 = data.k1;
    this.terms = new Map(Object.entries(data.terms));
    this.sortedTerms = [...this.terms.keys()].sort();
    this.byName = new Map(data.docs.map((doc, id) => [doc[0], id]));
    this.lexicon = new Lexicon(data.lexicon);
    this.collections = data.collections ?? [];
    this.ids = new Map(Object.entries(data.ids ?? {}));
  }

  /** The API's tags with their number of operations (among those `allowed` accepts), most first. */
  tags(allowed: (name: string) => boolean = () => true): Array<{ tag: string; operations: number }> {
    const counts = new Map<string, number>();
    for (const doc of this.docs)
      if (allowed(doc[0])) for (const tag of doc[4]) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    return [...counts]
      .map(([tag, operations]) => ({ tag, operations }))
      .sort((a, b) => b.operations - a.operations || a.tag.localeCompare(b.tag));
  }

  /** The operations of one tag (case-insensitive), in the document's order. */
  withTag(tag: string, options: SearchOptions): SearchHit[] {
    const wanted = tag.toLowerCase();
    const hits: SearchHit[] = [];
    for (const doc of this.docs) {
      if (hits.length >= options.limit) break;
      if (doc[4].some((t) => t.toLowerCase() === wanted) && (options.allowed?.(doc[0]) ?? true)) hits.push(hitOf(doc));
    }
    return hits;
  }

  /** Number of indexed operations. */
  get size(): number {
    return this.docs.length;
  }

  /** The indexed facts of operation `name`, if it is indexed. */
  operation(name: string): IndexedOperation | undefined {
    const id = this.byName.get(name);
    return id === undefined ? undefined : this.docs[id];
  }

  /** The best operations for `query`, best first (ties in index order). */
  search(query: string, options: SearchOptions): SearchHit[] {
    const tag = options.tag?.toLowerCase();
    const accept = (id: number): boolean => {
      const doc = this.docs[id]!;
      if (tag !== undefined && !doc[4].some((t) => t.toLowerCase() === tag)) return false;
      return options.allowed ? options.allowed(doc[0]) : true;
    };
    query = this.withIdResources(query.slice(0, MAX_QUERY_CHARS));
    const raw = requestWords(query);
    const read = this.lexicon.query(raw, MAX_QUERY_TERMS);
    const queryTerms = [...new Set([...this.withoutUnknownUn(read.terms), ...this.compounds(raw)])].slice(
      0,
      MAX_QUERY_TERMS,
    );
    const typed = new Set(queryTerms);
    const { totals, matched, best } = this.scratch();
    const touched: number[] = [];
    // Words the index does not know (names, numbers: "alice", "17") do not count against coverage.
    let known = 0;
    for (const concept of concepts(queryTerms, this.lexicon)) {
      const alternatives = this.alternatives(concept, typed);
      if (alternatives.length > 0) known++;
      // Per document, the best of the concept's words and their stand-ins (a document saying both
      // "get" and "show" must not count the request twice, nor a request saying both "make" and
      // "new"); a stand-in never counts more than the words typed.
      let typedIdf = Number.NEGATIVE_INFINITY;
      for (const term of concept) if (this.terms.has(term)) typedIdf = Math.max(typedIdf, this.idf(term));
      if (typedIdf === Number.NEGATIVE_INFINITY) typedIdf = Number.POSITIVE_INFINITY;
      const seen: number[] = [];
      for (const [alternative, weight] of alternatives) this.score(alternative, weight, best, seen, typedIdf);
      // How fully a document matches the term, 0 … 1: a strong field (name, summary, path) counts
      // whole, a passing mention (an enum value, a parameter name) a little.
      const fullIdf = Math.min(typedIdf, Math.max(0, ...alternatives.map(([alternative]) => this.idf(alternative))));
      for (const id of seen) {
        if (matched[id] === 0) touched.push(id);
        totals[id] += best[id]!;
        matched[id] += Math.min(1, best[id]! / (fullIdf * FULL_MATCH));
        best[id] = 0;
      }
    }
    // Implied terms add to the operations the request matched, and count for nothing else.
    const implied = read.implied;
    for (const term of implied) {
      if (typed.has(term)) continue;
      const seen: number[] = [];
      this.score(term, IMPLIED_WEIGHT, best, seen, Number.POSITIVE_INFINITY);
      for (const id of seen) {
        if (matched[id] !== 0) totals[id] += best[id]!;
        best[id] = 0;
      }
    }
    // Exact tool name typed as the query: that operation first.
    const exact = this.byName.get(query.trim());
    if (exact !== undefined) {
      if (matched[exact] === 0) touched.push(exact);
      totals[exact] += 1000;
      matched[exact] = Math.max(1, matched[exact]!);
    }
    const explained = new Set([...queryTerms, ...implied].flatMap((term) => [term, ...this.lexicon.synonyms(term)]));
    const asking = read.asks;
    const changing = read.changes;
    const count = Math.max(1, known);
    const top = new TopK(options.limit);
    for (const id of touched) {
      // Documents matching more of the request rank above those matching one word strongly.
      const covered = totals[id]! * Math.min(1, matched[id]! / count) ** COVERAGE_POWER;
      totals[id] = 0;
      matched[id] = 0;
      // Name precision (≤ 1) can only lower a score: only candidates that could enter pay for it.
      if (!top.admits(covered, id)) continue;
      const score =
        covered *
        this.namePrecision(id, explained) *
        (asking && this.docs[id]![1] !== "GET" ? WRITE_WHEN_ASKING : 1) *
        (changing && this.docs[id]![1] === "GET" ? READ_WHEN_CHANGING : 1);
      if (top.admits(score, id) && accept(id)) top.add(score, id);
    }
    return top.sorted().map(([, id]) => hitOf(this.docs[id]!));
  }

  /** NAME_FLOOR … 1: how much of operation `id`'s name the request explains (see NAME_FLOOR). */
  private namePrecision(id: number, explained: ReadonlySet<string>): number {
    // Left out of the name: the HTTP method (`PostBooksBook`: the method field scores intent) and
    // words that only name a path parameter (`…BookId`): ids a request gives, not words.
    const { terms, qualifiers } = (this.nameTerms[id] ??= (() => {
      const [name, method, path] = this.docs[id]!;
      const analyze = (text: string) => this.lexicon.analyze(text);
      const verb = new Set(analyze(method));
      const literal = new Set(analyze(path.replace(/\{[^}]*\}/g, " ")));
      const parameters = new Set(analyze((path.match(/\{[^}]*\}/g) ?? []).join(" ")));
      const keep = (term: string) => !verb.has(term) && !(parameters.has(term) && !literal.has(term));
      // Words after "for", "by", "in" … narrow where the operation applies (`create-for-authenticated-user`,
      // `get-by-username`): a request rarely says them, so they count only when it does.
      const raw = words(name);
      const cut = raw.findIndex((word) => QUALIFIER_WORDS.has(word));
      const head = cut < 0 ? raw : raw.slice(0, cut);
      const tail = cut < 0 ? [] : raw.slice(cut + 1);
      return {
        terms: [...new Set(analyze(head.join(" ")))].filter(keep),
        qualifiers: [...new Set(analyze(tail.join(" ")))].filter(keep),
      };
    })());
    let counted = terms.length;
    let hits = 0;
    for (const term of terms) if (explained.has(term)) hits++;
    for (const term of qualifiers) {
      if (explained.has(term)) {
        counted++;
        hits++;
      }
    }
    return counted === 0 ? 1 : NAME_FLOOR + ((1 - NAME_FLOOR) * hits) / counted;
  }

  /**
   * An id written with a type prefix ("bk_9Q") names what it is the id of: a prefix the document's
   * examples show, else the one collection (path segment before a parameter) it abbreviates best
   * (see abbreviationRank). The id is read as the collection's words; otherwise it stays a value.
   */
  private withIdResources(query: string): string {
    let resolved = 0;
    return query.replace(/\b([a-z]{2,6})_([A-Za-z0-9]+)\b/g, (id, prefix: string, rest: string) => {
      // snake_case words ("payment_intent") are words, not ids: an id has a digit or a capital.
      if (!/[0-9A-Z]/.test(rest) || ++resolved > MAX_ID_RESOURCES) return id;
      const known = this.ids.get(prefix.toLowerCase());
      if (known) return ` ${known.join(" ")} `;
      const collections = this.collections;
      let best: string[] | undefined;
      let bestRank = Number.POSITIVE_INFINITY;
      let tied = false;
      for (const words of collections) {
        const rank = abbreviationRank(prefix, words);
        if (rank < bestRank) [best, bestRank, tied] = [words, rank, false];
        else if (rank === bestRank && rank !== Number.POSITIVE_INFINITY) tied = true;
      }
      return best && !tied ? ` ${best.join(" ")} ` : id;
    });
  }

  /**
   * Two words of the request written as one in the API ("line item" → `lineitems`): the joined
   * word, when the index has it.
   */
  private compounds(list: readonly string[]): string[] {
    const found: string[] = [];
    for (let i = 0; i + 1 < list.length; i++) {
      const joined = stem(list[i]! + list[i + 1]!);
      if (this.terms.has(joined)) found.push(joined);
    }
    return found;
  }

  /** Per-document accumulators, allocated once and left zeroed after every search. */
  private scratch(): { totals: Float64Array; matched: Float64Array; best: Float64Array } {
    return (this.buffers ??= {
      totals: new Float64Array(this.docs.length),
      matched: new Float64Array(this.docs.length),
      best: new Float64Array(this.docs.length),
    });
  }

  /**
   * An un- verb the index does not know ("unwatch", "unfollow" where the API has none) is the verb
   * undone: in REST, deleting what the verb made (DELETE …/subscription, DELETE …/following).
   */
  private withoutUnknownUn(terms: string[]): string[] {
    return terms.flatMap((term) =>
      term.startsWith("un") && term.length > 4 && !this.terms.has(term) && this.terms.has(term.slice(2))
        ? [term.slice(2), stem("delete")]
        : [term],
    );
  }

  /** The indexed terms that stand for the query terms of `concept`, with their weights. */
  private alternatives(concept: readonly string[], typed: ReadonlySet<string>): Array<[string, number]> {
    const list: Array<[string, number]> = [];
    const listed = new Set<string>();
    for (const term of concept) if (this.terms.has(term)) list.push([term, 1]);
    for (const term of concept) {
      for (const synonym of this.lexicon.synonyms(term)) {
        if (!typed.has(synonym) && this.terms.has(synonym) && !listed.has(synonym)) {
          listed.add(synonym);
          list.push([synonym, SYNONYM_WEIGHT]);
        }
      }
    }
    if (list.length === 0)
      for (const term of concept)
        if (term.length >= 3) for (const prefixed of this.withPrefix(term)) list.push([prefixed, PREFIX_WEIGHT]);
    return list;
  }

  /** Indexed terms starting with `prefix` (binary search in the sorted terms), at most PREFIX_MAX. */
  private withPrefix(prefix: string): string[] {
    let lo = 0;
    let hi = this.sortedTerms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sortedTerms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: string[] = [];
    for (
      let i = lo;
      i < this.sortedTerms.length && found.length < PREFIX_MAX && this.sortedTerms[i]!.startsWith(prefix);
      i++
    )
      found.push(this.sortedTerms[i]!);
    return found;
  }

  /** Inverse document frequency of an indexed term. */
  private idf(term: string): number {
    const df = this.terms.get(term)!.length / 2;
    const n = this.docs.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Raises `best[id]` to the BM25 contribution of `term` × `weight` for every document holding the
   * term (idf capped at `maxIdf`); ids first raised from 0 are pushed on `seen`.
   */
  private score(term: string, weight: number, best: Float64Array, seen: number[], maxIdf: number): void {
    const postings = this.terms.get(term);
    if (!postings) return;
    const idf = Math.min(this.idf(term), maxIdf);
    const k1 = this.k1;
    for (let i = 0; i < postings.length; i += 2) {
      const id = postings[i]!;
      const tf = postings[i + 1]! / 100;
      const value = (weight * idf * tf * (k1 + 1)) / (k1 + tf);
      const current = best[id]!;
      if (current === 0) seen.push(id);
      if (value > current) best[id] = value;
    }
  }
}

/**
 * How well an id prefix abbreviates a collection's words (lower is better; infinity: not at all):
 * 0 the first word's start ("book" → books), 1 the words' initials ("li" → line items), 2 the first
 * word's start and the initials of the rest, 3 three letters or more of a one-word name in order
 * ("acct" → accounts). Fewer, then shorter, words win within a rule; a two-letter prefix must be
 * initials or start a one-word name.
 */
function abbreviationRank(prefix: string, words: readonly string[]): number {
  const first = words[0]!;
  const size = words.length * 100 + words.join("").length;
  const tiers: boolean[] = [
    first.startsWith(prefix) && (prefix.length >= 3 || words.length === 1),
    words.length >= 2 && words.map((word) => word[0]).join("") === prefix,
    words.length >= 2 &&
      prefix.length > words.length &&
      first.startsWith(prefix.slice(0, prefix.length - words.length + 1)) &&
      words
        .slice(1)
        .map((word) => word[0])
        .join("") === prefix.slice(prefix.length - words.length + 1),
    words.length === 1 && prefix.length >= 3 && prefix[0] === first[0] && isSubsequence(prefix, first),
  ];
  const tier = tiers.indexOf(true);
  return tier < 0 ? Number.POSITIVE_INFINITY : tier * 10_000 + size;
}

/** Whether the letters of `short` appear in `long` in order. */
function isSubsequence(short: string, long: string): boolean {
  let at = 0;
  for (const letter of long) if (letter === short[at]) at++;
  return at === short.length;
}

/**
 * The request's terms grouped into concepts: verbs of one action group ("make a new team", "show me
 * the list") say one thing and count once, for score and coverage. Only the action groups: other
 * groups join words that are related but not the same ("email address", "download the archive").
 */
function concepts(terms: readonly string[], lexicon: Lexicon): string[][] {
  const groups: string[][] = [];
  // Action group → the first concept holding a term of it: one look-up per group of a term, so the
  // grouping is linear in the request's terms (a term joins the earliest concept it shares a group with).
  const conceptOf = new Map<string, number>();
  for (const term of terms) {
    const actions = lexicon.actions(term);
    let at = Number.POSITIVE_INFINITY;
    for (const group of actions) at = Math.min(at, conceptOf.get(group) ?? Number.POSITIVE_INFINITY);
    if (at === Number.POSITIVE_INFINITY) {
      at = groups.length;
      groups.push([term]);
    } else groups[at]!.push(term);
    for (const group of actions) if ((conceptOf.get(group) ?? Number.POSITIVE_INFINITY) > at) conceptOf.set(group, at);
  }
  return groups;
}

/** The k best [score, id] pairs (higher score first; equal scores: lower id first), as a min-heap. */
class TopK {
  private readonly heap: Array<[number, number]> = [];
  constructor(private readonly k: number) {}

  /** Whether a pair would enter the k best (checked before the costlier filters). */
  admits(score: number, id: number): boolean {
    return this.k > 0 && (this.heap.length < this.k || worse(this.heap[0]!, [score, id]));
  }

  add(score: number, id: number): void {
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push([score, id]);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
      return;
    }
    heap[0] = [score, id];
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }

  /** The pairs, best first. */
  sorted(): Array<[number, number]> {
    return [...this.heap].sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  }
}

/** A search result of an indexed operation. */
function hitOf([name, method, path, summary, , required]: IndexedOperation): SearchHit {
  return { name, method, path, summary, required };
}

/** Whether pair `a` ranks below pair `b`. */
function worse(a: [number, number], b: [number, number]): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] > b[1]);
}
