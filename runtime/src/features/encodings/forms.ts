/** Form and multipart request bodies, and file content sent as the whole body. */
import { randomBytes } from "node:crypto";
import { isRecord } from "../../protocol/own.js";
import type { BodyBinding, FieldEncoding } from "../../api/types.js";
import { essenceOf, isJsonEssence, type EncodedBody } from "../../upstream/body.js";
import { encodeRfc3986 } from "../../upstream/serialize.js";
import { decodeFile } from "./files.js";
import { serializeStyled } from "./styles.js";

/** A body the core leaves to this feature (`encodedByFeature`): file content, a form, multipart. */
export function encodeFeatureBody(binding: BodyBinding, value: unknown): EncodedBody {
  const { mediaType } = binding;
  const essence = essenceOf(mediaType);
  if (binding.kind === "whole" && binding.binary) {
    const file = decodeFile(value, binding.argument);
    return {
      contentType: essence.includes("*") ? (file.mediaType ?? "application/octet-stream") : mediaType,
      payload: file.data,
    };
  }
  if (essence === "multipart/form-data") {
    const files = new Set(binding.kind === "properties" ? (binding.files ?? []) : []);
    return multipartEncode(value, files, undefined, binding.encoding);
  }
  return { contentType: mediaType, payload: formEncode(value, binding.encoding) };
}

/**
 * `application/x-www-form-urlencoded` per OpenAPI: each field follows its `encoding` entry (style,
 * explode, or a JSON `contentType`), else style form with explode (arrays repeat the key, objects
 * spread their properties); the pairs use the query rules of serialize.ts.
 */
export function formEncode(value: unknown, encoding: Record<string, FieldEncoding> = {}): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return encodeRfc3986(String(value ?? ""));
  const pairs: string[] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    // A form has no null: a null field is left out, as an absent one (RFC 6570: an undefined value).
    if (v === undefined || v === null) continue;
    const field = Object.hasOwn(encoding, key) ? encoding[key] : undefined;
    if (field?.contentType && !field.style && isJsonEssence(essenceOf(field.contentType))) {
      pairs.push(`${encodeRfc3986(key)}=${encodeRfc3986(JSON.stringify(v))}`);
      continue;
    }
    const style = field?.style ?? "form";
    // Data characters are already percent-encoded; what is left literal are the style's
    // delimiters and deepObject brackets. In a form body they are encoded too: a form parser
    // decodes them back, and an unencoded reserved character is refused without allowReserved.
    const text = serializeStyled(key, style, field?.explode ?? style === "form", v).replace(
      /[,|[\]]/g,
      (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase(),
    );
    // Spaces as `+`, the form convention (a literal `+` is already `%2B`), unless the field has an
    // `encoding` entry: its value then follows RFC 6570, where `+` is a reserved character that
    // must not appear without `allowReserved` (Prism refuses it; Stripe's deepObject fields).
    if (text !== "") pairs.push(field ? text : text.replace(/%20/g, "+"));
  }
  return pairs.join("&");
}

/** Quotes a multipart header parameter (RFC 7578: `"` and line breaks percent-encoded). */
function quoted(text: string): string {
  return `"${text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")}"`;
}

/** Parts of a field whose `encoding` gives a style: the style's `name=value` pairs, one part each. */
function styledParts(name: string, field: FieldEncoding & { style: string }, value: unknown): Array<[string, string]> {
  const text = serializeStyled(name, field.style, field.explode ?? field.style === "form", value);
  return text === ""
    ? []
    : text.split("&").map((pair) => {
        const eq = pair.indexOf("=");
        return [decodeURIComponent(pair.slice(0, eq)), decodeURIComponent(pair.slice(eq + 1))];
      });
}

/**
 * `multipart/form-data` (RFC 7578): one part per property (arrays repeat the name); properties in
 * `files` are decoded from base64 / data: URIs (or read by feature `uploads`) and sent as file parts, objects as JSON parts. A
 * field whose `encoding` entry gives a style is sent in that style, one part per `name=value` pair
 * (`tags` form/explode false: one part `a,b`; deepObject: parts `filter[a]`), as OpenAPI 3.1 says
 * and as specs mean when they write one; an entry's `contentType` becomes its parts' Content-Type.
 */
export function multipartEncode(
  value: unknown,
  files: Set<string>,
  boundary = `mcp-gen-${randomBytes(12).toString("hex")}`,
  encoding: Record<string, FieldEncoding> = {},
): EncodedBody {
  const chunks: Buffer[] = [];
  const object = isRecord(value) ? value : {};
  const part = (name: string, headers: string, data: Buffer) =>
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}${headers}\r\n\r\n`, "utf8"),
      data,
      Buffer.from("\r\n", "utf8"),
    );
  for (const [name, v] of Object.entries(object)) {
    if (v === undefined || v === null) continue;
    const field = Object.hasOwn(encoding, name) ? encoding[name] : undefined;
    if (field?.style && !files.has(name)) {
      for (const [key, text] of styledParts(name, field as FieldEncoding & { style: string }, v))
        part(key, "", Buffer.from(text, "utf8"));
      continue;
    }
    for (const item of Array.isArray(v) && !files.has(name) ? v : [v]) {
      if (files.has(name)) {
        const file = decodeFile(item, name);
        part(
          name,
          `; filename=${quoted(file.fileName ?? name)}\r\nContent-Type: ${file.mediaType ?? "application/octet-stream"}`,
          file.data,
        );
      } else if (typeof item === "object" && item !== null) {
        part(
          name,
          `\r\nContent-Type: ${field?.contentType ?? "application/json"}`,
          Buffer.from(JSON.stringify(item), "utf8"),
        );
      } else {
        part(
          name,
          field?.contentType ? `\r\nContent-Type: ${field.contentType}` : "",
          Buffer.from(String(item), "utf8"),
        );
      }
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, "utf8"));
  return { contentType: `multipart/form-data; boundary=${boundary}`, payload: Buffer.concat(chunks) };
}
