/** MCP protocol revisions: legacy ones (≤ 2025-11-25) negotiated by `initialize`, the modern one per request. */

/** Supported legacy revisions (negotiated by `initialize`), newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** The modern, stateless revision (per-request `_meta`, `server/discover`). */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/** Every revision served, modern first: the list `server/discover` and -32022 errors report. */
export const ALL_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** The newest legacy revision; the answer to an `initialize` asking for an unknown one. */
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

/** What a Streamable HTTP server assumes when `MCP-Protocol-Version` is absent (spec, 2025-06-18+). */
export const DEFAULT_HTTP_PROTOCOL_VERSION = "2025-03-26";

/** The only revision in which JSON-RPC batches are legal. */
export const BATCH_PROTOCOL_VERSION = "2025-03-26";

/** `_meta` key carrying the modern per-request protocol version. */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
/** `_meta` key carrying the modern per-request client capabilities. */
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
/** `_meta` key carrying the modern per-request log level. */
export const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
/** `_meta` key identifying the server on modern results. */
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
/** `_meta` key tagging notifications delivered on a `subscriptions/listen` stream. */
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** True when `version` is a legacy revision this runtime serves. */
export function isSupportedProtocolVersion(version: unknown): version is string {
  return typeof version === "string" && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** True when `version` is any revision this runtime serves (legacy or modern). */
export function isKnownProtocolVersion(version: unknown): version is string {
  return typeof version === "string" && ALL_PROTOCOL_VERSIONS.includes(version);
}

/** True for revisions of the modern (stateless) era: 2026-07-28 and later date strings. */
export function isModernProtocolVersion(version: unknown): boolean {
  return typeof version === "string" && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= MODERN_PROTOCOL_VERSION;
}

/** The version to answer `initialize` with: the requested one if supported, else the latest. */
export function negotiateProtocolVersion(requested: unknown): string {
  return isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
