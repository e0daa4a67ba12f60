/**
 * Exit codes of `mcp-gen` (documented in docs/reference/cli.md):
 * 0 success; 1 the spec cannot be generated; 2 bad command line; 3 unexpected failure (a bug);
 * 4 the output folder cannot be updated safely (hand-edited generated files, a folder mcp-gen did
 * not create, or with `--strict-custom` user code that no longer type-checks) — nothing was written;
 * 5 `--check`: the output is stale; 6 `diff --fail-on-breaking`: a breaking change was found;
 * 7 `lint`: a client profile would drop, shorten or refuse tools; 8 `check` / `workspace test`: a
 * compliance score below the minimum, a server that cannot be started, or failing server tests.
 */
export const EXIT = {
  ok: 0,
  specError: 1,
  usage: 2,
  internal: 3,
  conflict: 4,
  stale: 5,
  breaking: 6,
  lint: 7,
  checkFailed: 8,
} as const;
