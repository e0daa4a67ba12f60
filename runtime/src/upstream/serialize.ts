/**
 * OpenAPI 3 parameter serialization (style/explode): the core serialises path, query and header
 * parameters in styles `simple` and `form`; cookies, label, matrix, deepObject and the delimited
 * styles come from feature `encodings` (included when the API uses them). Pure functions.
 */
import type { ParameterBinding, ParameterStyle } from "../api/types.js";

/** Raised when an argument cannot be put on the wire (e.g. a header value with a line break). */
export class ArgumentError extends Error {
  override readonly name = "ArgumentError";
  /** Stable across versions: custom code may branch on it. */
  readonly code = "ERR_ARGUMENT";
}

/** Percent-encodes per RFC 3986 unreserved set (encodeURIComponent leaves `!'()*` alone). */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/** Encoding for `allowReserved: true`: reserved characters pass, except `&` and `#` (they would split the URL). */
function encodeAllowReserved(text: string): string {
  return encodeRfc3986(text).replace(/%(3A|2F|3F|5B|5D|40|21|24|27|28|29|2A|2B|2C|3B|3D)/gi, (m) =>
    decodeURIComponent(m),
  );
}

/** Percent-encodes one name or value. */
export type Encoder = (text: string) => string;
const identity: Encoder = (text) => text;

/** A parameter value as one of the shapes the style table distinguishes. */
export type Shape =
  | { kind: "primitive"; value: string }
  | { kind: "array"; items: string[] }
  | { kind: "object"; entries: Array<[string, string]> };

/** A scalar as text; nested structures have no standard serialization, JSON is the least surprising. */
export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return JSON.stringify(value);
}

/** The shape of a parameter value (undefined object properties left out). */
export function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return { kind: "array", items: value.map(scalarText) };
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, scalarText(v)]);
    return { kind: "object", entries };
  }
  return { kind: "primitive", value: scalarText(value) };
}

/** The styles feature `encodings` serialises, by parameter location. */
const FEATURE_STYLES: Partial<Record<ParameterBinding["in"], readonly ParameterStyle[]>> = {
  path: ["label", "matrix"],
  query: ["deepObject", "spaceDelimited", "pipeDelimited"],
};

/** Whether a parameter needs feature `encodings`: a cookie, or a style the core does not serialise. */
export function styledByFeature(binding: Pick<ParameterBinding, "in" | "style">): boolean {
  return binding.in === "cookie" || (FEATURE_STYLES[binding.in]?.includes(binding.style) ?? false);
}

/** The parameter styles of feature `encodings` (see features/encodings). */
export interface ParameterStyles {
  /** A path value in style label or matrix, as its placeholder text. */
  path(binding: ParameterBinding, shape: Shape): string;
  /** One named value as `key=value` pairs joined by `&` in any query-like style, `""` for nothing. */
  styled(name: string, style: string, explode: boolean, value: unknown, enc?: Encoder): string;
  /** A cookie parameter (style form) as `name=value` pairs joined by `; `. */
  cookie(binding: ParameterBinding, value: unknown): string;
}

/**
 * True when `text` holds a dot segment `.` or `..` (also percent-encoded, split at `/` or a backslash):
 * URL parsers resolve them, so `DELETE /buckets/b/objects/..` would become `DELETE /buckets/b`.
 */
export function hasDotSegment(text: string): boolean {
  // `%XX` decoded byte by byte, repeatedly (4 rounds at most), so `%252e` counts as `.` too.
  let decoded = text;
  for (let round = 0; round < 4; round++) {
    const next = decoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === decoded) break;
    decoded = next;
  }
  return decoded.split(/[/\\]/).some((part) => part === "." || part === "..");
}

/** A plain id: RFC 3986 unreserved characters but the dot (encoded as itself). */
const PLAIN_PATH_VALUE = /^[A-Za-z0-9_~-]+$/;

/** A path parameter's placeholder text; ArgumentError for dot segments (see hasDotSegment). */
export function serializePathParameter(binding: ParameterBinding, value: unknown, styles?: ParameterStyles): string {
  // A plain id is its own encoding and no dot segment: the general path gives the same text, slower.
  if (
    (Number.isSafeInteger(value) || (typeof value === "string" && PLAIN_PATH_VALUE.test(value))) &&
    !styledByFeature(binding)
  )
    return String(value);
  const shape = shapeOf(value);
  const scalars =
    shape.kind === "primitive" ? [shape.value] : shape.kind === "array" ? shape.items : shape.entries.flat();
  const text = styledByFeature(binding)
    ? featureStyles(styles, binding).path(binding, shape)
    : serializeSimple(shape, binding.explode, encodeRfc3986);
  if (scalars.some(hasDotSegment) || hasDotSegment(text)) {
    throw new ArgumentError(
      `path parameter '${binding.argument}' must not be '.' or '..' (also percent-encoded): such a value would change which resource the request addresses`,
    );
  }
  return text;
}

/**
 * A query parameter as encoded `key=value` pairs joined by `&`, `""` for nothing: an empty array
 * or object is undefined in RFC 6570 (`ids=` would be an empty string item).
 */
export function serializeQueryParameter(binding: ParameterBinding, value: unknown, styles?: ParameterStyles): string {
  const enc = binding.allowReserved ? encodeAllowReserved : encodeRfc3986;
  if (styledByFeature(binding))
    return featureStyles(styles, binding).styled(binding.name, binding.style, binding.explode, value, enc);
  return formPairs(binding.name, shapeOf(value), binding.explode, enc);
}

/** Style `form` as `key=value` pairs (also the fallback of the feature's styles), `""` for nothing. */
export function formPairs(rawName: string, shape: Shape, explode: boolean, enc: Encoder): string {
  const name = encodeRfc3986(rawName);
  if (shape.kind === "primitive") return `${name}=${enc(shape.value)}`;
  if (shape.kind === "array") {
    if (shape.items.length === 0) return "";
    return explode
      ? shape.items.map((item) => `${name}=${enc(item)}`).join("&")
      : `${name}=${shape.items.map(enc).join(",")}`;
  }
  if (shape.entries.length === 0) return "";
  return explode
    ? shape.entries.map(([k, v]) => `${encodeRfc3986(k)}=${enc(v)}`).join("&")
    : `${name}=${shape.entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",")}`;
}

function featureStyles(styles: ParameterStyles | undefined, binding: ParameterBinding): ParameterStyles {
  if (styles) return styles;
  throw withoutEncodings(`parameter '${binding.name}' has style ${binding.style}, which`);
}

/** The error for a request that needs feature `encodings` on a server generated without it. */
export function withoutEncodings(what: string): ArgumentError {
  return new ArgumentError(`${what} needs the encodings feature (regenerate the server with mcp-gen --with encodings)`);
}

/** Serializes a header parameter value (style simple). Rejects line breaks (header injection). */
export function serializeHeaderParameter(binding: ParameterBinding, value: unknown): string {
  const text = serializeSimple(shapeOf(value), binding.explode, identity);
  if (/[\r\n\0]/.test(text)) {
    throw new ArgumentError(`header parameter '${binding.name}' must not contain line breaks or NUL characters`);
  }
  return text;
}

function serializeSimple(shape: Shape, explode: boolean, enc: Encoder): string {
  if (shape.kind === "primitive") return enc(shape.value);
  if (shape.kind === "array") return shape.items.map(enc).join(",");
  return explode
    ? shape.entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join(",")
    : shape.entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",");
}
