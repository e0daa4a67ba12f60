/**
 * The HTTP transport's drain: what a shutdown waits for and what it refuses. It waits for requests
 * being answered and for connections whose first request has not reached the handler yet; it
 * refuses only connections that have carried a request.
 */
import type { Server, ServerResponse, IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { ErrorCode } from "../protocol/jsonrpc.js";
import { reject } from "./http-util.js";

/** Tracks the connections and answers of one HTTP server so that closing it lets them finish. */
export class HttpDrain {
  private draining = false;
  /** Answers of the MCP endpoint being written (legacy SSE streams are not waited for). */
  private readonly active = new Set<ServerResponse>();
  /** Connections that have carried a request. */
  private readonly used = new WeakSet<object>();
  /** Connections whose first request has not reached the handler yet. */
  private readonly unserved = new Set<Socket>();

  /** Watches the connections `http` accepts. */
  watch(http: Server): void {
    http.on("connection", (socket: Socket) => {
      this.unserved.add(socket);
      socket.once("close", () => this.unserved.delete(socket));
    });
  }

  /**
   * Admits a request: false when it answered 503 instead. Draining, a reused keep-alive connection
   * gets 503 (the client may retry elsewhere); the first request of a connection accepted before the
   * listener closed is served (a load balancer has already sent it here and will not re-send a
   * POST), then the connection closes. `waited` answers are tracked until they close.
   */
  admit(req: IncomingMessage, res: ServerResponse, waited: boolean): boolean {
    if (this.draining && this.used.has(req.socket)) {
      res.setHeader("Connection", "close");
      res.setHeader("Retry-After", "1");
      reject(res, 503, "Service Unavailable: the server is shutting down", null, ErrorCode.InternalError);
      return false;
    }
    this.served(req, res);
    if (waited) {
      this.active.add(res);
      res.once("close", () => this.active.delete(res));
    }
    return true;
  }

  /** Notes that a connection has carried a request (health probes are answered even while draining). */
  served(req: IncomingMessage, res: ServerResponse): void {
    this.used.add(req.socket);
    this.unserved.delete(req.socket);
    if (this.draining) res.setHeader("Connection", "close");
  }

  /** True once the shutdown began. */
  get isDraining(): boolean {
    return this.draining;
  }

  /** Starts draining: answers still to come go out with `Connection: close`, so no client reuses a dying socket. */
  start(): void {
    this.draining = true;
    for (const res of this.active) if (!res.headersSent) res.setHeader("Connection", "close");
  }

  /** Answers being written and connections still to be served. */
  get busy(): number {
    return this.active.size + this.unserved.size;
  }
}

/** Resolves once `busy()` (responses being answered, tasks working) is 0, or after `graceMs`. */
export async function settled(busy: () => number, graceMs: number): Promise<void> {
  const until = Date.now() + graceMs;
  while (busy() > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, until - Date.now())));
  }
}
