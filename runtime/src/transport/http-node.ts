/**
 * The MCP endpoint's handler (http-request.ts) on node:http: a request becomes an {@link HttpCall}
 * (its body read within the transport's limits, legacy sessions bound to it) and its response an
 * {@link HttpReply} (JSON, 202, or an event stream).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Cancellation } from "../protocol/cancellation.js";
import type { HttpCall, HttpReply, McpRoute } from "./http-call.js";
import type { HttpSessions, ReceiveBody, SessionOwner } from "./http-plugs.js";
import type { McpHandler } from "./http-request.js";
import { sendJson } from "./http-util.js";

/** The handler `handle` on node:http, reading bodies with `receive`; `sessions` when legacy sessions are on. */
export function nodeMcpHandler(
  handle: McpHandler,
  receive: ReceiveBody,
  sessions: HttpSessions | undefined,
): (req: IncomingMessage, res: ServerResponse, route: McpRoute) => Promise<void> {
  return (req, res, route) => handle(nodeCall(req, res, receive, sessions), new NodeReply(res), route);
}

/** A node:http request as the handler reads it. */
function nodeCall(
  req: IncomingMessage,
  res: ServerResponse,
  receive: ReceiveBody,
  sessions: HttpSessions | undefined,
): HttpCall {
  return {
    method: req.method ?? "GET",
    headers: req.headers,
    clientAddress: req.socket.remoteAddress,
    gone: disconnection(res),
    // No async wrapper: one promise, not an async frame and its await.
    body: () => receive(req).then((body) => (typeof body === "string" ? body : body.toString("utf8"))),
    sessions: sessions && {
      end: (owner: SessionOwner | undefined) => sessions.end(req, res, owner),
      open: async (request, owner) => {
        const use = await sessions.open(req, res, request, owner);
        return use && { id: use.id, session: use.session, finish: (response) => use.finish(res, response) };
      },
    },
  };
}

/**
 * A client that disconnects before its answer can never receive it: a cancellation that stops the work.
 * Not an `AbortController` (with `setMaxListeners` for a batch's messages): 2.4 % of the busy time under
 * load, for a signal a plain tool call never reads; the runtime's own record makes one only on demand.
 */
function disconnection(res: ServerResponse): Cancellation {
  const gone = new Cancellation();
  res.once("close", () => {
    if (!res.writableFinished) gone.cancel(new Error("client disconnected"));
  });
  return gone;
}

/** A node:http response as the handler answers: JSON with its length, 202, or SSE from the first event on. */
class NodeReply implements HttpReply {
  streaming = false;

  constructor(private readonly res: ServerResponse) {}

  get closed(): boolean {
    return this.res.destroyed;
  }

  json(status: number, body: unknown, headers?: Readonly<Record<string, string>>): void {
    if (headers) for (const name in headers) this.res.setHeader(name, headers[name]!);
    sendJson(this.res, status, body);
  }

  empty(status: number): void {
    this.res.writeHead(status).end();
  }

  event(message: unknown): void {
    if (this.res.destroyed || this.res.writableEnded) return;
    if (!this.streaming) {
      this.streaming = true;
      this.res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        "x-accel-buffering": "no",
      });
    }
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  end(): void {
    this.res.end();
  }
}
