/** Request bodies: JSON and text in the core; forms, multipart and files through feature `encodings`. */
import { getOwn, setOwn } from "../protocol/own.js";
import { withoutEncodings, type ParameterStyles } from "./serialize.js";
import type { BodyBinding } from "../api/types.js";
import type { Cancellation } from "../protocol/cancellation.js";

/** An encoded request body with the Content-Type to send. */
export interface EncodedBody {
  contentType: string;
  payload: string | Buffer;
}

/** What feature `encodings` adds: parameter styles, bodies beyond JSON, path templates with a query. */
export interface Encodings extends ParameterStyles {
  /** A form, multipart or file body (see {@link encodedByFeature}). */
  body(binding: BodyBinding, value: unknown): EncodedBody;
  /** Splits a path template at `#` or `?` into its path and fixed query items (`declared`: query parameters). */
  splitPath(template: string, declared: readonly string[]): { path: string; fixedQuery: string[] };
}

/**
 * Reads the file arguments a caller gave by reference (`{"url"}`, `{"path"}`) into file content before
 * the request is built (feature `uploads`); the arguments as they are when none is. Throws
 * ArgumentError for a refused reference.
 */
export type ResolveUploads = (
  binding: BodyBinding,
  args: Record<string, unknown>,
  cancellation?: Cancellation,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** A media type's essence: lower case, without parameters (`Application/JSON; charset=utf-8` → `application/json`). */
export const essenceOf = (mediaType: string): string => mediaType.split(";")[0]!.trim().toLowerCase();

/** True for the essences `application/json` and any `+json` suffix type (see {@link essenceOf}). */
export const isJsonEssence = (essence: string): boolean => essence === "application/json" || essence.endsWith("+json");

/** Whether a body needs feature `encodings`: file content, a form or multipart media type. */
export function encodedByFeature(binding: BodyBinding): boolean {
  const essence = essenceOf(binding.mediaType);
  return (
    (binding.kind === "whole" && binding.binary === true) ||
    essence === "application/x-www-form-urlencoded" ||
    essence === "multipart/form-data"
  );
}

/** Collects the body value from the arguments; undefined when there is no body to send. */
export function collectBody(binding: BodyBinding, args: Record<string, unknown>): unknown {
  if (binding.kind === "whole") return getOwn(args, binding.argument);
  const body: Record<string, unknown> = {};
  for (const [argument, property] of Object.entries(binding.properties)) {
    if (getOwn(args, argument) !== undefined) setOwn(body, property, getOwn(args, argument));
  }
  // An optional body with nothing in it is not sent at all.
  return Object.keys(body).length === 0 && !binding.required ? undefined : body;
}

/** Encodes a body value for the binding's media type. */
export function encodeBody(binding: BodyBinding, value: unknown, encodings: Encodings | undefined): EncodedBody {
  const { mediaType } = binding;
  if (encodedByFeature(binding)) {
    if (!encodings) throw withoutEncodings(`a ${mediaType} body`);
    return encodings.body(binding, value);
  }
  const essence = essenceOf(mediaType);
  // A wildcard request media type gives no hint; JSON is what such APIs nearly always take. JSON
  // under another name (`text/json`, `application/x-json`) is JSON text too.
  if (isJsonEssence(essence) || essence.includes("*") || /^[^/]+\/[^;]*json/.test(essence)) {
    return { contentType: essence.includes("*") ? "application/json" : mediaType, payload: JSON.stringify(value) };
  }
  if (essence.startsWith("text/")) {
    return { contentType: mediaType, payload: typeof value === "string" ? value : String(value) };
  }
  return { contentType: mediaType, payload: typeof value === "string" ? value : JSON.stringify(value) };
}
