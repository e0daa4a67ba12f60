/**
 * The MCP endpoint as a Web-standard fetch handler, `(Request) => Promise<Response>`, for platforms
 * that serve fetch events (Cloudflare Workers, Deno, Bun, a Lambda adapter). Stateless, for both
 * eras: 2026-07-28 requests (`server/discover`, per-request headers) and earlier revisions without
 * sessions, answered in JSON or as an event stream. The request handling is the node:http
 * transport's own (transport/http-request.ts); this module only adapts Request and Response to it.
 */
import { Cancellation } from "../../protocol/cancellation.js";
import { ErrorCode, errorResponse } from "../../protocol/jsonrpc.js";
import { silentLogger, type Logger } from "../../protocol/logger.js";
import type { McpServer } from "../../server/server.js";
import type { HttpCall, HttpReply } from "../../transport/http-call.js";
import { hostChecker, isAllowedOrigin } from "../../transport/http-hosts.js";
import { mcpRequestHandler } from "../../transport/http-request.js";
import type { BodyRefusal } from "../../transport/http-util.js";

/** Options of {@link createFetchHandler}. */
export interface FetchHandlerOptions {
  /** Endpoint path (default `/mcp`). */
  path?: string;
  /** Allowed `Origin` values besides loopback ones, exact match (`https://app.example.com`). */
  allowedOrigins?: readonly string[];
  /**
   * Accepted `Host` values (403 otherwise), as `--allowed-hosts` takes them. Default: no check (the
   * platform routes requests to this handler by their host).
   */
  allowedHosts?: readonly string[];
  /** Largest request body (default 4 MiB); beyond: 413. */
  maxBodyBytes?: number;
  logger?: Logger;
}

/** A handler of Web-standard requests. */
export type FetchHandler = (request: Request) => Promise<Response>;

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Serves `server`'s MCP endpoint to Web-standard requests: the Host and Origin checks, then the shared handler. */
export function createFetchHandler(server: McpServer, options: FetchHandlerOptions = {}): FetchHandler {
  const endpoint = options.path ?? "/mcp";
  const logger = options.logger ?? silentLogger;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const handle = mcpRequestHandler(server, { sessions: false, oauth: undefined, maxBodyBytes });
  return async (request) => {
    const url = new URL(request.url);
    const hostCheck = options.allowedHosts && hostChecker(options.allowedHosts, portOf(url));
    if (hostCheck && !hostCheck(request.headers.get("host") ?? url.host))
      return jsonError(403, "Forbidden: Host header not allowed (see --allowed-hosts)");
    const origin = request.headers.get("origin");
    if (origin !== null && !isAllowedOrigin(origin, allowedOrigins))
      return jsonError(403, "Forbidden: origin not allowed");
    if (url.pathname !== endpoint) return new Response("Not Found", { status: 404, headers: TEXT });
    const reply = new FetchReply();
    handle(fetchCall(request, maxBodyBytes), reply, { search: url.search, principal: undefined }).then(
      () => reply.settle(),
      (error: unknown) => {
        logger.error("http request failed", { error: error instanceof Error ? error.message : String(error) });
        reply.fail();
      },
    );
    return reply.response;
  };
}

const TEXT = { "Content-Type": "text/plain; charset=utf-8" };

/** The port a request arrived on, by its URL. */
function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** A JSON-RPC error answer (InvalidRequest) with HTTP `status`. */
function jsonError(status: number, message: string, code: number = ErrorCode.InvalidRequest): Response {
  return Response.json(errorResponse(null, { code, message }), { status });
}

/** A Request as the shared handler reads it. */
function fetchCall(request: Request, maxBodyBytes: number): HttpCall {
  // Header names come lower-case out of a Headers object.
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  return {
    method: request.method,
    headers,
    // Behind Cloudflare the client's address is in this header; other platforms set none.
    clientAddress: headers["cf-connecting-ip"],
    gone: new Cancellation(request.signal),
    body: () => readText(request, maxBodyBytes),
  };
}

/** The body's text, or "too-large" as soon as it passes `limit` bytes (declared or read), "aborted" when the client left. */
async function readText(request: Request, limit: number): Promise<string | BodyRefusal> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return "too-large";
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        void reader.cancel().catch(() => undefined);
        return "too-large";
      }
      chunks.push(value);
    }
  } catch {
    return "aborted";
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
  return new TextDecoder().decode(bytes);
}

const encoder = new TextEncoder();
/** The event stream's headers (as the node:http transport's: no proxy buffering). */
const SSE = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no" };

/** The Response the shared handler writes: JSON, 202, or an event stream from the first event on. */
class FetchReply implements HttpReply {
  streaming = false;
  closed = false;
  readonly response: Promise<Response>;
  private resolve!: (response: Response) => void;
  private answered = false;
  private stream: ReadableStreamDefaultController<Uint8Array> | undefined;

  constructor() {
    this.response = new Promise((resolve) => (this.resolve = resolve));
  }

  private answer(response: Response): void {
    if (this.answered) return;
    this.answered = true;
    this.resolve(response);
  }

  json(status: number, body: unknown, headers?: Readonly<Record<string, string>>): void {
    this.answer(Response.json(body, { status, ...(headers ? { headers } : {}) }));
  }

  empty(status: number): void {
    this.answer(new Response(null, { status }));
  }

  event(message: unknown): void {
    if (this.closed) return;
    if (!this.streaming) {
      this.streaming = true;
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => void (this.stream = controller),
        // The client stopped reading: nothing more can reach it.
        cancel: () => void (this.closed = true),
      });
      this.answer(new Response(body, { status: 200, headers: SSE }));
    }
    this.stream?.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.stream?.close();
  }

  /** After the handler: a request it left unanswered (the client left while its body arrived) gets an empty 400. */
  settle(): void {
    this.answer(new Response(null, { status: 400 }));
  }

  /** The handler failed: 500 when nothing was answered yet, else the stream ends. */
  fail(): void {
    if (this.streaming) return this.end();
    this.answer(jsonError(500, "Internal error", ErrorCode.InternalError));
  }
}
