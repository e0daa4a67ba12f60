/** Turns a tool's HTTP binding and validated arguments into a request (URL, headers, body); no I/O. */
import { collectBody, encodeBody, type Encodings } from "./body.js";
import {
  ArgumentError,
  serializeHeaderParameter,
  serializePathParameter,
  serializeQueryParameter,
  withoutEncodings,
} from "./serialize.js";
import type { HttpBinding } from "../api/types.js";
import { getOwn } from "../protocol/own.js";
import { isFramingHeader } from "./headers.js";
import { redactUserinfo } from "../protocol/redact.js";

const DEFAULT_ACCEPT = "application/json, */*;q=0.8";
// OpenAPI: header parameters with these names are ignored (they are set by other fields). A
// `Content-Type` parameter is sent when the operation has no body to decide it (see headerFromArgument).
const IGNORED_HEADER_PARAMETERS = new Set(["accept", "authorization"]);

/**
 * Whether a header parameter's argument is sent: not one OpenAPI ignores, never a framing or
 * hop-by-hop header (whatever the data file says: see isFramingHeader), and `Content-Type` only
 * when no body sets it.
 */
function headerFromArgument(name: string, http: HttpBinding): boolean {
  const lower = name.toLowerCase();
  if (IGNORED_HEADER_PARAMETERS.has(lower) || isFramingHeader(lower)) return false;
  return lower !== "content-type" || http.body === undefined;
}

/** A request ready to send. */
export interface PreparedRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Full URL with the query (may hold secrets: never log it). */
  url: string;
  /** URL without query or userinfo, safe to show. */
  safeUrl: string;
  /** The resolved binding path (no base, no query), for messages. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer | undefined;
}

let lastBase = { url: "", joinable: "", safe: "" };
/** A base URL without query or trailing slashes, and that redacted; worked out once (a server has one, or a few). */
function baseOf(url: string): typeof lastBase {
  if (lastBase.url === url) return lastBase;
  const joinable = url.split(/[?#]/)[0]!.replace(/\/+$/, "");
  return (lastBase = { url, joinable, safe: redactUserinfo(joinable) });
}

/** Joins a base URL (which may carry a path) and a path template's resolved path. */
export function joinUrl(baseUrl: string, path: string): string {
  return baseOf(baseUrl).joinable + (path.startsWith("/") ? path : "/" + path);
}

/** The bytes a path segment stands for, as latin1 (`%XX` decoded once): `café` equals `caf%c3%a9`. */
function segmentBytes(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] === "%" && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const char = String.fromCodePoint(text.codePointAt(i)!);
      bytes.push(...Buffer.from(char, "utf8"));
      i += char.length;
    }
  }
  return Buffer.from(bytes).toString("latin1");
}

/**
 * True when the URL parser keeps `url`'s path as base path + `path`, segment for segment. A dot
 * segment (`.`, `..`, `%2e`) or a backslash in the path would otherwise make the request address
 * another resource than its template, with the credentials meant for this one.
 */
export function pathKept(url: string, baseUrl: string, path: string): boolean {
  if (PLAIN_PATH.test(path)) return true;
  try {
    const actual = new URL(url).pathname;
    // The base path as the parser normalises it (the operator's base URL is trusted as given).
    const base = new URL(joinUrl(baseUrl, "/x")).pathname.slice(0, -2);
    if (!actual.startsWith(base + "/")) return false;
    const got = actual.slice(base.length).split("/");
    const expected = (path.startsWith("/") ? path : "/" + path).split("/");
    return (
      got.length === expected.length && got.every((segment, i) => segmentBytes(segment) === segmentBytes(expected[i]!))
    );
  } catch {
    return false;
  }
}

/**
 * Paths URL normalisation cannot change (most: they skip parsing): `/`-led segments of RFC 3986
 * pchars without `%`, none of them `.` or `..`.
 */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~!$&'()*+,;=:@]*)+$/;

/** Builds the request of a binding; throws ArgumentError for arguments that cannot be sent. */
export function buildRequest(
  http: HttpBinding,
  args: Record<string, unknown>,
  baseUrl: string,
  encodings?: Encodings,
): PreparedRequest {
  let path = http.path;
  const query: string[] = [];
  // A query written into the path template (`/search#format=sdk&q`) is sent as query parameters.
  if (/[#?]/.test(path)) {
    if (!encodings) throw withoutEncodings(`the path template ${path}`);
    const split = encodings.splitPath(
      path,
      http.parameters.filter((p) => p.in === "query").map((p) => p.name),
    );
    path = split.path;
    query.push(...split.fixedQuery);
  }
  const cookies: string[] = [];
  const headers: Record<string, string> = {};

  for (const binding of http.parameters) {
    // Own properties only: an absent argument named `constructor` must not read Object.prototype's.
    const value = getOwn(args, binding.argument);
    if (value === undefined) {
      if (binding.in === "path") throw new ArgumentError(`missing path parameter '${binding.argument}'`);
      continue;
    }
    // A query, header or cookie has no null: an optional null argument is left out, as an absent
    // one (RFC 6570 reads null as undefined); `ids=` would send an empty string instead.
    if (value === null && binding.in !== "path" && !binding.required) continue;
    switch (binding.in) {
      case "path": {
        const segment = serializePathParameter(binding, value, encodings);
        // An empty value would address another resource (`/pets//photos`, `/pets/`).
        if (segment === "") throw new ArgumentError(`path parameter '${binding.argument}' must not be empty`);
        path = path.split(`{${binding.name}}`).join(segment);
        break;
      }
      case "query": {
        const pairs = serializeQueryParameter(binding, value, encodings);
        if (pairs !== "") query.push(pairs);
        break;
      }
      case "header":
        if (headerFromArgument(binding.name, http)) {
          headers[binding.name.toLowerCase()] = serializeHeaderParameter(binding, value);
        }
        break;
      case "cookie":
        if (!encodings) throw withoutEncodings(`cookie parameter '${binding.name}'`);
        cookies.push(encodings.cookie(binding, value));
        break;
    }
  }
  if (/\{[^}/]+\}/.test(path)) throw new ArgumentError(`path template ${http.path} has an unbound placeholder`);
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  headers.accept = http.response.accept.length > 0 ? http.response.accept.join(", ") : DEFAULT_ACCEPT;

  let body: string | Buffer | undefined;
  if (http.body) {
    const value = collectBody(http.body, args);
    if (value !== undefined) {
      const encoded = encodeBody(http.body, value, encodings);
      headers["content-type"] = encoded.contentType;
      body = encoded.payload;
    }
  }

  const fullUrl = joinUrl(baseUrl, path);
  const base = baseOf(baseUrl);
  if (!pathKept(fullUrl, baseUrl, path)) {
    throw new ArgumentError(
      `the request path ${path} would be changed by URL normalisation (dot segments or backslashes), so it is not sent`,
    );
  }
  return {
    method: http.method.toUpperCase(),
    url: query.length > 0 ? `${fullUrl}?${query.join("&")}` : fullUrl,
    // The base's userinfo is redacted once; a path holds none unless its template writes a URL in it.
    safeUrl: path.includes("://") ? redactUserinfo(fullUrl) : base.safe + fullUrl.slice(base.joinable.length),
    path,
    headers,
    body,
  };
}
