/**
 * The HTTP transport's limits: how long a request may take to arrive, how long an idle connection
 * stays open, how many connections, how large a body, and how many body bytes at once.
 */
import type { IncomingMessage, Server, ServerOptions } from "node:http";
import { BodyBudget, readBody } from "./http-util.js";
import type { ReceiveBody } from "./http-plugs.js";
import { DEFAULT_MAX_CONNECTIONS } from "./transport.js";

/** How long an idle keep-alive connection stays open (Node's default is 5 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The limits an HTTP transport is started with (each has a default). */
export interface HttpLimitOptions {
  /** Largest request body (default 4 MiB); beyond: 413. */
  maxBodyBytes?: number;
  /** Time a client has to send a whole request (default 30 s; Node's is 300 s); then 408. */
  requestTimeoutMs?: number;
  /** Most connections open at once (default 1,000); further ones are closed as they arrive. */
  maxConnections?: number;
  /** Bytes of request bodies received at once over all requests (default 64 MiB); beyond: 503. */
  bodyBudgetBytes?: number;
}

/** The limits in force: the body size, the body reader that keeps to them, and the server's own options. */
export interface HttpLimits {
  readonly maxBodyBytes: number;
  readonly receive: ReceiveBody;
  /** Options of node:http's `createServer`. */
  readonly serverOptions: ServerOptions;
  /** Sets what `createServer` does not take: keep-alive and connection limits. */
  apply(http: Server): void;
}

/** The limits of `options`, defaults filled in. */
export function httpLimits(options: HttpLimitOptions): HttpLimits {
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const budget = new BodyBudget(options.bodyBudgetBytes ?? 64 * 1024 * 1024);
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  return {
    maxBodyBytes,
    receive: (req: IncomingMessage) => readBody(req, maxBodyBytes, budget),
    // A request (headers and body) must arrive within the timeout (0: none), checked every second at
    // most; idle keep-alive connections are not requests and stay open for KEEP_ALIVE_TIMEOUT_MS.
    serverOptions: {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: requestTimeout > 0 ? Math.min(1_000, requestTimeout) : 30_000,
    },
    apply(http) {
      // Idle keep-alive connections stay open longer than Node's 5 s: a client that spends seconds on a
      // large answer (all tools of a 20,000-operation API) then reuses its connection, and would race
      // the server closing it ("other side closed").
      http.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      http.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    },
  };
}
