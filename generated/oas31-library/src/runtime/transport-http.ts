/**
 * Streamable HTTP transport (stateless, JSON responses) on node:http. One endpoint, POST only;
 * Origin validation against DNS rebinding; `MCP-Protocol-Version` validation; 4 MB body limit.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ErrorCode, errorResponse, type JsonRpcResponse } from "./jsonrpc.js";
import { isRefusal, type Refusal, type ResourceServer } from "./oauth-resource.js";
import { silentLogger, type Logger } from "./logger.js";
import { DEFAULT_HTTP_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, isSupportedProtocolVersion } from "./protocol.js";
import type { McpServer } from "./server.js";
import type { TransportHandle } from "./transport.js";

/** Default bind address: loopback only. */
export const DEFAULT_HTTP_HOST = "127.0.0.1";
/** Default port. */
export const DEFAULT_HTTP_PORT = 3000;
/** Default request body limit in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Options for {@link startHttp}. */
export interface HttpOptions {
  host?: string;
  /** 0 picks a free port (tests). */
  port?: number;
  /** Endpoint path (default `/mcp`). */
  path?: string;
  /** Extra allowed `Origin` values, exact match (e.g. `https://app.example.com`). Loopback origins are always allowed. */
  allowedOrigins?: string[];
  maxBodyBytes?: number;
  logger?: Logger;
  /** OAuth 2.1 resource-server mode: every MCP request needs a valid bearer token. */
  oauth?: ResourceServer;
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
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const allowedOrigins = new Set(options.allowedOrigins ?? []);

  const http = createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      logger.error("http request failed", { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) sendJson(res, 500, errorResponse(null, { code: ErrorCode.InternalError, message: "Internal error" }));
      else res.end();
    });
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = (req.url ?? "/").split("?")[0];
    const oauth = options.oauth;
    // RFC 9728: metadata at the root well-known path and at the one suffixed with the endpoint.
    if (oauth && req.method === "GET" && (pathname === "/.well-known/oauth-protected-resource" || pathname === `/.well-known/oauth-protected-resource${endpoint}`)) {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=3600" }).end(JSON.stringify(oauth.metadata()));
      return;
    }
    if (pathname !== endpoint) return sendText(res, 404, "Not Found");

    const origin = req.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(origin, allowedOrigins)) {
      return sendJson(res, 403, errorResponse(null, { code: ErrorCode.InvalidRequest, message: "Forbidden: origin not allowed" }));
    }
    let scopes: ReadonlySet<string> | undefined;
    if (oauth) {
      const principal = await oauth.authenticate(req.headers.authorization);
      if (isRefusal(principal)) return refuse(res, principal);
      scopes = principal.scopes;
    }
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      return sendJson(res, 405, errorResponse(null, { code: ErrorCode.InvalidRequest, message: "Method not allowed: use POST" }));
    }
    if (!acceptsJson(req.headers.accept)) {
      return sendJson(res, 406, errorResponse(null, { code: ErrorCode.InvalidRequest, message: "Not Acceptable: Accept must allow application/json or text/event-stream" }));
    }
    const contentType = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (contentType !== "" && contentType !== "application/json") {
      return sendJson(res, 415, errorResponse(null, { code: ErrorCode.InvalidRequest, message: "Unsupported Media Type: use application/json" }));
    }
    const versionHeader = req.headers["mcp-protocol-version"];
    const version = Array.isArray(versionHeader) ? versionHeader[0] : versionHeader;
    if (version !== undefined && !isSupportedProtocolVersion(version.trim())) {
      return sendJson(res, 400, errorResponse(null, {
        code: ErrorCode.InvalidRequest,
        message: `Unsupported MCP-Protocol-Version: ${version} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
      }));
    }

    const body = await readBody(req, limit);
    if (body === "too-large") {
      res.setHeader("Connection", "close");
      return sendJson(res, 413, errorResponse(null, { code: ErrorCode.InvalidRequest, message: `Payload Too Large: limit is ${limit} bytes` }));
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      return sendJson(res, 400, errorResponse(null, { code: ErrorCode.ParseError, message: "Parse error: invalid JSON" }));
    }

    if (oauth && scopes) {
      const call = payload as { method?: unknown; params?: { name?: unknown } } | null;
      if (call && typeof call === "object" && call.method === "tools/call" && typeof call.params?.name === "string") {
        const missing = server.requiredScopes(call.params.name).filter((scope) => !scopes!.has(scope));
        if (missing.length > 0) return refuse(res, oauth.insufficientScope(missing));
      }
    }

    // A client that disconnects before its answer can never receive it: stop the work.
    const disconnect = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) disconnect.abort(new Error("client disconnected"));
    });
    const response = await server.dispatch(payload, {
      protocolVersion: version?.trim() ?? DEFAULT_HTTP_PROTOCOL_VERSION,
      signal: disconnect.signal,
      scope: `http:${req.socket.remoteAddress ?? ""}`,
      headers: req.headers,
      ...(scopes ? { scopes } : {}),
    });
    if (res.destroyed) return;
    if (response === undefined) {
      res.writeHead(202).end();
      return;
    }
    sendJson(res, isUnreadableRequestError(response) ? 400 : 200, response);
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
  if (options.oauth && options.oauth.metadataUrl === "") {
    options.oauth.metadataUrl = `http://${urlHost}:${port}/.well-known/oauth-protected-resource${endpoint}`;
  }

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  http.once("close", () => resolveClosed());

  return {
    host,
    port,
    url: `http://${urlHost}:${port}${endpoint}`,
    closed,
    async close() {
      if (http.listening) {
        const done = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeAllConnections();
        await done;
      }
      await closed;
    },
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

function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true; // lenient: absent means anything
  return accept
    .split(",")
    .map((part) => part.split(";")[0]!.trim().toLowerCase())
    .some((type) => ["application/json", "text/event-stream", "application/*", "*/*"].includes(type));
}

/** Reads the body, or returns "too-large" as soon as it exceeds `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | "too-large"> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume(); // drain without buffering
    return Promise.resolve("too-large");
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        resolve("too-large");
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!tooLarge) resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

/** Parse errors and unreadable requests (null id) are client errors on HTTP too. */
function isUnreadableRequestError(response: JsonRpcResponse | JsonRpcResponse[]): boolean {
  return !Array.isArray(response) && "error" in response && response.id === null;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

/** 401/403 from the resource server, with its `WWW-Authenticate` challenge. */
function refuse(res: ServerResponse, refusal: Refusal): void {
  res.setHeader("WWW-Authenticate", refusal.wwwAuthenticate);
  sendJson(res, refusal.status, errorResponse(null, { code: ErrorCode.InvalidRequest, message: refusal.message }));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}
