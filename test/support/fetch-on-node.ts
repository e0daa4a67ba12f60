/**
 * Serves a fetch handler (runtime feature `fetch`) on node:http for tests: each request becomes a
 * Web-standard Request (its body streamed, its signal aborted when the client leaves) and the
 * Response is written back as it streams. This lets the transport tests and the official SDK
 * clients drive the fetch handler exactly as they drive the node:http transport.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { McpServer } from "../../runtime/src/server/server.js";
import {
  createFetchHandler,
  type FetchHandler,
  type FetchHandlerOptions,
} from "../../runtime/src/features/fetch/fetch-handler.js";

/** A running fetch handler on node:http. */
export interface FetchOnNode {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves `server` through {@link createFetchHandler} at `http://127.0.0.1:<free port>/mcp`. */
export function startFetchHttp(server: McpServer, options: FetchHandlerOptions = {}): Promise<FetchOnNode> {
  return serveFetchOnNode(createFetchHandler(server, options), options.path ?? "/mcp");
}

/** Serves any fetch handler on a free loopback port. */
export async function serveFetchOnNode(handler: FetchHandler, path = "/mcp"): Promise<FetchOnNode> {
  const http = createServer((req, res) => {
    const controller = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) controller.abort(new Error("client disconnected"));
    });
    void handler(toRequest(req, controller.signal))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body) for await (const chunk of response.body) res.write(chunk);
        res.end();
      })
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    close: () => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))),
  };
}

/** A node:http request as a Web-standard Request. */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
}
