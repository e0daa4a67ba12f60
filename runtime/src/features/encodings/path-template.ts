/**
 * Path templates that carry a query: some specs (the AWS-style ones converted from Smithy models,
 * notably) write fixed query parameters into the path, after `#` or `?`:
 * `/2013-01-01/search#format=sdk&pretty=true&q`. No request can carry a fragment, and a `?` in the
 * path would clash with the query we build, so the template is split: the part before is the path,
 * `name=value` pairs after it are sent as they are, and a bare `name` is a flag sent without a value
 * (`?uploads`) unless it names a declared query parameter, which is sent from its argument as usual.
 */

/** A path template split into its path and the query it fixes. */
export interface SplitPath {
  /** The path template proper (placeholders kept), e.g. `/2013-01-01/search`. */
  path: string;
  /** Encoded query items the template fixes, e.g. `["format=sdk", "pretty=true"]`. */
  fixedQuery: string[];
  /** Every name the template's query mentions (pairs, flags and declared parameters). */
  names: string[];
}

/** Splits `template` at its first `#` or `?`; `declared` are the operation's query parameter names. */
export function splitPathTemplate(template: string, declared: readonly string[] = []): SplitPath {
  const at = template.search(/[#?]/);
  if (at < 0) return { path: template, fixedQuery: [], names: [] };
  const fixedQuery: string[] = [];
  const names: string[] = [];
  for (const item of template.slice(at + 1).split(/[&;]/)) {
    if (item === "") continue;
    const eq = item.indexOf("=");
    const name = decode(eq < 0 ? item : item.slice(0, eq));
    names.push(name);
    if (eq < 0 && declared.includes(name)) continue;
    fixedQuery.push(
      eq < 0
        ? encodeURIComponent(name)
        : `${encodeURIComponent(name)}=${encodeURIComponent(decode(item.slice(eq + 1)))}`,
    );
  }
  return { path: template.slice(0, at), fixedQuery, names };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
