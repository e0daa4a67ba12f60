import { pointer } from "../../shared/pointer.js";

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

/** What one walk of a document finds (see {@link scanDocument}). */
export interface DocumentScan {
  /**
   * Every `$ref` string. Values under `example`/`examples` are data, not schema, so a literal
   * `$ref` there is not a reference (real specs, e.g. GitHub's GHEC, have them).
   */
  refs: RefSite[];
  /** The pointer of the first object or array nested deeper than the limit; the walk stopped there. */
  tooDeep?: string;
}

/** Options of {@link scanDocument}. */
export interface ScanOptions {
  /**
   * No node is reachable by two paths (JSON.parse's value is such a tree; YAML aliases and
   * bundling may share nodes): the walk then keeps no record of the nodes it has seen.
   */
  tree?: boolean;
}

/**
 * One walk of the document for both checks of the load stage: the nesting limit (every object and
 * array counts, examples included, and a node YAML aliases into several places counts at each,
 * deepest included) and the `$ref`s (not under data keywords; a shared node's once). Recursive,
 * but never more than `maxDepth` + 1 levels deep: the walk stops at the first node past the limit
 * (the limit exists because deeper documents overflow recursive walks).
 */
export function scanDocument(document: unknown, maxDepth: number, options: ScanOptions = {}): DocumentScan {
  const refs: RefSite[] = [];
  // A big spec has hundreds of thousands of objects: a tree's are not recorded.
  const seen = options.tree ? undefined : new Set<object>();
  // The path to the current node; a pointer is built only where a `$ref` is found (or the limit passed).
  const path: Array<string | number> = [];
  let tooDeep: string | undefined;
  /** False once the limit is passed (the walk stops). `collect`: look for `$ref`s in this node. */
  const visit = (node: unknown, parentKey: string, depth: number, collect: boolean): boolean => {
    if (node === null || typeof node !== "object") return true;
    if (depth > maxDepth) {
      tooDeep = pointer(...path);
      return false;
    }
    if (collect && seen) {
      if (seen.has(node)) collect = false;
      else seen.add(node);
    }
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        path.push(index);
        if (!visit(node[index], parentKey, depth + 1, collect)) return false;
        path.pop();
      }
      return true;
    }
    const record = node as Record<string, unknown>;
    if (collect && typeof record.$ref === "string") refs.push({ ref: record.$ref, at: pointer(...path) });
    for (const key in record) {
      path.push(key);
      const data = DATA_KEYS.has(key) && !NAME_MAPS.has(parentKey);
      if (!visit(record[key], key, depth + 1, collect && !data)) return false;
      path.pop();
    }
    return true;
  };
  visit(document, "", 1, true);
  return tooDeep === undefined ? { refs } : { refs, tooDeep };
}
