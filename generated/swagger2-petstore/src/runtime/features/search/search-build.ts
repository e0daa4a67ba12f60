// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Builds the operation search index (BM25F). The generator runs it once per generation and writes
 * data/search-index.json; a server without that file (an older generation, a hand-built server)
 * builds the same index from its tool definitions on the first search. Each field has a weight
 * and a length normalisation; per term and operation the index stores the weighted, normalised
 * frequency, so a query is only look-ups and sums (search-index.ts).
 */
import { analyze, methodVerbs } from "./search-text.js";
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
  /** Names of the tool's arguments. */
  parameters: string[];
  /** Values of its short string enums (absent: none). */
  values?: string[];
}

/** BM25 saturation constant. */
const K1 = 1.2;

/** Weight of enum values (SearchDocument.values): a hint, below argument names. */
const ENUM_WEIGHT = 0.1;

/** Descriptions longer than this are cut for the index: the opening says what matters. */
const DESCRIPTION_MAX = 600;

/**
 * Field weights and length normalisation (b). Names and summaries say what an operation does;
 * path segments and tags say what it is about; descriptions and parameter names add recall.
 * Chosen on the retrieval benchmark (scripts/bench-search.js): descriptions at 0.1 (b 0.5) rather
 * than 0.25 (b 0.75) ranked better on the tune halves (recall@1 177 → 183 of 268) and on the
 * check halves (recall@5 236 → 238 of 264); the other weights, each tried at about half and
 * double, did not.
 */
const FIELDS: Array<{ get: (d: SearchDocument) => string; weight: number; b: number; prose?: boolean }> = [
  { get: (d) => d.name, weight: 3, b: 0.75 },
  { get: (d) => d.summary, weight: 3, b: 0.75, prose: true },
  { get: (d) => literalPath(d.path), weight: 2, b: 0.3 },
  { get: (d) => d.tags.join(" "), weight: 1.5, b: 0 },
  { get: (d) => methodVerbs(d.method, d.path), weight: 2, b: 0 },
  { get: (d) => d.parameters.join(" "), weight: 0.2, b: 0.5 },
  { get: (d) => (d.values ?? []).join(" "), weight: ENUM_WEIGHT, b: 0.5 },
  { get: (d) => d.description.slice(0, DESCRIPTION_MAX), weight: 0.1, b: 0.5, prose: true },
];

/** The path without its `{parameters}`: `/repos/{owner}/{repo}/pulls` → `/repos///pulls`. */
function literalPath(path: string): string {
  return path.replace(/\{[^}]*\}/g, " ");
}

/** Builds the index data for these operations (ids in the given order). */
export function buildSearchIndex(documents: SearchDocument[]): SearchIndexData {
  const fieldTerms = documents.map((d) => FIELDS.map((field) => analyze(field.get(d), field.prose)));
  const averages = FIELDS.map((_, f) =>
    Math.max(1, fieldTerms.reduce((sum, fields) => sum + fields[f]!.length, 0) / Math.max(1, documents.length)),
  );
  const postings = new Map<string, number[]>();
  fieldTerms.forEach((fields, id) => {
    const weighted = new Map<string, number>();
    fields.forEach((terms, f) => {
      const { weight, b } = FIELDS[f]!;
      const norm = 1 - b + (b * terms.length) / averages[f]!;
      for (const term of terms) weighted.set(term, (weighted.get(term) ?? 0) + weight / norm);
    });
    for (const [term, tf] of weighted) {
      const list = postings.get(term) ?? [];
      list.push(id, Math.max(1, Math.round(tf * 100)));
      postings.set(term, list);
    }
  });
  const terms: Record<string, number[]> = {};
  for (const term of [...postings.keys()].sort()) terms[term] = postings.get(term)!;
  const docs: IndexedOperation[] = documents.map((d) => [d.name, d.method.toUpperCase(), d.path, d.summary, d.tags]);
  return { format: SEARCH_INDEX_FORMAT, k1: K1, docs, terms };
}

/** The first sentence of a description (at most 120 characters): the summary of an operation that has none. */
function firstSentence(text: string): string {
  const line =
    text
      .replace(/<[^>]*>/g, "")
      .trim()
      .split(/\n/)[0] ?? "";
  const sentence = /^.*?[.!?](?=\s|$)/.exec(line)?.[0] ?? line;
  return sentence.length > 120 ? `${sentence.slice(0, 117)}…` : sentence;
}

/** Enum lists longer than this are codes, not words a request would use. */
const ENUM_WORDS_MAX = 12;

/**
 * The values of the tool's short string enums: the filters a request names by value ("active
 * subscriptions": `status` = `active`; "closed issues": `state` = `closed`).
 */
function enumWords(tool: ToolDefinition): string[] {
  const properties = (tool.inputSchema.properties ?? {}) as Record<
    string,
    { enum?: unknown[]; items?: { enum?: unknown[] } }
  >;
  const found: string[] = [];
  for (const schema of Object.values(properties)) {
    const values = schema?.enum ?? schema?.items?.enum;
    if (Array.isArray(values) && values.length <= ENUM_WORDS_MAX)
      for (const value of values) if (typeof value === "string") found.push(value);
  }
  return found;
}

/** The search document of a tool definition (what the generator knows, as the runtime sees it). */
export function searchDocument(tool: ToolDefinition): SearchDocument {
  return {
    name: tool.name,
    method: tool.http.method,
    path: tool.http.path,
    summary: tool.title ?? firstSentence(tool.description),
    description: tool.documentation ?? tool.description,
    tags: [...(tool.tags ?? [])],
    parameters: Object.keys(tool.inputSchema.properties ?? {}),
    values: enumWords(tool),
  };
}
