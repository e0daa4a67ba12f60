// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Redaction of URL userinfo. A base URL may carry credentials (`http://user:PASS@host`); they are
 * sent (as Basic authentication) but never shown in results or logs.
 */

/** Replaces the userinfo of every URL in `text` with `***`: `http://u:p@h/x` → `http://***@h/x`. */
export function redactUserinfo(text: string): string {
  // The userinfo ends at the last `@` before the authority ends (`/`, `?`, `#`, whitespace, quotes).
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>\\]*@/gi, "$1***@");
}
