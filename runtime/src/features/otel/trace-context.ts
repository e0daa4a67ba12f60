/**
 * W3C Trace Context (`traceparent`, version 00) read and written by hand: the API package has no
 * propagator of its own (W3CTraceContextPropagator lives in an SDK package the server does not
 * install unless it exports), and the format is one fixed-width line.
 */

/** The parts of a `traceparent` value. */
export interface TraceParent {
  traceId: string;
  spanId: string;
  /** The flags byte (bit 0: sampled). */
  traceFlags: number;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** Reads a `traceparent` value; undefined when absent or invalid (all-zero ids, version ff, bad form). */
export function parseTraceparent(value: unknown): TraceParent | undefined {
  if (typeof value !== "string") return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  // Version 00 has exactly four fields; a later version may add more (read the first four).
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: parseInt(flags, 16) };
}

/** Writes a version-00 `traceparent` value. */
export function formatTraceparent(parent: TraceParent): string {
  return `00-${parent.traceId}-${parent.spanId}-${(parent.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

/** A `tracestate` value when it is a plausible list (printable ASCII, at most 512 characters). */
export function validTracestate(value: unknown): string | undefined {
  return typeof value === "string" && value.length <= 512 && /^[\x20-\x7e]*$/.test(value) && value.trim() !== ""
    ? value.trim()
    : undefined;
}
