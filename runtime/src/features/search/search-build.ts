/**
 * Builds the operation search index (BM25F) at generation (a server without one builds it on its first search).
 * What is specific to an API comes from its document; the index records the fields each term came from.
 */
import { Lexicon, methodVerbs, nameTerms, words, type LexiconData } from "./search-text.js";
import { encodePostings } from "./postings.js";
import { SEARCH_INDEX_FORMAT, type IndexedOperation, type SearchIndexData } from "./search-index.js";
import type { ToolDefinition } from "../../api/types.js";

/** What the index needs to know of one operation. */
export interface SearchDocument {
  name: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tags: string[];
  /** Names (and titles) of the tool's arguments, body properties included. */
  parameters: string[];
  /** Values of its short string enums, nested ones included (absent: none). */
  values?: string[];
  /** The arguments a call needs (absent: none). */
  required?: string[];
  /** Id prefix → the collection it names, from the examples and patterns of path parameters ("bk" → "books"). */
  ids?: Record<string, string>;
  /** What the spec's tags (`x-displayName`) and `x-` titles call it (the generator's plan; absent: none). */
  titles?: string[];
}

/** BM25 saturation constant; characters of a description indexed (its opening says what matters); of a summary shown. */
const K1 = 1.2;
const DESCRIPTION_MAX = 600;
const SUMMARY_MAX = 100;
/** Enum lists longer than this are codes, not words a request would use. */
const ENUM_WORDS_MAX = 12;

/**
 * Field weights and length normalisation (b), in the order of the bits of the index's `sources`: 1 name,
 * 2 summary, 4 path, 8 tags, 16 method, 32 arguments, 64 enum values, 128 description, 256 titles.
 */
const FIELDS: Array<{ get: (d: SearchDocument) => string; weight: number; b: number }> = [
  { get: (d) => d.name, weight: 3, b: 0.75 },
  { get: (d) => d.summary, weight: 3, b: 0.75 },
  { get: (d) => d.path.replace(/\{[^}]*\}/g, " "), weight: 2, b: 0.3 },
  { get: (d) => d.tags.join(" "), weight: 1.5, b: 0 },
  { get: (d) => methodVerbs(d.method, d.path), weight: 2, b: 0 },
  { get: (d) => d.parameters.join(" "), weight: 0.2, b: 0.5 },
  { get: (d) => (d.values ?? []).join(" "), weight: 0.1, b: 0.5 },
  { get: (d) => d.description.slice(0, DESCRIPTION_MAX), weight: 0.1, b: 0.5 },
  { get: (d) => (d.titles ?? []).join(" "), weight: 1.5, b: 0 },
];

/** Builds the index data for these operations (ids in the given order), read with `lexicon`. */
export function buildSearchIndex(documents: SearchDocument[], lexicon?: LexiconData): SearchIndexData {
  const analyzer = new Lexicon(lexicon);
  const fieldTerms = documents.map((d) => FIELDS.map((field) => analyzer.analyze(field.get(d))));
  const averages = FIELDS.map((_, f) =>
    Math.max(1, fieldTerms.reduce((sum, fields) => sum + fields[f]!.length, 0) / Math.max(1, documents.length)),
  );
  const postings = new Map<string, number[]>();
  const sources = new Map<string, number>();
  fieldTerms.forEach((fields, id) => {
    const weighted = new Map<string, number>();
    fields.forEach((terms, f) => {
      const { weight, b } = FIELDS[f]!;
      for (const term of terms) {
        weighted.set(term, (weighted.get(term) ?? 0) + weight / (1 - b + (b * terms.length) / averages[f]!));
        sources.set(term, (sources.get(term) ?? 0) | (1 << f));
      }
    });
    for (const [term, tf] of weighted) {
      if (!postings.has(term)) postings.set(term, []);
      postings.get(term)!.push(id, Math.max(1, Math.round(tf * 100)));
    }
  });
  const sorted = [...postings.keys()].sort();
  return {
    format: SEARCH_INDEX_FORMAT,
    k1: K1,
    docs: documents.map((d) =>
      JSON.stringify([
        d.name,
        d.method.toUpperCase(),
        d.path,
        d.summary.length > SUMMARY_MAX ? `${d.summary.slice(0, SUMMARY_MAX - 1)}…` : d.summary,
        // Untagged: browsed by the path's first segment after a version (`/v1/books/{id}` → books).
        d.tags.length > 0 ? d.tags : (/^\/(?:v\d+\/)?([^/{]+)/.exec(d.path)?.slice(1) ?? []),
        d.required ?? [],
        nameTerms(analyzer, d.name, d.method.toUpperCase(), d.path),
      ] satisfies IndexedOperation),
    ),
    terms: Object.fromEntries(sorted.map((term) => [term, encodePostings(postings.get(term)!)])),
    sources: Object.fromEntries(sorted.map((term) => [term, sources.get(term)!])),
    ...(lexicon ? { lexicon } : {}),
    collections: collectionsOf(documents),
    ids: Object.fromEntries(
      documents.flatMap((d) => Object.entries(d.ids ?? {}).map(([prefix, collection]) => [prefix, words(collection)])),
    ),
  };
}

/** The API's collections as words: each path segment before a parameter, alone and after the segment before it. */
function collectionsOf(documents: readonly SearchDocument[]): string[][] {
  const found = new Map<string, string[]>();
  for (const { path } of documents)
    for (const [, before = "", segment] of path.matchAll(/(?:([^/{}]+)\/)?([^/{}]+)\/\{/g))
      for (const list of [words(segment!), /^v\d+$/.test(before) ? [] : words(`${before} ${segment}`)])
        if (list.length > 0) found.set(list.join(" "), list);
  return [...found.values()].sort((a, b) => a.join(" ").localeCompare(b.join(" ")));
}

/** The first sentence of a description: the summary of an operation that has none. */
function firstSentence(text: string): string {
  const line = /^\s*(.*)/.exec(text.replace(/<[^>]*>/g, ""))![1]!;
  return /^.*?[.!?](?=\s|$)/.exec(line)?.[0] ?? line;
}

/** The keywords of a property's schema that the index reads. */
type PropertySchema = Partial<Record<"enum" | "title" | "pattern" | "example" | "examples", unknown>> & {
  items?: PropertySchema;
  properties?: Record<string, PropertySchema>;
};

/**
 * Argument names and titles, and short string enums' values, of a schema's properties and nested objects:
 * filters a request names by value ("active members") and actions a body names (`type`: `snapshot`).
 */
function vocabularyOf(properties: Record<string, PropertySchema>, names: string[], values: string[], depth = 0): void {
  for (const [name, schema] of Object.entries(properties)) {
    names.push(name);
    if (typeof schema?.title === "string") names.push(schema.title);
    const list = schema?.enum ?? schema?.items?.enum;
    if (Array.isArray(list) && list.length <= ENUM_WORDS_MAX)
      for (const value of list) if (typeof value === "string") values.push(value);
    const nested = schema?.properties ?? schema?.items?.properties;
    if (nested && depth < 2) vocabularyOf(nested, names, values, depth + 1);
  }
}

/** Id prefixes the path parameters' examples and patterns show (`bk_123`, `^bk_`) → the collection before them. */
function idPrefixes(path: string, properties: Record<string, PropertySchema>): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const [, collection, parameter] of path.matchAll(/([^/{}]+)\/\{([^}]+)\}/g)) {
    const schema = properties[parameter!];
    const shown = [schema?.pattern, schema?.example, ...(Array.isArray(schema?.examples) ? schema.examples : [])];
    for (const text of shown) {
      const prefix = typeof text === "string" ? /^\^?([a-z]{2,6})_/.exec(text)?.[1] : undefined;
      if (prefix) ids[prefix] = collection!;
    }
  }
  return ids;
}

/** The search document of a tool definition (what the generator knows, as the runtime sees it). */
export function searchDocument(tool: ToolDefinition): SearchDocument {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, PropertySchema>;
  const parameters: string[] = [];
  const values: string[] = [];
  vocabularyOf(properties, parameters, values);
  return {
    name: tool.name,
    method: tool.http.method,
    path: tool.http.path,
    summary: tool.title ?? firstSentence(tool.description),
    description: tool.documentation ?? tool.description,
    tags: [...(tool.tags ?? [])],
    parameters,
    values,
    required: Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.map(String) : [],
    ids: idPrefixes(tool.http.path, properties),
  };
}
