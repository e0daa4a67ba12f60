/**
 * Text analysis for operation search: a tokenizer, a stemmer and the lexicon (search-lexicon.json, carried
 * in data/search-index.json); the index (`analyze`) and queries (`query`) are read with the same lexicon.
 */

/** The lexicon as data (search-lexicon.json's `about` says what each section is). */
export interface LexiconData {
  stopwords?: string[];
  drop?: string[][];
  joins?: string[][];
  abbreviations?: Record<string, string>;
  actions?: Record<string, string[]>;
  synonyms?: string[][];
  implies?: Record<string, string[]>;
  questions?: string[];
}

/** The actions that change something; the others (list, get, search) only look. */
const CHANGES: ReadonlySet<string> = new Set(["create", "delete", "update"]);

/** Lower-case words: camelCase, snake_case, kebab-case, paths and punctuation separate them; markup is left out. */
export function words(text: string): string[] {
  return text
    .replace(/<[^>]*>/g, " ")
    .replace(/\b([A-Z]{2,})s\b/g, (_, acronym: string) => `${acronym.toLowerCase()}s`) // "APIs", "URLs"
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** A light English stemmer (plural, -ed, -ing, final -e): "repositories" → "repository", "merged" → "merg". */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /^\d+$/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (/(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const ending = w.endsWith("ing") && w.length > 5 ? 3 : w.endsWith("ed") && w.length > 4 ? 2 : 0;
  // The consonant doubled before -ing/-ed goes ("starred" → "star"), not ll, ss, zz ("billing" → "bill").
  if (ending > 0) w = w.slice(0, -ending).replace(/([b-df-hj-km-rtv-y])\1$/, "$1");
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  // Agent nouns onto their verb ("contributor" → "contribut"); long words only ("author" ≠ "auth").
  else if (w.endsWith("or") && w.length > 7) w = w.slice(0, -2);
  return w;
}

/** The lexicon compiled for look-ups (stems); built once per index. */
export class Lexicon {
  private readonly stopwords: ReadonlySet<string>;
  /** First word → phrases starting with it, longest first: [words, the word they become ("" drops them)]. */
  private readonly phrases = new Map<string, Array<[string[], string]>>();
  private readonly folds: ReadonlyMap<string, string>;
  private readonly actionsOf = new Map<string, string[]>();
  private readonly synonymsOf = new Map<string, Set<string>>();
  private readonly implies: ReadonlyMap<string, string[]>;
  private readonly questions: string[][];

  constructor(data: LexiconData = {}) {
    this.stopwords = new Set(data.stopwords ?? []);
    const phrases: Array<[string[], string]> = [
      ...(data.drop ?? []).map((p): [string[], string] => [p, ""]),
      ...(data.joins ?? []).map((p): [string[], string] => [p.slice(0, -1), p.at(-1)!]),
    ].sort((a, b) => b[0].length - a[0].length);
    for (const p of phrases) this.phrases.set(p[0][0]!, [...(this.phrases.get(p[0][0]!) ?? []), p]);
    const folds = Object.entries(data.abbreviations ?? {});
    this.folds = new Map([...folds, ...folds.map(([from, to]): [string, string] => [stem(from), to])]);
    const groups = [...(data.synonyms ?? [])];
    for (const [action, list] of Object.entries(data.actions ?? {})) {
      groups.push([action, ...list]);
      for (const term of [action, ...list].map((w) => this.term(w.replace(/^~/, ""))))
        this.actionsOf.set(term, [...new Set([...(this.actionsOf.get(term) ?? []), action])]);
    }
    // A word written ~word leads to its group; nothing leads back to it.
    for (const group of groups) {
      const targets = group.filter((w) => !w.startsWith("~")).map((w) => this.term(w));
      for (const source of group.map((w) => this.term(w.replace(/^~/, "")))) {
        const set = this.synonymsOf.get(source) ?? new Set<string>();
        for (const target of targets) if (target !== source) set.add(target);
        this.synonymsOf.set(source, set);
      }
    }
    this.implies = new Map(Object.entries(data.implies ?? {}).map(([w, list]) => [w, list.map((t) => this.term(t))]));
    this.questions = (data.questions ?? []).map((q) => q.split(" "));
  }

  /** The term of one word: its abbreviation's canonical form, else its stem. */
  term(word: string): string {
    const stemmed = stem(word);
    return this.folds.get(word) ?? this.folds.get(stemmed) ?? stemmed;
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
      if (match && match[1] !== "") out.push(match[1]);
      if (!match) out.push(list[i]!);
      i += match ? match[0].length : 1;
    }
    return out;
  }

  /** The terms the index stores for a text: words, phrases read, stopwords out, stemmed. */
  analyze(text: string): string[] {
    return this.read(words(text))
      .filter((w) => !this.stopwords.has(w))
      .map((w) => this.term(w));
  }

  /**
   * Reads a request once (values already taken out, see requestWords): its terms (stems, in order); terms
   * it implies ("my": the current user), which explain an operation's name but are not searched; whether
   * it only asks to know (served by reading), only says to change (served by a write), or names things in
   * the plural and nothing to change (served by a list rather than one item).
   */
  query(raw: string[], maxTerms: number) {
    const list = this.read(raw);
    const asked = this.questions.some((q) => q.every((w, k) => raw[k] === w));
    const terms = list
      .filter((w) => !this.stopwords.has(w))
      .slice(0, maxTerms)
      .map((w) => this.term(w));
    const actions = new Set(terms.flatMap((t) => this.actions(t)));
    const changing = [...actions].some((a) => CHANGES.has(a));
    return {
      terms,
      // Things in the plural, with nothing to change ("overdue loans", "show the books"), are listed.
      lists: !changing && list.some((w) => w.length > 3 && /[^su]s$/.test(w) && stem(w) !== w),
      implied: raw.flatMap((w) => this.implies.get(w) ?? []),
      // A request starting with a dropped phrase ("how do I …", "can you …") asks to do, not to know.
      asks: asked && list[0] === raw[0] && !changing,
      changes: !asked && changing && [...actions].every((a) => CHANGES.has(a)),
    };
  }
}

/**
 * A request's words without the values it gives: quoted text, e-mail addresses, URLs, ids with digits
 * ("bk_123"), `owner/name` slugs, `#12`, numbers and versions name things, they are not words to match.
 */
export function requestWords(query: string): string[] {
  return words(
    query
      .replace(/(?<![\w'])'[^'\n]{1,60}'(?![\w'])|"[^"\n]{1,60}"|“[^”\n]{1,60}”|`[^`\n]{1,60}`/g, " ")
      .replace(/\S+@\S+\.[a-z]{2,}/gi, " ")
      .replace(/\bhttps?:\/\/\S+/gi, " ")
      .replace(/\b[a-z]+_[a-z0-9]*\d[a-z0-9]*\b/gi, " ")
      .replace(/(^|\s)[\w.-]+\/[\w.-]+(?=[\s,.?!]|$)/g, " ")
      // A file name is a file ("package.json").
      .replace(/\b[\w-]*[a-z][\w-]*\.(?:[a-z]{1,4})\b(?![.@\w])/gi, (name) =>
        /\.(com|org|net|io|dev)$/i.test(name) ? " " : " file ",
      )
      .replace(/#\d+|\bv?\d+(?:\.\d+)*\b/gi, " "),
  );
}

/** The action of each HTTP method on a collection and on an item (a path ending in a parameter). */
const VERBS: Partial<Record<string, [collection: string, item: string]>> = {
  get: ["list", "get"],
  post: ["create", "update"],
  put: ["update", "update"],
  patch: ["update", "update"],
  delete: ["delete", "delete"],
};

/** The action of an HTTP method on a path: a GET on a collection lists, on an item gets. */
export function methodVerbs(method: string, path: string): string {
  return VERBS[method.toLowerCase()]?.[/\}\/?$/.test(path) ? 1 : 0] ?? "";
}

/** Name words after which the rest of a name only qualifies it (`create-for-authenticated-user`): not counted. */
const QUALIFIER_WORDS: ReadonlySet<string> = new Set(["for", "by", "in", "on", "with", "from"]);

/**
 * The analysed words of an operation's name that say what it does (the index stores them, see
 * OperationSearch.namePrecision). Left out: the HTTP method, qualifiers, and words that only name a path
 * parameter (`…BookId`).
 */
export function nameTerms(lexicon: Lexicon, name: string, method: string, path: string): string[] {
  const analyze = (text: string) => new Set(lexicon.analyze(text));
  const verb = analyze(method);
  const literal = analyze(path.replace(/\{[^}]*\}/g, " "));
  const parameters = analyze((path.match(/\{[^}]*\}/g) ?? []).join(" "));
  const list = words(name);
  const cut = list.findIndex((word) => QUALIFIER_WORDS.has(word));
  const head = analyze(list.slice(0, cut < 0 ? list.length : cut).join(" "));
  return [...head].filter((term) => !verb.has(term) && !(parameters.has(term) && !literal.has(term)));
}
