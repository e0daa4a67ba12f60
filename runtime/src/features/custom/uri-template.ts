/** Resource templates of the user's code (RFC 6570 level 1: `{var}` matches one path segment). */

/** Matches `uri` against a level-1 URI template; returns the variables or undefined. */
export function matchUriTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const variable = /^\{([^}]+)\}$/.exec(part);
      if (!variable) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(variable[1]!);
      return "([^/]+)";
    })
    .join("");
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
}
