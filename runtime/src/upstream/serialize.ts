/**
 * OpenAPI 3 parameter serialization (style/explode) for path, query, header and cookie
 * parameters, following the spec's style table (RFC 6570 semantics for path styles).
 * Pure functions: value in, wire text out.
 */
import type { ParameterBinding } from "../api/types.js";

/** Raised when an argument cannot be put on the wire (e.g. a header value with a line break). */
export class ArgumentError extends Error {
  override readonly name = "ArgumentError";
}

/** Percent-encodes per RFC 3986 unreserved set (encodeURIComponent leaves `!'()*` alone). */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/**
 * Encoding for `allowReserved: true`: RFC 3986 reserved characters pass through, except `&`
 * and `#`, which would otherwise split the query or end the URL.
 */
export function encodeAllowReserved(text: string): string {
  return encodeRfc3986(text).replace(/%(3A|2F|3F|5B|5D|40|21|24|27|28|29|2A|2B|2C|3B|3D)/gi, (m) =>
    decodeURIComponent(m),
  );
}

/** Percent-encodes one name or value. */
export type Encoder = (text: string) => string;
const identity: Encoder = (text) => text;

/** A parameter value reduced to one of the three shapes the style table distinguishes. */
type Shape =
  | { kind: "primitive"; value: string }
  | { kind: "array"; items: string[] }
  | { kind: "object"; entries: Array<[string, string]> };

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  // Nested structures have no standard serialization; JSON is the least surprising choice.
  return JSON.stringify(value);
}

function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return { kind: "array", items: value.map(scalarText) };
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, scalarText(v)]);
    return { kind: "object", entries };
  }
  return { kind: "primitive", value: scalarText(value) };
}

/** Decodes `%XX` escapes byte by byte, repeatedly (at most 4 rounds), so `%252e` counts as `.` too. */
export function decodePercentRepeatedly(text: string): string {
  let current = text;
  for (let round = 0; round < 4; round++) {
    const next = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * True when `text` is, or (split at `/` or a backslash) contains, a dot segment `.` or `..`, also
 * percent-encoded. URL parsers resolve such segments, so `DELETE /buckets/b/objects/..` would
 * become `DELETE /buckets/b`.
 */
export function hasDotSegment(text: string): boolean {
  return decodePercentRepeatedly(text)
    .split(/[/\\]/)
    .some((part) => part === "." || part === "..");
}

/**
 * Serializes a path parameter value (styles simple, label, matrix) into its placeholder text.
 * Throws ArgumentError for dot-segment values (see hasDotSegment), in the value or in the text.
 */
export function serializePathParameter(binding: ParameterBinding, value: unknown): string {
  const shape = shapeOf(value);
  const scalars =
    shape.kind === "primitive" ? [shape.value] : shape.kind === "array" ? shape.items : shape.entries.flat();
  const text = pathParameterText(binding, shape);
  if (scalars.some(hasDotSegment) || hasDotSegment(text)) {
    throw new ArgumentError(
      `path parameter '${binding.argument}' must not be '.' or '..' (also percent-encoded): such a value would change which resource the request addresses`,
    );
  }
  return text;
}

function pathParameterText(binding: ParameterBinding, shape: Shape): string {
  const enc: Encoder = encodeRfc3986;
  const name = enc(binding.name);
  switch (binding.style) {
    case "label": {
      const sep = binding.explode ? "." : ",";
      if (shape.kind === "primitive") return "." + enc(shape.value);
      if (shape.kind === "array") return "." + shape.items.map(enc).join(sep);
      return binding.explode
        ? "." + shape.entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join(".")
        : "." + shape.entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",");
    }
    case "matrix": {
      if (shape.kind === "primitive") return shape.value === "" ? `;${name}` : `;${name}=${enc(shape.value)}`;
      if (shape.kind === "array") {
        if (shape.items.length === 0) return `;${name}`;
        return binding.explode
          ? shape.items.map((item) => `;${name}=${enc(item)}`).join("")
          : `;${name}=${shape.items.map(enc).join(",")}`;
      }
      return binding.explode
        ? shape.entries.map(([k, v]) => `;${enc(k)}=${enc(v)}`).join("")
        : `;${name}=${shape.entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",")}`;
    }
    default:
      return serializeSimple(shape, binding.explode, enc);
  }
}

/**
 * Serializes a query parameter into `key=value` pairs joined by `&` (already encoded), or
 * `""` when it contributes nothing. Styles: form, spaceDelimited, pipeDelimited, deepObject.
 * An empty array or object is an undefined value in RFC 6570 and is left out entirely (`ids=`
 * would be an empty string item, a different value).
 */
export function serializeQueryParameter(binding: ParameterBinding, value: unknown): string {
  return serializeStyled(
    binding.name,
    binding.style,
    binding.explode,
    value,
    binding.allowReserved ? encodeAllowReserved : encodeRfc3986,
  );
}

/**
 * One named value as `key=value` pairs per a query-like style (query parameters and
 * `application/x-www-form-urlencoded` fields share the rules), `""` for nothing.
 */
export function serializeStyled(
  rawName: string,
  style: string,
  explode: boolean,
  value: unknown,
  enc: Encoder = encodeRfc3986,
): string {
  const name = encodeRfc3986(rawName);
  const shape = shapeOf(value);
  if (shape.kind === "array" && shape.items.length === 0) return "";
  if (shape.kind === "object" && shape.entries.length === 0) return "";

  if (style === "deepObject" && shape.kind !== "primitive") {
    return deepObjectPairs(rawName, value as Record<string, unknown> | unknown[], enc).join("&");
  }
  if ((style === "spaceDelimited" || style === "pipeDelimited") && !explode) {
    const delimiter = style === "spaceDelimited" ? "%20" : "|";
    if (shape.kind === "array") return `${name}=${shape.items.map(enc).join(delimiter)}`;
    if (shape.kind === "object")
      return `${name}=${shape.entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(delimiter)}`;
  }
  // form (and the fallback for every other style/shape combination)
  if (shape.kind === "primitive") return `${name}=${enc(shape.value)}`;
  if (shape.kind === "array") {
    return explode
      ? shape.items.map((item) => `${name}=${enc(item)}`).join("&")
      : `${name}=${shape.items.map(enc).join(",")}`;
  }
  return explode
    ? shape.entries.map(([k, v]) => `${encodeRfc3986(k)}=${enc(v)}`).join("&")
    : `${name}=${shape.entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",")}`;
}

/**
 * `name[key]=value` pairs; nested objects recurse (`name[a][b]=v`) and arrays are indexed
 * (`name[a][0]=v`), the convention of qs, Rails and PHP that Prism and Stripe read.
 */
function deepObjectPairs(prefix: string, value: Record<string, unknown> | unknown[], enc: Encoder): string[] {
  const pairs: string[] = [];
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  for (const [key, child] of entries) {
    if (child === undefined) continue;
    const path = `${prefix}[${key}]`;
    if (typeof child === "object" && child !== null) {
      pairs.push(...deepObjectPairs(path, child as Record<string, unknown> | unknown[], enc));
    } else {
      pairs.push(`${encodeKey(path)}=${enc(scalarText(child))}`);
    }
  }
  return pairs;
}

/** Encodes a deepObject key but keeps its brackets readable, as in the spec examples. */
function encodeKey(key: string): string {
  return encodeRfc3986(key).replace(/%5B/g, "[").replace(/%5D/g, "]");
}

/** Serializes a header parameter value (style simple). Rejects line breaks (header injection). */
export function serializeHeaderParameter(binding: ParameterBinding, value: unknown): string {
  const text = serializeSimple(shapeOf(value), binding.explode, identity);
  if (/[\r\n\0]/.test(text)) {
    throw new ArgumentError(`header parameter '${binding.name}' must not contain line breaks or NUL characters`);
  }
  return text;
}

/** Serializes a cookie parameter (style form) into `name=value` pairs joined by `; `. */
export function serializeCookieParameter(binding: ParameterBinding, value: unknown): string {
  const enc: Encoder = encodeRfc3986;
  const name = enc(binding.name);
  const shape = shapeOf(value);
  if (shape.kind === "primitive") return `${name}=${enc(shape.value)}`;
  if (shape.kind === "array") {
    return binding.explode && shape.items.length > 0
      ? shape.items.map((item) => `${name}=${enc(item)}`).join("; ")
      : `${name}=${shape.items.map(enc).join(",")}`;
  }
  return binding.explode
    ? shape.entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("; ")
    : `${name}=${shape.entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",")}`;
}

function serializeSimple(shape: Shape, explode: boolean, enc: Encoder): string {
  if (shape.kind === "primitive") return enc(shape.value);
  if (shape.kind === "array") return shape.items.map(enc).join(",");
  return explode
    ? shape.entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join(",")
    : shape.entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",");
}
