/** Puts chosen credentials into a request: once each, and stripped from a redirect to another origin. */
import type { AuthorizedRequest } from "../../upstream/auth-slot.js";
import type { RedirectOptions } from "../../upstream/client-slot.js";

/** What the chosen credentials add to a request. */
export interface AppliedCredentials {
  headers: Record<string, string>;
  /** `name=value` pairs to add to the query string (already encoded). */
  query: string[];
  cookies: string[];
  /** Client certificate and key (PEM) for mutual TLS. */
  tls?: { certificate: string; key: string };
  /** OAuth scheme keys used, so a 401 can refresh their tokens once. */
  oauthKeys: string[];
}

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
 * of the same name and place, so the value goes out once. A redirect to another origin gets none of them.
 */
export function authorize(
  url: string,
  headers: Record<string, string>,
  credentials: AppliedCredentials,
): AuthorizedRequest {
  Object.assign(headers, credentials.headers);
  if (credentials.query.length > 0) url = replacePairs(url, credentials.query);
  if (credentials.cookies.length > 0)
    headers.cookie = [...withoutNames(headers.cookie?.split("; ") ?? [], credentials.cookies), ...credentials.cookies]
      .filter(Boolean)
      .join("; ");
  const origin = new URL(url).origin;
  const queryNames = credentials.query.map((pair) => decodeURIComponent(pair.split("=")[0]!));
  const onRedirect = (options: RedirectOptions): void => {
    const next = options.url instanceof URL ? options.url : new URL(String(options.url));
    if (next.origin === origin) return;
    for (const name of Object.keys(credentials.headers)) delete options.headers[name];
    if (credentials.cookies.length > 0) delete options.headers.cookie;
    for (const name of queryNames) next.searchParams.delete(name);
    options.url = next;
    if (credentials.tls) options.https = {};
  };
  return { url, tls: credentials.tls, onRedirect };
}
