/**
 * The deprecated HTTP+SSE transport (protocol revision 2024-11-05), behind a flag: GET `/sse`
 * opens a stream whose first event (`endpoint`) names the POST URL `/messages?sessionId=…`;
 * each POSTed message is answered 202 and its response, notifications and server→client
 * requests travel as `message` events on that stream. Session ids are 128 random bits.
 * In OAuth resource-server mode the HTTP transport authenticates both endpoints first; a session
 * then belongs to the token subject that opened it, and tools/call needs the tool's scopes.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson, sendText, type BodyRefusal } from "../../transport/http-util.js";
import { ErrorCode, errorResponse } from "../../protocol/jsonrpc.js";
import type { Logger } from "../../protocol/logger.js";
import type { EndpointAccess, HttpEndpoints, Refusal } from "../../transport/http-plugs.js";
import type { McpServer } from "../../server/server.js";
import { clientInfoOf, type ClientInfo } from "../../protocol/client-info.js";
import { isRecord } from "../../protocol/own.js";

/** Path of the event stream. */
export const LEGACY_SSE_PATH = "/sse";
/** Path clients POST their messages to. */
export const LEGACY_MESSAGES_PATH = "/messages";

/** The two legacy endpoints and their open streams (with the subject that opened each, in OAuth mode). */
export class LegacySseEndpoints implements HttpEndpoints {
  private readonly streams = new Map<
    string,
    { res: ServerResponse; subject: string | undefined; client?: ClientInfo | undefined }
  >();

  /** `receive` reads a POSTed body within the transport's limits (http-util.ts). */
  constructor(
    private readonly server: McpServer,
    private readonly receive: (req: IncomingMessage) => Promise<Buffer | BodyRefusal>,
    private readonly logger: Logger,
  ) {}

  /** True for the two legacy paths. */
  owns(pathname: string): boolean {
    return pathname === LEGACY_SSE_PATH || pathname === LEGACY_MESSAGES_PATH;
  }

  /**
   * Serves a request to one of the legacy paths ({@link owns}). `access` is the authenticated
   * caller in OAuth mode (the transport already refused requests without a valid token);
   * `refuse` answers a refusal with its `WWW-Authenticate` challenge.
   */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    access: EndpointAccess | undefined,
    refuse: (res: ServerResponse, refusal: Refusal) => void,
  ): Promise<void> {
    if (pathname === LEGACY_SSE_PATH) {
      if (req.method !== "GET") {
        res.setHeader("Allow", "GET");
        return sendText(res, 405, "Method Not Allowed");
      }
      return this.open(res, access?.principal.subject);
    }
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      return sendText(res, 405, "Method Not Allowed");
    }
    const sessionId = new URL(req.url ?? "/", "http://localhost").searchParams.get("sessionId") ?? "";
    const session = this.streams.get(sessionId);
    if (!session) return sendText(res, 404, "Unknown session");
    if (access && session.subject !== access.principal.subject)
      return sendText(res, 403, "Forbidden: this session belongs to another caller");
    const stream = session.res;
    const body = await this.receive(req);
    if (body === "aborted") return;
    if (body === "too-large") return sendText(res, 413, "Payload Too Large");
    if (body === "busy") return sendText(res, 503, "Service Unavailable: too many request bodies arriving at once");
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      return sendJson(
        res,
        400,
        errorResponse(null, { code: ErrorCode.ParseError, message: "Parse error: invalid JSON" }),
      );
    }
    const refusal = access?.check(payload);
    if (refusal) return refuse(res, refusal);
    res.writeHead(202).end();
    const send = (message: unknown): void => {
      if (!stream.writableEnded) stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    };
    // The client is known per stream, from the `initialize` sent on it (client profiles, client-views.ts).
    if (isRecord(payload) && payload.method === "initialize" && isRecord(payload.params))
      session.client = clientInfoOf(payload.params.clientInfo);
    this.server
      .dispatch(payload, {
        protocolVersion: "2024-11-05",
        scope: `sse:${sessionId}`,
        client: session.client ?? null,
        notify: send,
        ...(access ? { scopes: access.principal.scopes } : {}),
        ...(access?.principal.subject !== undefined ? { subject: access.principal.subject } : {}),
      })
      .then((response) => response !== undefined && send(response))
      .catch((error: unknown) => this.logger.error("legacy SSE dispatch failed", { error: String(error) }));
  }

  /** Ends every open stream (server shutdown). */
  closeAll(): void {
    for (const { res } of this.streams.values()) res.end();
    this.streams.clear();
  }

  private open(res: ServerResponse, subject: string | undefined): void {
    const sessionId = randomBytes(16).toString("hex");
    this.streams.set(sessionId, { res, subject });
    res.on("close", () => this.streams.delete(sessionId));
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no" });
    res.write(`event: endpoint\ndata: ${LEGACY_MESSAGES_PATH}?sessionId=${sessionId}\n\n`);
  }
}
