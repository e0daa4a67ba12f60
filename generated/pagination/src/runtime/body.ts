/** Request body assembly and encoding per the tool's BodyBinding and media type. */
import type { BodyBinding } from "./types.js";

/** An encoded request body with the Content-Type to send. */
export interface EncodedBody {
  contentType: string;
  payload: string;
}

/** True for `application/json` and any `+json` suffix type (parameters ignored). */
export function isJsonMediaType(mediaType: string): boolean {
  const essence = mediaType.split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json");
}

/** Collects the body value from the arguments; undefined when there is no body to send. */
export function collectBody(binding: BodyBinding, args: Record<string, unknown>): unknown {
  if (binding.kind === "whole") return args[binding.argument];
  const body: Record<string, unknown> = {};
  for (const [argument, property] of Object.entries(binding.properties)) {
    if (args[argument] !== undefined) body[property] = args[argument];
  }
  // An optional body with nothing in it is not sent at all.
  return Object.keys(body).length === 0 && !binding.required ? undefined : body;
}

/** Encodes a body value for the binding's media type. */
export function encodeBody(mediaType: string, value: unknown): EncodedBody {
  const essence = mediaType.split(";")[0]!.trim().toLowerCase();
  // A wildcard request media type gives no hint; JSON is what such APIs nearly always take.
  if (isJsonMediaType(mediaType) || essence.includes("*")) {
    return { contentType: essence.includes("*") ? "application/json" : mediaType, payload: JSON.stringify(value) };
  }
  if (essence === "application/x-www-form-urlencoded") {
    return { contentType: mediaType, payload: formEncode(value) };
  }
  if (essence.startsWith("text/")) {
    return { contentType: mediaType, payload: typeof value === "string" ? value : String(value) };
  }
  return { contentType: mediaType, payload: typeof value === "string" ? value : JSON.stringify(value) };
}

/** URLSearchParams of an object: arrays repeat the key, nested objects are JSON-encoded. */
function formEncode(value: unknown): string {
  const params = new URLSearchParams();
  if (typeof value !== "object" || value === null || Array.isArray(value)) return String(value ?? "");
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    const items = Array.isArray(v) ? v : [v];
    for (const item of items) {
      params.append(key, typeof item === "object" && item !== null ? JSON.stringify(item) : String(item));
    }
  }
  return params.toString();
}
