import type { HttpMethod, ToolAnnotations } from "../../runtime/src/types.js";

/**
 * Tool annotations from HTTP method semantics (RFC 9110): safe methods are read-only, PUT and
 * DELETE are idempotent, DELETE and PUT (which replaces a resource) may destroy data. Every tool
 * talks to an outside API, so all are open-world. The title is the tool's own `title` (which
 * clients prefer over `annotations.title` since 2025-06-18), not repeated here: on large APIs the
 * copy alone was 60 KB of `tools/list`.
 */
export function annotationsFor(method: HttpMethod): ToolAnnotations {
  const base: ToolAnnotations = {};
  switch (method) {
    case "get":
    case "head":
    case "options":
    case "trace":
      return { ...base, readOnlyHint: true, openWorldHint: true };
    case "delete":
      return { ...base, readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
    case "put":
      return { ...base, readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
    case "post":
    case "patch":
      return { ...base, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
  }
}
