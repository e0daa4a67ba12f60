/**
 * Resource limits of the load stage. A spec is untrusted input: a few hundred bytes of YAML aliases
 * can expand to gigabytes ("billion laughs"), and ten thousand nested objects overflow the stack of
 * every recursive walk after loading. Each limit ends in a coded diagnostic (MG007), never a crash.
 * The values sit far above real specs (the 40 specs of the dev corpus nest at most 27 levels, GitHub's
 * fully dereferenced spec 29, Stripe 25; MS Graph beta, the largest spec we know, is 47 MB). The depth
 * is measured by the walk that finds the `$ref`s (walk-refs.ts `scanDocument`).
 */

/** The limits, documented in docs/guide/security.md (Generator limits). */
export const READ_LIMITS = {
  /** Largest spec file, or file reached by a `$ref`, read from disk or the network. */
  maxFileBytes: 256 * 1024 * 1024,
  /** Deepest nesting of objects and arrays in the document (examples included). */
  maxDepth: 256,
  /** yaml's `maxAliasCount`: alias resolutions weighted by the size of what they copy. */
  maxAliasCount: 10_000,
} as const;
