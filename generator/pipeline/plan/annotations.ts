import type { HttpMethod, ToolAnnotations } from "../../shared/contract.js";

/**
 * Tool annotations from HTTP method semantics (RFC 9110): safe methods are read-only, PUT and
 * DELETE are idempotent, DELETE and PUT (which replaces a resource) may destroy data. Every tool
 * talks to an outside API, so all are open-world.
 *
 * Hints whose value is the protocol's default are left out — `openWorldHint: true`,
 * `readOnlyHint: false`, `idempotentHint: false` — and a client that ignores defaults reads the
 * same, cautious meaning (not read-only, not idempotent). `destructiveHint` is always explicit for
 * tools that write: its default (true) is the cautious reading, but a POST is better shown as
 * non-destructive, and a DELETE should say so even to a client that misreads an absent hint.
 * The title is the tool's own `title` (clients prefer it over `annotations.title` since
 * 2025-06-18), not repeated here. On GitHub the omitted hints were 44 KB of `tools/list`.
 */
export function annotationsFor(method: HttpMethod): ToolAnnotations {
  switch (method) {
    case "get":
    case "head":
    case "options":
    case "trace":
      return { readOnlyHint: true };
    case "delete":
    case "put":
      return { destructiveHint: true, idempotentHint: true };
    case "post":
    case "patch":
      return { destructiveHint: false };
  }
}
