/**
 * Streamable HTTP transport (stateless) on node:http, for both protocol eras: one POST endpoint,
 * Host and Origin checks against DNS rebinding, protocol version and SEP-2243 header validation,
 * body limits. Replies are JSON, or an SSE stream once the request emits a notification and the
 * client accepts `text/event-stream`. Closing the response stream aborts the request.
 *
 * Its parts, each in a module of its own: the limits (http-limits.ts), the drain (http-drain.ts),
 * the health probes (http-health.ts),
 * the router (http-router.ts: the guard, the origin, the endpoints beside the MCP one) and the MCP
 * endpoint's request handler (http-request.ts, over the checks in http-exchange.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ErrorCode } from "../protocol/jsonrpc.js";
import { silentLogger, type Logger } from "../protocol/logger.js";
import type { McpServer } from "../server/server.js";
import { HttpDrain, settled } from "./http-drain.js";
import { isHealthPath, serveHealth, type HealthState } from "./http-health.js";
import { LOOPBACK_HOSTNAMES, hostChecker } from "./http-hosts.js";
import { httpLimits, type HttpLimitOptions } from "./http-limits.js";
import type { HttpEndpoints, HttpGuard, HttpSessions, MakeHttpEndpoints } from "./http-plugs.js";
import { nodeMcpHandler } from "./http-node.js";
import { mcpRequestHandler } from "./http-request.js";
import { httpRouter } from "./http-router.js";
import { reject } from "./http-util.js";
import {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  DEFAULT_SHUTDOWN_GRACE_MS,
  isLoopbackHost,
  type TransportHandle,
} from "./transport.js";

/** Options for {@link startHttp}. */
export interface HttpOptions extends HttpLimitOptions {
  host?: string;
  /** 0 picks a free port (tests). */
  port?: number;
  /** Endpoint path (default `/mcp`). */
  path?: string;
  /** Allowed `Origin` values besides loopback ones, exact match (`https://app.example.com`). */
  allowedOrigins?: string[];
  /** Legacy-era sessions (feature `sessions`); without them the transport is stateless. */
  sessions?: HttpSessions;
  /**
   * Accepted `Host` values (403 otherwise): with a port, exact; without, that host on any port.
   * Default: loopback names with the bound port for a loopback bind, else no check; [] turns it off.
   */
  allowedHosts?: string[];
  /** Grace period in milliseconds for calls in flight when the handle is closed (default 10000). */
  shutdownGraceMs?: number;
  /** Endpoints served beside the MCP one (features `legacy-sse`, `user-oauth`): a path goes to the first that owns it. */
  endpoints?: readonly MakeHttpEndpoints[];
  logger?: Logger;
  /** A check of every request (feature `oauth`: bearer tokens of an OAuth 2.1 resource server). */
  oauth?: HttpGuard;
  /** A header a trusted gateway names the user by (`--trust-user-header`): requests without it get 401. */
  userHeader?: string;
  /** Why the server is not ready for traffic (`/readyz` answers 503), or undefined when it is. */
  notReady?: () => string | undefined;
}

/** A running HTTP transport. */
export interface HttpHandle extends TransportHandle {
  readonly host: string;
  readonly port: number;
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
}

/**
 * Starts serving `server` over Streamable HTTP; resolves once listening. Each request goes through
 * the Host check, the drain, then the router ({@link onRequest}).
 */
export async function startHttp(server: McpServer, options: HttpOptions = {}): Promise<HttpHandle> {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  const endpoint = options.path ?? "/mcp";
  const logger = options.logger ?? silentLogger;
  const limits = httpLimits(options);
  const drain = new HttpDrain();
  const endpoints = (options.endpoints ?? []).map((make) => make(server, limits.receive, logger));
  const route = httpRouter(
    server,
    {
      endpoint,
      endpoints,
      allowedOrigins: new Set(options.allowedOrigins ?? []),
      userHeader: options.userHeader,
      oauth: options.oauth,
    },
    nodeMcpHandler(
      mcpRequestHandler(server, { ...limits, sessions: options.sessions !== undefined, oauth: options.oauth }),
      limits.receive,
      options.sessions,
    ),
  );
  const health = { draining: () => drain.isDraining, notReady: options.notReady };
  const gate: RequestGate = { endpoint, drain, route, logger, health, hostCheck: undefined };
  const http = createServer(limits.serverOptions, (req, res) => onRequest(gate, req, res));
  drain.watch(http);
  limits.apply(http);
  const port = await listen(http, options.port ?? DEFAULT_HTTP_PORT, host);
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}${endpoint}`;
  gate.hostCheck = hostChecker(
    options.allowedHosts ?? (isLoopbackHost(host) ? [...LOOPBACK_HOSTNAMES].map((name) => `${name}:${port}`) : []),
    port,
  );
  options.oauth?.listening(url);
  const closed = new Promise<void>((resolve) => http.once("close", () => resolve()));
  const close = () => drainAndClose(server, http, drain, endpoints, closed, options.shutdownGraceMs);
  return { host, port, url, closed, close };
}

/** What every request passes before the router: the Host check (set once listening) and the drain. */
interface RequestGate {
  readonly endpoint: string;
  readonly drain: HttpDrain;
  readonly route: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
  readonly logger: Logger;
  readonly health: HealthState;
  hostCheck: ((value: string | undefined) => boolean) | undefined;
}

/** One request: health probes first, the Host check, the drain's admission, then the router; a failure is a 500. */
function onRequest(gate: RequestGate, req: IncomingMessage, res: ServerResponse): void {
  const pathname = (req.url ?? "/").split("?")[0]!;
  // A probe sends its own Host and no credential; its answer says nothing else (http-health.ts).
  if (isHealthPath(pathname)) {
    gate.drain.served(req, res);
    return serveHealth(req, res, pathname, gate.health);
  }
  if (gate.hostCheck && !gate.hostCheck(req.headers.host))
    return reject(res, 403, "Forbidden: Host header not allowed (see --allowed-hosts)");
  // Only Streamable HTTP calls are waited for; legacy SSE streams stay open until the end.
  if (!gate.drain.admit(req, res, pathname === gate.endpoint)) return;
  let routed: Promise<void> | void;
  try {
    routed = gate.route(req, res);
  } catch (error) {
    routed = Promise.reject(error); // the router is not async: what it throws is answered the same way
  }
  routed?.catch((error: unknown) => {
    gate.logger.error("http request failed", { error: error instanceof Error ? error.message : String(error) });
    if (!res.headersSent) reject(res, 500, "Internal error", null, ErrorCode.InternalError);
    else res.end();
  });
}

/** Listens on `port` (0: a free one) and `host`; resolves with the bound port. */
async function listen(http: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  return (http.address() as AddressInfo).port;
}

/**
 * Drains, then closes: stops listening, answers 503 to new requests on open connections, ends
 * subscription streams, lets calls and working tasks finish within the grace period, then
 * cancels what is left and closes every connection.
 */
async function drainAndClose(
  server: McpServer,
  http: Server,
  drain: HttpDrain,
  endpoints: readonly HttpEndpoints[],
  closed: Promise<void>,
  graceMs = DEFAULT_SHUTDOWN_GRACE_MS,
): Promise<void> {
  drain.start();
  server.closeSubscriptions();
  const done = http.listening ? new Promise<void>((resolve) => http.close(() => resolve())) : Promise.resolve();
  // Idle connections are not closed now: Node counts a connection whose first request is still
  // arriving as idle, and closing it would fail a request a load balancer already sent here
  // (nginx answers 502 and does not re-send a POST). They close with the rest below.
  await settled(() => drain.busy + server.workingTasks, graceMs);
  server.cancelTasks();
  for (const other of endpoints) other.closeAll();
  http.closeAllConnections();
  await done;
  await closed;
}
