/** Who the client says it is: `clientInfo` of the legacy `initialize`, or of a modern request's `_meta`. */
import { isRecord } from "./own.js";

/** The `_meta` key of the modern era's per-request client identity. */
const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

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

/** The modern request's client identity from its `_meta`, if it sent one. */
export function modernClientInfo(params: unknown): ClientInfo | undefined {
  return isRecord(params) && isRecord(params._meta) ? clientInfoOf(params._meta[META_CLIENT_INFO]) : undefined;
}
