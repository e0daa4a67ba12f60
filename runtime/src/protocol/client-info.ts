/** Who the client says it is: `clientInfo` of the legacy `initialize` (of a modern request's `_meta`: feature `clients`). */
import { isRecord } from "./own.js";

/** A client's self-description, as `initialize` or `_meta` carries it. */
export interface ClientInfo {
  name: string;
  version?: string;
}

/** The client identity in `value` (a `clientInfo` object), or undefined when it has none. */
export function clientInfoOf(value: unknown): ClientInfo | undefined {
  if (!isRecord(value) || typeof value.name !== "string") return undefined;
  return typeof value.version === "string" ? { name: value.name, version: value.version } : { name: value.name };
}
