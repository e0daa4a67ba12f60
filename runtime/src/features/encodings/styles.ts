/**
 * Cookie parameters and the rarer OpenAPI parameter styles (the core serialises `simple` and `form`): label and matrix
 * path values; deepObject, spaceDelimited and pipeDelimited query values, which form fields of a
 * body may use too (their `encoding` entry).
 */
import type { ParameterBinding } from "../../api/types.js";
import { encodeRfc3986, formPairs, scalarText, shapeOf, type Encoder, type Shape } from "../../upstream/serialize.js";

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

/** A path value in style label or matrix (RFC 6570), as its placeholder text. */
export function pathText(binding: ParameterBinding, shape: Shape): string {
  const enc: Encoder = encodeRfc3986;
  const name = enc(binding.name);
  if (binding.style === "label") {
    const sep = binding.explode ? "." : ",";
    if (shape.kind === "primitive") return "." + enc(shape.value);
    if (shape.kind === "array") return "." + shape.items.map(enc).join(sep);
    return binding.explode
      ? "." + shape.entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join(".")
      : "." + shape.entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(",");
  }
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
  const shape = shapeOf(value);
  if (shape.kind === "array" && shape.items.length === 0) return "";
  if (shape.kind === "object" && shape.entries.length === 0) return "";
  if (style === "deepObject" && shape.kind !== "primitive") {
    return deepObjectPairs(rawName, value as Record<string, unknown> | unknown[], enc).join("&");
  }
  if ((style === "spaceDelimited" || style === "pipeDelimited") && !explode) {
    const name = encodeRfc3986(rawName);
    const delimiter = style === "spaceDelimited" ? "%20" : "|";
    if (shape.kind === "array") return `${name}=${shape.items.map(enc).join(delimiter)}`;
    if (shape.kind === "object")
      return `${name}=${shape.entries.flatMap(([k, v]) => [enc(k), enc(v)]).join(delimiter)}`;
  }
  // form, and the fallback for every other style/shape combination
  return formPairs(rawName, shape, explode, enc);
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
