// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/** The small contract shared by transports. */

/** A running transport. */
export interface TransportHandle {
  /** Stops accepting messages and releases resources; resolves when done. */
  close(): Promise<void>;
  /** Resolves once the transport has shut down (stdio: stdin EOF and in-flight work settled). */
  readonly closed: Promise<void>;
}
