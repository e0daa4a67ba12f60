/**
 * Resource limits of the load stage. A spec is untrusted input: a few hundred bytes of YAML aliases
 * can expand to gigabytes ("billion laughs"), and ten thousand nested objects overflow the stack of
 * every recursive walk after loading. Each limit ends in a coded diagnostic (MG007), never a crash.
 * The values sit far above real specs (the 40 specs of the dev corpus nest at most 27 levels, GitHub's
 * fully dereferenced spec 29, Stripe 25; MS Graph beta, the largest spec we know, is 47 MB). The depth
 * walk costs 13 ms on GitHub's 13 MB spec.
 */
import { pointer } from "../pointer.js";

/** The limits, documented in the README's Security section. */
export const READ_LIMITS = {
  /** Largest spec file, or file reached by a `$ref`, read from disk or the network. */
  maxFileBytes: 256 * 1024 * 1024,
  /** Deepest nesting of objects and arrays in the document (examples included). */
  maxDepth: 256,
  /** yaml's `maxAliasCount`: alias resolutions weighted by the size of what they copy. */
  maxAliasCount: 10_000,
} as const;

/** One node on the walk's stack; `parent` and `key` rebuild the pointer only when needed. */
interface Visit {
  node: unknown;
  depth: number;
  key?: string | number;
  parent?: Visit;
}

/**
 * The nesting depth of objects and arrays in `document` (a scalar is 0), counted until it passes
 * `stopAt`: then the pointer of the first node that deep comes back too (cycles stop there as well).
 */
export function nestingDepth(document: unknown, stopAt: number): { depth: number; pointer?: string } {
  // Iterative on purpose: the point is to survive documents that overflow recursive walks.
  const stack: Visit[] = [{ node: document, depth: 0 }];
  let deepest = 0;
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { node, depth } = visit;
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > stopAt) {
      const path: Array<string | number> = [];
      for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.unshift(at.key!);
      return { depth: deepest, pointer: pointer(...path) };
    }
    // Only objects and arrays nest: scalars are not pushed (most of a spec's nodes are strings).
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        const item: unknown = node[index];
        if (item !== null && typeof item === "object")
          stack.push({ node: item, depth: depth + 1, key: index, parent: visit });
      }
    } else
      for (const key of Object.keys(node)) {
        const item = (node as Record<string, unknown>)[key];
        if (item !== null && typeof item === "object") stack.push({ node: item, depth: depth + 1, key, parent: visit });
      }
  }
  return { depth: deepest };
}
