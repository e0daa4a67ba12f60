/**
 * Turns a tool's HTTP binding plus validated arguments into a concrete request description
 * (URL, headers, body). No I/O; `upstream.ts` executes it.
 */
import type { FileOptions } from "./binary.js";
import { collectBody, encodeBody } from "./body.js";
import {
  ArgumentError,
  serializeCookieParameter,
  serializeHeaderParameter,
  serializePathParameter,
  serializeQueryParameter,
} from "./serialize.js";
import { splitPathTemplate } from "./path-template.js";
import type { HttpBinding } from "./types.js";

/** The default `Accept` when the binding lists no response media types. */
export const DEFAULT_ACCEPT = "application/json, */*;q=0.8";

// OpenAPI: header parameters with these names are ignored (they are set by other fields).
const IGNORED_HEADER_PARAMETERS = new Set(["accept", "content-type", "authorization"]);

/** A request ready to send. */
export interface PreparedRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Full URL including the query string (may hold secrets: never log it). */
  url: string;
  /** URL without query, safe to show: origin + base path + resolved path. */
  safeUrl: string;
  /** The resolved binding path (no base, no query), used in error messages. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer | undefined;
}

/** Joins a base URL (which may carry a path) and a path template's resolved path. */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.split(/[?#]/)[0]!.replace(/\/+$/, "");
  return base + (path.startsWith("/") ? path : "/" + path);
}

/** Builds the request for a binding; throws ArgumentError for arguments that cannot be sent. */
export function buildRequest(http: HttpBinding, args: Record<string, unknown>, baseUrl: string, files: FileOptions = {}): PreparedRequest {
  // A query written into the path template (`/search#format=sdk&q`) is sent as query parameters.
  const split = splitPathTemplate(http.path, http.parameters.filter((p) => p.in === "query").map((p) => p.name));
  let path = split.path;
  const query: string[] = [...split.fixedQuery];
  const cookies: string[] = [];
  const headers: Record<string, string> = {};

  for (const binding of http.parameters) {
    const value = args[binding.argument];
    if (value === undefined) {
      if (binding.in === "path") throw new ArgumentError(`missing path parameter '${binding.argument}'`);
      continue;
    }
    switch (binding.in) {
      case "path":
        path = path.split(`{${binding.name}}`).join(serializePathParameter(binding, value));
        break;
      case "query": {
        const pairs = serializeQueryParameter(binding, value);
        if (pairs !== "") query.push(pairs);
        break;
      }
      case "header":
        if (!IGNORED_HEADER_PARAMETERS.has(binding.name.toLowerCase())) {
          headers[binding.name.toLowerCase()] = serializeHeaderParameter(binding, value);
        }
        break;
      case "cookie":
        cookies.push(serializeCookieParameter(binding, value));
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
      const encoded = encodeBody(http.body.mediaType, value, http.body, files);
      headers["content-type"] = encoded.contentType;
      body = encoded.payload;
    }
  }

  const safeUrl = joinUrl(baseUrl, path);
  return {
    method: http.method.toUpperCase(),
    url: query.length > 0 ? `${safeUrl}?${query.join("&")}` : safeUrl,
    safeUrl,
    path,
    headers,
    body,
  };
}
