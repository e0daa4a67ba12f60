/** Own-property helpers for objects keyed by names from a spec or a client (`__proto__`, `constructor`, …). */

/** Sets `key` on `target` as an own enumerable data property, `__proto__` included. */
export function setOwn(target: object, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
}

/** The own property `key` of `target`, never an inherited one (`constructor`, `toString`, …). */
export function getOwn(target: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(target, key) ? (target as Record<string, unknown>)[key] : undefined;
}

/** Whether `value` is a JSON object: not null, not an array (the one check every module uses). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
