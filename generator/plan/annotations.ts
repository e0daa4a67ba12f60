import type { HttpMethod, ToolAnnotations } from "../../runtime/src/types.js";

/**
 * Tool annotations from HTTP method semantics (RFC 9110): safe methods are read-only, PUT and
 * DELETE are idempotent, DELETE and PUT (which replaces a resource) may destroy data. Every tool
 * talks to an outside API, so all are open-world.
 */
export function annotationsFor(method: HttpMethod, title: string | undefined): ToolAnnotations {
  const base: ToolAnnotations = title ? { title } : {};
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
