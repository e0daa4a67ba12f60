/**
 * Health endpoints for load balancers and orchestrators: `GET /healthz` answers 200 while the
 * process serves HTTP at all (liveness); `GET /readyz` answers 200 when it should get traffic, and
 * 503 with a reason while it should not: draining after SIGTERM, or what `notReady` says (the
 * shared state store unreachable). They are public (no token, no user header, any `Host`): they
 * say nothing but that, and a probe (kubelet, Docker) sends no credential and its own Host.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** Liveness and readiness paths. */
export const HEALTH_PATH = "/healthz";
export const READY_PATH = "/readyz";

/** What readiness depends on. */
export interface HealthState {
  /** The server is shutting down (SIGTERM): calls in flight finish, new traffic goes elsewhere. */
  draining(): boolean;
  /** Why the server is not ready (e.g. the state store is unreachable), or undefined when it is. */
  notReady?: (() => string | undefined) | undefined;
}

/** True for the health endpoints' paths. */
export function isHealthPath(pathname: string): boolean {
  return pathname === HEALTH_PATH || pathname === READY_PATH;
}

/** Answers a request to `/healthz` or `/readyz` (GET or HEAD). */
export function serveHealth(req: IncomingMessage, res: ServerResponse, pathname: string, state: HealthState): void {
  if (req.method !== "GET" && req.method !== "HEAD") return answer(req, res, 405, { status: "use GET" }, "GET, HEAD");
  if (pathname === HEALTH_PATH) return answer(req, res, 200, { status: "ok" });
  if (state.draining()) return answer(req, res, 503, { status: "draining" });
  const reason = state.notReady?.();
  if (reason !== undefined) return answer(req, res, 503, { status: "not ready", reason });
  answer(req, res, 200, { status: "ready" });
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: Record<string, string>,
  allow?: string,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...(allow ? { Allow: allow } : {}),
  });
  res.end(req.method === "HEAD" ? undefined : text);
}
