/** JSON pointer helpers (RFC 6901), in the URI-fragment form `#/a/b~1c` used in diagnostics and IR. */

/** Escapes one reference token. */
export function escapeToken(token: string | number): string {
  if (typeof token === "number") return String(token);
  return token.includes("~") || token.includes("/") ? token.replace(/~/g, "~0").replace(/\//g, "~1") : token;
}

/** Builds `#/a/b` from tokens. */
export function pointer(...tokens: Array<string | number>): string {
  return tokens.length === 0 ? "#" : "#/" + tokens.map(escapeToken).join("/");
}

/** Appends tokens to an existing pointer. */
export function childPointer(base: string, ...tokens: Array<string | number>): string {
  // One token is the common case (a schema walk builds a pointer per keyword and property).
  if (tokens.length === 1) return `${base}/${escapeToken(tokens[0]!)}`;
  return tokens.length === 0 ? base : `${base}/${tokens.map(escapeToken).join("/")}`;
}

/** Splits `#/a/b~1c` into `["a", "b/c"]`; returns undefined for a non-local or malformed pointer. */
export function parsePointer(ref: string): string[] | undefined {
  if (ref === "#" || ref === "#/") return [];
  if (!ref.startsWith("#/")) return undefined;
  let body = ref.slice(2);
  try {
    body = decodeURIComponent(body);
  } catch {
    return undefined;
  }
  return body.split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Resolves a local pointer inside a document; undefined when any step is missing. */
export function resolvePointer(document: unknown, ref: string): unknown {
  const tokens = parsePointer(ref);
  if (!tokens) return undefined;
  let node: unknown = document;
  for (const token of tokens) {
    if (node === null || typeof node !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
