/**
 * Streamable HTTP transport (stateless) on node:http, for both protocol eras: one POST endpoint,
 * Host and Origin checks against DNS rebinding, protocol version and SEP-2243 header validation,
 * body limits. Replies are JSON, or an SSE stream once the request emits a notification and the
 * client accepts `text/event-stream`. Closing the response stream aborts the request.
 */
import { setMaxListeners } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import {
  isRefusal,
  type HttpEndpoints,
  type HttpGuard,
  type HttpSessions,
  type MakeHttpEndpoints,
  type Principal,
  type Refusal,
  type SessionUse,
} from "./http-plugs.js";
import { hasModernMeta } from "../protocol/era.js";
import { validateModernHeaders } from "./http-headers.js";
import {
  ErrorCode,
  RpcError,
  errorResponse,
  httpStatusOf,
  isJsonRpcId,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../protocol/jsonrpc.js";
import { BodyBudget, readBody, reject, sendJson, sendText } from "./http-util.js";
import { silentLogger, type Logger } from "../protocol/logger.js";
import {
  ALL_PROTOCOL_VERSIONS,
  DEFAULT_HTTP_PROTOCOL_VERSION,
  isKnownProtocolVersion,
  isModernProtocolVersion,
} from "../protocol/versions.js";
import type { McpServer } from "../server/server.js";
import { isRecord } from "../protocol/own.js";
import {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  DEFAULT_SHUTDOWN_GRACE_MS,
  isLoopbackHost,
  type TransportHandle,
} from "./transport.js";

/** How long an idle keep-alive connection stays open (Node's default is 5 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Options for {@link startHttp}. */
export interface HttpOptions {
  host?: string;
  /** 0 picks a free port (tests). */
  port?: number;
  /** Endpoint path (default `/mcp`). */
  path?: string;
  /** Allowed `Origin` values besides loopback ones, exact match (`https://app.example.com`). */
  allowedOrigins?: string[];
  /** Largest request body (default 4 MiB); beyond: 413. */
  maxBodyBytes?: number;
  /** Time a client has to send a whole request (default 30 s; Node's is 300 s); then 408. */
  requestTimeoutMs?: number;
  /** Most connections open at once (default 1,000); further ones are closed as they arrive. */
  maxConnections?: number;
  /** Bytes of request bodies received at once over all requests (default 64 MiB); beyond: 503. */
  bodyBudgetBytes?: number;
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
}

/** A running HTTP transport. */
export interface HttpHandle extends TransportHandle {
  readonly host: string;
  readonly port: number;
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
}

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Starts serving `server` over Streamable HTTP; resolves once listening. */
export async function startHttp(server: McpServer, options: HttpOptions = {}): Promise<HttpHandle> {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  const endpoint = options.path ?? "/mcp";
  const logger = options.logger ?? silentLogger;
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const sessions = options.sessions;
  let hostCheck: ((value: string | undefined) => boolean) | undefined;
  // The drain waits for requests being answered and for connections whose first request has not
  // reached the handler yet; it refuses only connections that have carried a request (`used`).
  const active = new Set<ServerResponse>();
  let draining = false;
  const used = new WeakSet<object>();
  const unserved = new Set<Socket>();
  const budget = new BodyBudget(options.bodyBudgetBytes ?? 64 * 1024 * 1024);
  const receive = (req: IncomingMessage) => readBody(req, limit, budget);
  const endpoints: HttpEndpoints[] = (options.endpoints ?? []).map((make) => make(server, receive, logger));
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  // A request (headers and body) must arrive within the timeout (0: none), checked every second at
  // most; idle keep-alive connections are not requests and stay open for KEEP_ALIVE_TIMEOUT_MS.
  const timeouts = {
    requestTimeout,
    headersTimeout: requestTimeout,
    connectionsCheckingInterval: requestTimeout > 0 ? Math.min(1_000, requestTimeout) : 30_000,
  };

  const http = createServer(timeouts, (req, res) => {
    if (hostCheck && !hostCheck(req.headers.host))
      return reject(res, 403, "Forbidden: Host header not allowed (see --allowed-hosts)");
    // Draining: a reused keep-alive connection gets 503 (the client may retry elsewhere); the first
    // request of a connection accepted before the listener closed is served (a load balancer has
    // already sent it here and will not re-send a POST), then the connection closes.
    if (draining && used.has(req.socket)) {
      res.setHeader("Connection", "close");
      res.setHeader("Retry-After", "1");
      return reject(res, 503, "Service Unavailable: the server is shutting down", null, ErrorCode.InternalError);
    }
    used.add(req.socket);
    unserved.delete(req.socket);
    if (draining) res.setHeader("Connection", "close");
    // Only Streamable HTTP calls are waited for; legacy SSE streams stay open until the end.
    if ((req.url ?? "/").split("?")[0] === endpoint) {
      active.add(res);
      res.once("close", () => active.delete(res));
    }
    handleRequest(req, res).catch((error: unknown) => {
      logger.error("http request failed", { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) reject(res, 500, "Internal error", null, ErrorCode.InternalError);
      else res.end();
    });
  });
  // Idle keep-alive connections stay open longer than Node's 5 s: a client that spends seconds on a
  // large answer (all tools of a 20,000-operation API) then reuses its connection, and would race
  // the server closing it ("other side closed").
  http.on("connection", (socket: Socket) => {
    unserved.add(socket);
    socket.once("close", () => unserved.delete(socket));
  });
  http.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  http.maxConnections = options.maxConnections ?? 1_000;

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = (req.url ?? "/").split("?")[0];
    const oauth = options.oauth;
    if (oauth?.serve(req, res, pathname)) return;
    const origin = req.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(origin, allowedOrigins))
      return reject(res, 403, "Forbidden: origin not allowed");
    const other = endpoints.find((endpoints) => endpoints.owns(pathname));
    if (pathname !== endpoint && !other) return sendText(res, 404, "Not Found");
    const isPublic = other?.isPublic?.(pathname) ?? false;
    const userHeader = options.userHeader?.toLowerCase();
    if (userHeader && !isPublic && !String(req.headers[userHeader] ?? "").trim())
      return reject(res, 401, `Unauthorized: no ${options.userHeader} header`);
    let principal: Principal | undefined;
    if (oauth && !isPublic) {
      const outcome = await oauth.authenticate(req.headers.authorization);
      if (isRefusal(outcome)) return refuse(res, outcome);
      principal = outcome;
    }
    const scopes = principal?.scopes;
    // The other endpoints (the deprecated HTTP+SSE ones) get the same bearer and per-tool scope checks.
    if (other) {
      const access =
        oauth && principal
          ? { principal, check: (payload: unknown) => oauth.check(server, payload, principal!.scopes) }
          : undefined;
      return other.handle(req, res, pathname, access, refuse);
    }
    // In OAuth mode a session belongs to the token's issuer and subject: another caller's token finds none.
    const owner = oauth ? { issuer: oauth.issuer, subject: principal?.subject } : undefined;
    if (sessions && req.method === "DELETE" && typeof req.headers["mcp-session-id"] === "string")
      return sessions.end(req, res, owner);
    if (req.method !== "POST") {
      res.setHeader("Allow", sessions ? "POST, DELETE" : "POST");
      return reject(res, 405, "Method not allowed: use POST");
    }
    const accepted = mediaTypes(req.headers.accept);
    if (accepted.length > 0 && !accepted.some((type) => ANSWER_TYPES.includes(type)))
      return reject(res, 406, "Not Acceptable: Accept must allow application/json or text/event-stream");
    const contentType = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (contentType !== "" && contentType !== "application/json")
      return reject(res, 415, "Unsupported Media Type: use application/json");
    const body = await receive(req);
    if (body === "aborted") return;
    if (body === "too-large" || body === "busy") {
      res.setHeader("Connection", "close");
      if (body === "too-large") return reject(res, 413, `Payload Too Large: limit is ${limit} bytes`);
      res.setHeader("Retry-After", "1");
      return reject(res, 503, "Service Unavailable: too many request bodies arriving at once; retry");
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      return reject(res, 400, "Parse error: invalid JSON", null, ErrorCode.ParseError);
    }
    const single = isRecord(payload) ? payload : undefined;
    const requestId: JsonRpcId | null = single && isJsonRpcId(single.id) ? single.id : null;

    const versionHeader = req.headers["mcp-protocol-version"];
    const version = (Array.isArray(versionHeader) ? versionHeader[0] : versionHeader)?.trim();
    if (version !== undefined && !isKnownProtocolVersion(version)) {
      return sendJson(
        res,
        400,
        errorResponse(requestId, {
          code: ErrorCode.UnsupportedProtocolVersion,
          message: "Unsupported protocol version",
          data: { supported: [...ALL_PROTOCOL_VERSIONS], requested: version },
        }),
      );
    }
    const modern = single !== undefined && hasModernMeta(single.params);
    const isInitialize = single?.method === "initialize" && !modern;
    // Modern traffic (by `_meta` or by header) never uses sessions; the dispatcher validates it.
    let use: SessionUse | undefined;
    if (sessions && !modern && !isModernProtocolVersion(version)) {
      const initialize = isInitialize ? (isRecord(single?.params) ? single.params : {}) : undefined;
      use = await sessions.open(req, res, { id: requestId, version, ...(initialize ? { initialize } : {}) }, owner);
      if (!use) return;
    }
    const session = use?.session;
    if (single && typeof single.method === "string" && "id" in single && modern) {
      try {
        validateModernHeaders(req.headers, single.method, single.params as Record<string, unknown>, (name) =>
          server.servedTool(name, single.params as Record<string, unknown>),
        );
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        return sendJson(res, error.httpStatus ?? 400, errorResponse(requestId, error.toJSON()));
      }
    }

    const insufficient = oauth && scopes ? oauth.check(server, payload, scopes) : undefined;
    if (insufficient) return refuse(res, insufficient);

    // A client that disconnects before its answer can never receive it: stop the work.
    const disconnect = new AbortController();
    // Every message of a batch listens to it: not a leak.
    setMaxListeners(0, disconnect.signal);
    res.on("close", () => {
      if (!res.writableFinished) disconnect.abort(new Error("client disconnected"));
    });
    // Notifications may be streamed when the client accepts an event stream.
    const stream = accepted.includes("text/event-stream") ? new SseWriter(res) : undefined;
    const response = await server.dispatch(payload, {
      protocolVersion: version ?? session?.version ?? DEFAULT_HTTP_PROTOCOL_VERSION,
      // A legacy client is known by its session; without sessions no request says who sent it.
      client: session?.client ?? null,
      signal: disconnect.signal,
      // A session's requests may arrive through any instance (and from any proxy address).
      scope: use?.id ? `session:${use.id}` : `http:${req.socket.remoteAddress ?? ""}`,
      ...(session ? { session } : {}),
      headers: req.headers,
      ...(scopes ? { scopes } : {}),
      ...(principal?.subject !== undefined ? { subject: principal.subject } : {}),
      ...(stream && !Array.isArray(payload)
        ? { notify: (message: JsonRpcNotification | JsonRpcRequest) => stream.send(message) }
        : {}),
    });
    if (res.destroyed || (use && !(await use.finish(res, response)))) return;
    if (stream?.started) {
      if (response !== undefined) stream.send(response);
      res.end();
      return;
    }
    if (response === undefined) {
      res.writeHead(202).end();
      return;
    }
    sendJson(res, statusFor(response), response);
  }

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? DEFAULT_HTTP_PORT, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  hostCheck = hostChecker(
    options.allowedHosts ?? (isLoopbackHost(host) ? [...LOOPBACK_HOSTNAMES].map((name) => `${name}:${port}`) : []),
    port,
  );
  options.oauth?.listening(`http://${urlHost}:${port}${endpoint}`);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  http.once("close", () => resolveClosed());

  return {
    host,
    port,
    url: `http://${urlHost}:${port}${endpoint}`,
    closed,
    /**
     * Drains, then closes: stops listening, answers 503 to new requests on open connections, ends
     * subscription streams, lets calls and working tasks finish within the grace period, then
     * cancels what is left and closes every connection.
     */
    async close() {
      draining = true;
      server.closeSubscriptions();
      const done = http.listening ? new Promise<void>((resolve) => http.close(() => resolve())) : Promise.resolve();
      // Answers still to come go out with `Connection: close`, so no client reuses a dying socket.
      for (const res of active) if (!res.headersSent) res.setHeader("Connection", "close");
      // Idle connections are not closed now: Node counts a connection whose first request is still
      // arriving as idle, and closing it would fail a request a load balancer already sent here
      // (nginx answers 502 and does not re-send a POST). They close with the rest below.
      await settled(
        () => active.size + unserved.size + server.workingTasks,
        options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
      );
      server.cancelTasks();
      for (const other of endpoints) other.closeAll();
      http.closeAllConnections();
      await done;
      await closed;
    },
  };
}

/** Resolves once `busy()` (responses being answered, tasks working) is 0, or after `graceMs`. */
async function settled(busy: () => number, graceMs: number): Promise<void> {
  const until = Date.now() + graceMs;
  while (busy() > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, until - Date.now())));
  }
}

/** The `Host` check of {@link HttpOptions.allowedHosts} (none for []); a missing Host is refused. */
export function hostChecker(
  allowed: readonly string[],
  port: number,
): ((value: string | undefined) => boolean) | undefined {
  if (allowed.length === 0) return undefined;
  const exact = new Set<string>();
  const anyPort = new Set<string>();
  for (const entry of allowed.map((e) => e.trim().toLowerCase()).filter(Boolean)) {
    if (/:\d+$/.test(entry)) exact.add(entry);
    else anyPort.add(entry);
  }
  return (value) => {
    if (value === undefined) return false;
    const host = value.trim().toLowerCase();
    if (exact.has(host)) return true;
    // A Host without a port means the scheme's default port (80 for http).
    if (port === 80 && exact.has(`${host}:80`)) return true;
    const name = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(host)?.[1];
    return name !== undefined && anyPort.has(name);
  };
}

/** True for loopback origins and for exact matches in `allowed`. */
export function isAllowedOrigin(origin: string, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOSTNAMES.has(url.hostname);
  } catch {
    return false; // includes the literal "null" origin
  }
}

/** Accept values under which a JSON or event-stream answer may be sent. */
const ANSWER_TYPES = ["application/json", "text/event-stream", "application/*", "*/*"];

/** The media types an Accept header lists; none when it is absent or empty (then anything is accepted). */
function mediaTypes(accept: string | undefined): string[] {
  return (accept ?? "")
    .split(",")
    .map((part) => part.split(";")[0]!.trim().toLowerCase())
    .filter(Boolean);
}

/** Switches a response to SSE on the first message, then writes one `message` event per JSON-RPC message. */
class SseWriter {
  started = false;

  constructor(private readonly res: ServerResponse) {}

  send(message: unknown): void {
    if (this.res.destroyed || this.res.writableEnded) return;
    if (!this.started) {
      this.started = true;
      this.res.writeHead(200, {
        "Content-Type": "text/event-stream",
        "Cache-Control": "no-cache",
        "X-Accel-Buffering": "no",
      });
    }
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }
}

/** HTTP status for a JSON reply: the dispatcher's hint, 400 for unreadable requests (null id), else 200. */
function statusFor(response: JsonRpcResponse | JsonRpcResponse[]): number {
  if (Array.isArray(response)) return 200;
  return httpStatusOf(response) ?? ("error" in response && response.id === null ? 400 : 200);
}

/** 401/403 from the resource server, with its `WWW-Authenticate` challenge. */
function refuse(res: ServerResponse, refusal: Refusal): void {
  res.setHeader("WWW-Authenticate", refusal.wwwAuthenticate);
  reject(res, refusal.status, refusal.message);
}
