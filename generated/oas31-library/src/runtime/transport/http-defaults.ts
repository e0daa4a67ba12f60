// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * The Streamable HTTP transport's defaults and the loopback test, apart from transport-http.ts so
 * that the command line (its usage text and flags) needs them without loading node:http and the
 * HTTP transport: a stdio server never imports those.
 */

/** Default bind address: loopback only. */
export const DEFAULT_HTTP_HOST = "127.0.0.1";
/** Default port. */
export const DEFAULT_HTTP_PORT = 3000;
/** Default time calls in flight get to finish when the server shuts down (SIGTERM), in milliseconds. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** True for bind addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
