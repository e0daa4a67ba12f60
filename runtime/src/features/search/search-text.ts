/**
 * Text analysis for operation search: one tokenizer and stemmer, and one engine that applies the
 * lexicon (data: generator/emit/search-lexicon.json, carried in data/search-index.json). The index
 * is built with `analyze` and a query is read once by `analyzeQuery`, with the same lexicon, so both
 * sides agree term for term. Pure functions, no dependencies.
 */

/** The lexicon as data (see generator/emit/search-lexicon.json, whose `about` says what each section is). */
export interface LexiconData {
  stopwords?: string[];
  drop?: string[][];
  joins?: string[][];
  abbreviations?: Record<string, string>;
  actions?: Record<string, string[]>;
  synonyms?: string[][];
  implies?: Record<string, string[]>;
  states?: string[];
  questions?: string[];
}

/** The actions that change something; the others (list, get, search) only look. */
const CHANGES: ReadonlySet<string> = new Set(["create", "delete", "update"]);

/**
 * Splits text into lower-case words: camelCase humps, snake_case, kebab-case, path segments and
 * punctuation all separate words ("listForOrg" → list, for, org); markup is left out.
 */
export function words(text: string): string[] {
  let spaced = text.includes("<") ? text.replace(/<[^>]*>/g, " ") : text;
  if (/[A-Z]/.test(spaced))
    spaced = spaced
      // Acronym plurals stay one word: "APIs", "URLs".
      .replace(/\b([A-Z]{2,})s\b/g, (_, acronym: string) => `${acronym.toLowerCase()}s`)
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  return spaced
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** A light English stemmer (plural, -ed, -ing, final -e): "repositories" → "repository", "merged" → "merg". */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /^\d+$/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (/(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  // Agent nouns onto their verb ("contributor" → "contribut"); long words only ("author" ≠ "auth").
  else if (w.endsWith("or") && w.length > 7) w = w.slice(0, -2);
  return w;
}

/** "starr" → "star": the consonant doubled before -ing/-ed. */
function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;
}

/** Whether a word is a plural noun (or a verb's -s form): what a request lists. */
function plural(word: string): boolean {
  return word.length > 3 && /[^su]s$/.test(word) && !/(is|ss)$/.test(word);
}

/** What a query says, read once (see Lexicon.query). */
export interface QueryAnalysis {
  /** Its terms (stems), in order, at most `maxTerms`. */
  terms: string[];
  /** Terms it implies without saying them: weighed lightly, never required. */
  implied: string[];
  /** The actions its terms name (create, delete, list, get, update, search). */
  actions: Set<string>;
  /** It only asks to know something (a question naming no change): served by reading. */
  asks: boolean;
  /** It says only to change something: served by an operation that writes. */
  changes: boolean;
}

/** The lexicon compiled for look-ups (stems); built once per index. */
export class Lexicon {
  private readonly stopwords: ReadonlySet<string>;
  /** First word → phrases starting with it: [words, the word they become ("" drops them)]. */
  private readonly phrases = new Map<string, Array<[string[], string]>>();
  private readonly folds: ReadonlyMap<string, string>;
  private readonly actionsOf = new Map<string, string[]>();
  private readonly synonymsOf = new Map<string, Set<string>>();
  private readonly implies: ReadonlyMap<string, string[]>;
  private readonly states: ReadonlySet<string>;
  private readonly questions: string[][];

  constructor(data: LexiconData = {}) {
    this.stopwords = new Set(data.stopwords ?? []);
    // Longest phrases first, so that "how do i" is read before "how".
    const phrases: Array<[string[], string]> = [
      ...(data.drop ?? []).map((p): [string[], string] => [p, ""]),
      ...(data.joins ?? []).map((p): [string[], string] => [p.slice(0, -1), p.at(-1)!]),
    ].sort((a, b) => b[0].length - a[0].length);
    for (const phrase of phrases) {
      const list = this.phrases.get(phrase[0][0]!) ?? [];
      list.push(phrase);
      this.phrases.set(phrase[0][0]!, list);
    }
    this.folds = new Map(
      Object.entries(data.abbreviations ?? {}).flatMap(([from, to]) => [
        [from, to],
        [stem(from), to],
      ]),
    );
    const groups = [...(data.synonyms ?? [])];
    for (const [action, list] of Object.entries(data.actions ?? {})) {
      groups.push([action, ...list]);
      for (const word of [action, ...list]) {
        const term = this.term(word.replace(/^~/, ""));
        const known = this.actionsOf.get(term) ?? [];
        if (!known.includes(action)) this.actionsOf.set(term, [...known, action]);
      }
    }
    for (const group of groups) {
      const targets = group.filter((w) => !w.startsWith("~")).map((w) => this.term(w));
      for (const source of group.map((w) => this.term(w.replace(/^~/, "")))) {
        const set = this.synonymsOf.get(source) ?? new Set<string>();
        for (const target of targets) if (target !== source) set.add(target);
        this.synonymsOf.set(source, set);
      }
    }
    this.implies = new Map(Object.entries(data.implies ?? {}).map(([w, list]) => [w, list.map((t) => this.term(t))]));
    this.states = new Set(data.states ?? []);
    this.questions = (data.questions ?? []).map((q) => q.split(" "));
  }

  /** The term of one word: its abbreviation's canonical form, else its stem. */
  term(word: string): string {
    const folded = this.folds.get(word);
    if (folded !== undefined) return folded;
    const stemmed = stem(word);
    return this.folds.get(stemmed) ?? stemmed;
  }

  /** Other terms that mean what `term` means. */
  synonyms(term: string): Iterable<string> {
    return this.synonymsOf.get(term) ?? [];
  }

  /** The actions (create, delete, list, get, update, search) a term names. */
  actions(term: string): readonly string[] {
    return this.actionsOf.get(term) ?? [];
  }

  /** Words with the lexicon's phrases read: joined phrases become one word, dropped ones go. */
  private read(list: string[]): string[] {
    const out: string[] = [];
    for (let i = 0; i < list.length; ) {
      const match = this.phrases.get(list[i]!)?.find(([p]) => p.every((w, k) => list[i + k] === w));
      if (match) {
        if (match[1] !== "") out.push(match[1]);
        i += match[0].length;
      } else out.push(list[i++]!);
    }
    return out;
  }

  /** The terms the index stores for a text: words, phrases read, stopwords out, stemmed. */
  analyze(text: string): string[] {
    return this.read(words(text))
      .filter((w) => !this.stopwords.has(w))
      .map((w) => this.term(w));
  }

  /** Reads a request once (values already taken out, see requestWords): its terms, implications and intent. */
  query(raw: string[], maxTerms: number): QueryAnalysis {
    const asked = this.questions.some((q) => q.every((w, k) => raw[k] === w));
    const list = this.read(raw);
    // A request starting with a dropped phrase ("how do I …", "can you …") asks to do, not to know.
    const asks = asked && list[0] === raw[0];
    const terms: string[] = [];
    const implied: string[] = [];
    const actions = new Set<string>();
    let plurals = false;
    for (let i = 0; i < list.length && terms.length < maxTerms; i++) {
      const word = list[i]!;
      for (const t of this.implies.get(word) ?? []) implied.push(t);
      if (this.stopwords.has(word)) continue;
      // A state before a plural ("open tickets", "failed payments") filters what is listed.
      const next = list
        .slice(i + 1, i + 5)
        .filter((w) => !this.stopwords.has(w))
        .slice(0, 2);
      if (this.states.has(word) && next.some(plural)) {
        implied.push(this.term(word));
        continue;
      }
      const term = this.term(word);
      if (plural(word) && term !== word) plurals = true;
      terms.push(term);
      for (const action of this.actions(term)) actions.add(action);
    }
    const changing = [...actions].some((a) => CHANGES.has(a));
    // Things in the plural, with no action but looking, are listed ("open tickets", "show the invoices").
    if (plurals && !changing) implied.push("list");
    return {
      terms,
      implied,
      actions,
      asks: asks && !changing,
      changes: !asked && changing && [...actions].every((a) => CHANGES.has(a)),
    };
  }
}

/**
 * A request's words without the values it gives: quoted text, e-mail addresses, URLs, ids with
 * digits ("bk_123"), `owner/name` slugs, `#12`, numbers and versions name things, they are not
 * words to match.
 */
export function requestWords(query: string): string[] {
  return words(
    query
      .replace(/(?<![\w'])'[^'\n]{1,60}'(?![\w'])|"[^"\n]{1,60}"|“[^”\n]{1,60}”|`[^`\n]{1,60}`/g, " ")
      // What a message should say is its content, not words to match ("reply saying thanks", "file a
      // bug: the page is blank"); so is a clause that says why ("delete it, it's unused").
      .replace(/\b(?:saying|that says|which says)\b.*$|:\s.*$/i, " ")
      .replace(/[,;]\s*(?:it|they|this|that|he|she)(?:'s|'re| is| are| was| were| has| have)\b[^,;]*/gi, " ")
      // "Stop doing" is the un- verb ("stop watching" → unwatch; see OperationSearch.withoutUnknownUn).
      .replace(/\b(?:stop|quit)\s+([a-z]{3,})ing\b/gi, "un$1ing")
      .replace(/\S+@\S+\.[a-z]{2,}/gi, " ")
      .replace(/\bhttps?:\/\/\S+/gi, " ")
      .replace(/\b[a-z]+_[a-z0-9]*\d[a-z0-9]*\b/gi, " ")
      .replace(/(^|\s)[\w.-]+\/[\w.-]+(?=[\s,.?!]|$)/g, " ")
      // A file name is a file ("package.json"); a hyphenated name is a value ("needs-triage"), but
      // not a word made with an English prefix ("re-run", "un-archive", "e-mail").
      .replace(/\b[\w-]*[a-z][\w-]*\.(?:[a-z]{1,4})\b(?![.@\w])/gi, (name) =>
        /\.(com|org|net|io|dev)$/i.test(name) ? " " : " file ",
      )
      .replace(/(?<![\w.-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w.-])/gi, (name) =>
        /^(?:e|re|pre|co|un|non|sub|multi|de|opt|sign|log|check|set|follow|one|two|third)-[a-z]+$/i.test(name)
          ? name
          : " ",
      )
      .replace(/#\d+|\bv?\d+(?:\.\d+)*\b/gi, " "),
  );
}

/**
 * The action an HTTP method and path perform, indexed with the operation so that "delete the label"
 * finds a DELETE and "list labels" a GET on a collection (a path not ending in a parameter).
 */
export function methodVerbs(method: string, path: string): string {
  const item = /\}\/?$/.test(path);
  switch (method.toLowerCase()) {
    case "get":
      return item ? "get" : "list";
    case "post":
      // Some APIs update with POST on an item.
      return item ? "update" : "create";
    case "put":
    case "patch":
      return "update";
    case "delete":
      return "delete";
    default:
      return "";
  }
}
