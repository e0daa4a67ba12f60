import { pointer } from "../pointer.js";

/** One `$ref` found in a document, with the pointer of the object that holds it. */
export interface RefSite {
  ref: string;
  at: string;
}

/** Keywords whose values are literal data. */
const DATA_KEYS = new Set(["example", "examples", "default", "const", "enum"]);
/** Keywords whose values map arbitrary names (so a property may be called `default`). */
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "schemas",
  "parameters",
  "responses",
  "headers",
]);

/**
 * Lists every `$ref` string in a document. Values under `example`/`examples` are data, not
 * schema, so a literal `$ref` there is not a reference (real specs, e.g. GitHub's GHEC, have them).
 */
export function collectRefs(document: unknown): RefSite[] {
  const sites: RefSite[] = [];
  const seen = new Set<object>();
  // The path to the current node; a pointer is built only where a `$ref` is found.
  const path: Array<string | number> = [];
  const visit = (node: unknown, parentKey: string): void => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        path.push(index);
        visit(node[index], parentKey);
        path.pop();
      }
      return;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === "string") sites.push({ ref: record.$ref, at: pointer(...path) });
    for (const key in record) {
      if (DATA_KEYS.has(key) && !NAME_MAPS.has(parentKey)) continue;
      path.push(key);
      visit(record[key], key);
      path.pop();
    }
  };
  visit(document, "");
  return sites;
}
