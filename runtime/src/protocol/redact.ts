/** URL credentials (`http://u:p@h`) are sent but never shown: replaces each URL's userinfo with `***`. */
export function redactUserinfo(text: string): string {
  // The userinfo ends at the last `@` before the authority ends (`/`, `?`, `#`, whitespace, quotes).
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>\\]*@/gi, "$1***@");
}
