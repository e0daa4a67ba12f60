/** MCP protocol revisions served by this runtime (legacy era, negotiated by `initialize`). */

/** Supported legacy revisions, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** The newest supported revision; the answer to an `initialize` asking for an unknown one. */
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

/** What a Streamable HTTP server assumes when `MCP-Protocol-Version` is absent (spec, 2025-06-18+). */
export const DEFAULT_HTTP_PROTOCOL_VERSION = "2025-03-26";

/** The only revision in which JSON-RPC batches are legal. */
export const BATCH_PROTOCOL_VERSION = "2025-03-26";

/** True when `version` is a revision this runtime serves. */
export function isSupportedProtocolVersion(version: unknown): version is string {
  return typeof version === "string" && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** The version to answer `initialize` with: the requested one if supported, else the latest. */
export function negotiateProtocolVersion(requested: unknown): string {
  return isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
