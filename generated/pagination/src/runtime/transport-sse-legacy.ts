/**
 * The deprecated HTTP+SSE transport (protocol revision 2024-11-05), behind a flag: GET `/sse`
 * opens a stream whose first event (`endpoint`) names the POST URL `/messages?sessionId=…`;
 * each POSTed message is answered 202 and its response, notifications and server→client
 * requests travel as `message` events on that stream. Session ids are 128 random bits.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody, sendJson, sendText } from "./http-util.js";
import { ErrorCode, errorResponse } from "./jsonrpc.js";
import type { Logger } from "./logger.js";
import type { McpServer } from "./server.js";

/** Path of the event stream. */
export const LEGACY_SSE_PATH = "/sse";
/** Path clients POST their messages to. */
export const LEGACY_MESSAGES_PATH = "/messages";

/** The two legacy endpoints and their open streams. */
export class LegacySseEndpoints {
  private readonly streams = new Map<string, ServerResponse>();

  constructor(
    private readonly server: McpServer,
    private readonly limit: number,
    private readonly logger: Logger,
  ) {}

  /** Serves `req` when it targets a legacy endpoint; resolves false otherwise. */
  async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    if (pathname === LEGACY_SSE_PATH && req.method === "GET") {
      this.open(res);
      return true;
    }
    if (pathname !== LEGACY_MESSAGES_PATH) return false;
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      sendText(res, 405, "Method Not Allowed");
      return true;
    }
    const sessionId = new URL(req.url ?? "/", "http://localhost").searchParams.get("sessionId") ?? "";
    const stream = this.streams.get(sessionId);
    if (!stream) {
      sendText(res, 404, "Unknown session");
      return true;
    }
    const body = await readBody(req, this.limit);
    if (body === "too-large") {
      sendText(res, 413, "Payload Too Large");
      return true;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      sendJson(res, 400, errorResponse(null, { code: ErrorCode.ParseError, message: "Parse error: invalid JSON" }));
      return true;
    }
    res.writeHead(202).end();
    const send = (message: unknown): void => {
      if (!stream.writableEnded) stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    };
    this.server
      .dispatch(payload, { protocolVersion: "2024-11-05", scope: `sse:${sessionId}`, notify: send })
      .then((response) => response !== undefined && send(response))
      .catch((error: unknown) => this.logger.error("legacy SSE dispatch failed", { error: String(error) }));
    return true;
  }

  /** Ends every open stream (server shutdown). */
  closeAll(): void {
    for (const stream of this.streams.values()) stream.end();
    this.streams.clear();
  }

  private open(res: ServerResponse): void {
    const sessionId = randomBytes(16).toString("hex");
    this.streams.set(sessionId, res);
    res.on("close", () => this.streams.delete(sessionId));
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no" });
    res.write(`event: endpoint\ndata: ${LEGACY_MESSAGES_PATH}?sessionId=${sessionId}\n\n`);
  }
}
