/**
 * What transports share, and the HTTP defaults the command line needs without loading node:http
 * and the HTTP transport (a stdio server never imports those).
 */

/** A running transport. */
export interface TransportHandle {
  /** Stops accepting messages and releases resources; resolves when done. */
  close(): Promise<void>;
  /** Resolves once the transport has shut down (stdio: stdin EOF and in-flight work settled). */
  readonly closed: Promise<void>;
}

/** Default bind address: loopback only. */
export const DEFAULT_HTTP_HOST = "127.0.0.1";
export const DEFAULT_HTTP_PORT = 3000;
/** Default time calls in flight get to finish when the server shuts down (SIGTERM), in milliseconds. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** Default of the connections an HTTP server keeps open at once (http-limits.ts); further ones are closed. */
export const DEFAULT_MAX_CONNECTIONS = 1_000;

/** True for bind addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
