/**
 * A stand-in for the server's upstream API during a compliance check, on 127.0.0.1: it records every
 * request the server sends and answers none of them until the check ends, so the check can see
 * whether a refused call still reached the API (it must not) and whether cancelling a call aborts
 * the upstream request it is waiting on (it should).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** A request the server sent upstream. */
export interface UpstreamRequest {
  method: string;
  url: string;
  /** Resolves when the server closed (aborted) the request: it gets no answer before that. */
  closed: Promise<void>;
}

/** The running stand-in. */
export class UpstreamTripwire {
  readonly requests: UpstreamRequest[] = [];
  private readonly held = new Set<ServerResponse>();
  private readonly sockets = new Set<Socket>();
  private readonly listeners: Array<() => void> = [];

  private constructor(
    private readonly server: Server,
    /** Base URL to give the server (`--base-url`, `API_BASE_URL`). */
    readonly url: string,
  ) {}

  /** Starts listening on a free loopback port. */
  static async start(): Promise<UpstreamTripwire> {
    let tripwire: UpstreamTripwire | undefined;
    const server = createServer((req, res) => tripwire!.receive(req, res));
    server.on("connection", (socket) => {
      tripwire?.sockets.add(socket);
      socket.once("close", () => tripwire?.sockets.delete(socket));
    });
    await new Promise<void>((done, fail) => {
      server.once("error", fail);
      server.listen(0, "127.0.0.1", () => done());
    });
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("the upstream stand-in has no port");
    tripwire = new UpstreamTripwire(server, `http://127.0.0.1:${address.port}`);
    return tripwire;
  }

  private receive(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    this.held.add(res);
    const closed = new Promise<void>((done) => res.once("close", () => done()));
    void closed.then(() => this.held.delete(res));
    this.requests.push({ method: req.method ?? "", url: req.url ?? "", closed });
    for (const listener of this.listeners.splice(0)) listener();
  }

  /** Resolves with the next request from now on, or undefined after `ms`. */
  nextRequest(ms: number): Promise<UpstreamRequest | undefined> {
    const seen = this.requests.length;
    return new Promise((done) => {
      const timer = setTimeout(() => done(undefined), ms);
      this.listeners.push(() => {
        clearTimeout(timer);
        done(this.requests[seen]);
      });
    });
  }

  /** Answers every held request with 503, closes every connection and stops listening. */
  async stop(): Promise<void> {
    for (const res of this.held) {
      if (!res.headersSent)
        res.writeHead(503, { "content-type": "application/json" }).end('{"message":"compliance check finished"}');
    }
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}
