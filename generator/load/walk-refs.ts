import { childPointer } from "../pointer.js";

/** One `$ref` found in a document, with the pointer of the object that holds it. */
export interface RefSite {
  ref: string;
  at: string;
}

/** Keywords whose values are literal data. */
const DATA_KEYS = new Set(["example", "examples", "default", "const", "enum"]);
/** Keywords whose values map arbitrary names (so a property may be called `default`). */
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "schemas", "parameters", "responses", "headers"]);

/**
 * Lists every `$ref` string in a document. Values under `example`/`examples` are data, not
 * schema, so a literal `$ref` there is not a reference (real specs, e.g. GitHub's GHEC, have them).
 */
export function collectRefs(document: unknown): RefSite[] {
  const sites: RefSite[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown, at: string, parentKey = ""): void => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, childPointer(at, index), parentKey));
      return;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === "string") sites.push({ ref: record.$ref, at });
    for (const [key, value] of Object.entries(record)) {
      if (DATA_KEYS.has(key) && !NAME_MAPS.has(parentKey)) continue;
      visit(value, childPointer(at, key), key);
    }
  };
  visit(document, "#");
  return sites;
}
