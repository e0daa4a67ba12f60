/** Puts chosen credentials into a request: once each, and with what a redirect elsewhere must strip. */
import type { AppliedCredentials, RequestSecrets } from "../../upstream/auth.js";

/** The `name=value` items whose names none of `pairs` has (names compared percent-decoded). */
function withoutNames(items: string[], pairs: string[]): string[] {
  const name = (item: string) => {
    const raw = item.split("=")[0]!;
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };
  const taken = new Set(pairs.map(name));
  return items.filter((item) => item !== "" && !taken.has(name(item)));
}

/** `url` with `pairs` added to its query, in place of items of the same names. */
function replacePairs(url: string, pairs: string[]): string {
  const at = url.indexOf("?");
  const kept = at < 0 ? [] : withoutNames(url.slice(at + 1).split("&"), pairs);
  return `${at < 0 ? url : url.slice(0, at)}?${[...kept, ...pairs].join("&")}`;
}

/**
 * Adds `credentials` to `headers` (in place) and to `url`'s query; a credential replaces an argument
 * of the same name and place, so the value goes out once. Returns the URL and the request's secrets.
 */
export function authorize(
  url: string,
  headers: Record<string, string>,
  credentials: AppliedCredentials,
): { url: string; secrets: RequestSecrets } {
  Object.assign(headers, credentials.headers);
  if (credentials.query.length > 0) url = replacePairs(url, credentials.query);
  if (credentials.cookies.length > 0)
    headers.cookie = [...withoutNames(headers.cookie?.split("; ") ?? [], credentials.cookies), ...credentials.cookies]
      .filter(Boolean)
      .join("; ");
  const secrets: RequestSecrets = {
    origin: new URL(url).origin,
    headers: new Set(Object.keys(credentials.headers)),
    query: new Set(credentials.query.map((pair) => decodeURIComponent(pair.split("=")[0]!))),
    cookies: credentials.cookies.length > 0,
    tls: credentials.tls !== undefined,
  };
  return { url, secrets };
}
