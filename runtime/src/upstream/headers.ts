/**
 * Which request headers a tool's arguments may set. Framing and hop-by-hop headers (RFC 9110
 * §7.6.1, RFC 9112 §6, RFC 9113 §8.2.2) describe the connection and the message's length, which
 * the HTTP client works out from the request itself: a value from arguments (`Content-Length: 1`
 * for a 30-byte body, a `Transfer-Encoding` beside a length) makes the upstream wait for bytes that
 * never come, or read two requests where one was sent on a kept-alive connection. Pure; the
 * generator uses the same test to leave such parameters out of the tool's input.
 */
import { setOwn } from "../protocol/own.js";

const FRAMING = new Set([
  "content-length",
  "host",
  "transfer-encoding",
  "connection",
  "expect",
  "upgrade",
  "te",
  "trailer",
  "keep-alive",
]);

/** True for a framing or hop-by-hop header name (any case): never taken from arguments. */
export function isFramingHeader(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return FRAMING.has(lower) || lower.startsWith("proxy-");
}

/** The headers without framing and hop-by-hop ones (see {@link isFramingHeader}); the same object when none. */
export function withoutFramingHeaders(headers: Record<string, string>): Record<string, string> {
  const names = Object.keys(headers);
  if (!names.some(isFramingHeader)) return headers;
  const kept: Record<string, string> = {};
  for (const name of names) if (!isFramingHeader(name)) setOwn(kept, name, headers[name]!);
  return kept;
}
