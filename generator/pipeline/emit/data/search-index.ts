/**
 * data/search-index.json: the operation search index, built at generation time (the runtime's
 * builder, search-build.ts, so the analysis of the index and of queries is one code) and loaded
 * by the server on the first search. It carries the lexicon that the server reads queries with
 * (runtime/src/features/search/search-lexicon.json, general English as data, beside its reader).
 */
import {
  buildSearchIndex,
  type SearchDocument,
  type SearchIndexData,
  SEARCH_LEXICON,
} from "../../../shared/contract.js";

/** Where the index lives in the generated project. */
export const SEARCH_INDEX_PATH = "data/search-index.json";

/** The index of these search documents (`searchDocument` of each tool, tool order) as JSON text. */
export function searchIndexFromDocuments(documents: SearchDocument[]): string {
  return searchIndexJson(buildSearchIndex(documents, SEARCH_LEXICON));
}

/**
 * The index as JSON text: one line per operation and per term, so a regeneration's diff shows
 * what changed and the file stays compact.
 */
export function searchIndexJson(data: SearchIndexData): string {
  const lines = [`{"format":${data.format},"k1":${data.k1},`];
  for (const key of ["lexicon", "collections", "ids"] as const)
    if (data[key] !== undefined) lines.push(`${JSON.stringify(key)}:${ascii(JSON.stringify(data[key]))},`);
  lines.push(`"docs":[`);
  data.docs.forEach((doc, i) => lines.push(ascii(JSON.stringify(doc)) + (i < data.docs.length - 1 ? "," : "")));
  lines.push(`],"terms":{`);
  const entries = Object.entries(data.terms);
  entries.forEach(([term, list], i) =>
    lines.push(`${JSON.stringify(term)}:${JSON.stringify(list)}` + (i < entries.length - 1 ? "," : "")),
  );
  lines.push(`},"sources":${JSON.stringify(data.sources ?? {})}}`, "");
  return lines.join("\n");
}

/** Non-ASCII characters as `\u` escapes (the same JSON value; keeps V8 strings one byte per character). */
function ascii(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
