/**
 * A request to the MCP endpoint over node:http, as a list of steps: method → media types → body →
 * protocol version → session → SEP-2243 headers → tool scopes → dispatch → reply. The checks that
 * do not depend on node:http are in http-exchange.ts, for a handler of Web-standard Requests to share.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc.js";
import { isRecord } from "../protocol/own.js";
import { Cancellation } from "../protocol/cancellation.js";
import { DEFAULT_HTTP_PROTOCOL_VERSION, isModernProtocolVersion } from "../protocol/versions.js";
import type { RequestContext } from "../server/request-context.js";
import { readToolChoice, type ChosenTools, type ToolChoice } from "../server/connection-choice.js";
import type { McpServer } from "../server/server.js";
import {
  HttpAnswer,
  bodyRefused,
  isModernMessage,
  methodNotAllowed,
  modernHeadersMismatch,
  negotiate,
  parseMessage,
  protocolVersion,
  retryAfterOf,
  statusFor,
  type ReadMessage,
} from "./http-exchange.js";
import {
  refuse,
  type HttpGuard,
  type HttpSessions,
  type ReceiveBody,
  type SessionOwner,
  type SessionUse,
} from "./http-plugs.js";
import type { McpHandler, McpRoute } from "./http-router.js";
import { sendJson } from "./http-util.js";

/** What the MCP endpoint's handler works with. */
export interface McpRequestOptions {
  /** Legacy-era sessions (feature `sessions`); without them the endpoint is stateless. */
  sessions: HttpSessions | undefined;
  /** The guard whose per-tool scopes a message must have (feature `oauth`). */
  oauth: HttpGuard | undefined;
  receive: ReceiveBody;
  maxBodyBytes: number;
}

/** One POST to the MCP endpoint once its message is read: what dispatch and the reply need. */
interface McpExchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly route: McpRoute;
  readonly message: ReadMessage;
  /** The `MCP-Protocol-Version` header, if any. */
  readonly version: string | undefined;
  /** The media types the client accepts. */
  readonly accepted: readonly string[];
  /** The legacy session the request belongs to (feature `sessions`). */
  use?: SessionUse | undefined;
  /** The tool surface the request's URL or headers chose (a session keeps its `initialize`'s). */
  choice?: ToolChoice | undefined;
  chosen?: ChosenTools | undefined;
}

/** The handler of the MCP endpoint of `server`. */
export function mcpRequestHandler(server: McpServer, options: McpRequestOptions): McpHandler {
  const { sessions, oauth } = options;
  return async (req, res, route) => {
    // In OAuth mode a session belongs to the token's issuer and subject: another caller's token finds none.
    const owner = oauth ? { issuer: oauth.issuer, subject: route.principal?.subject } : undefined;
    if (sessions && req.method === "DELETE" && typeof req.headers["mcp-session-id"] === "string")
      return sessions.end(req, res, owner);
    if (req.method !== "POST") return answer(res, methodNotAllowed(sessions !== undefined));
    const accepted = negotiate(req.headers);
    if (accepted instanceof HttpAnswer) return answer(res, accepted);
    const message = await readMessage(req, res, options);
    if (!message) return;
    const version = protocolVersion(req.headers, message.requestId);
    if (version instanceof HttpAnswer) return answer(res, version);
    const choice = readToolChoice(route.search, req.headers);
    if (typeof choice === "string") return answer(res, HttpAnswer.error(400, `Bad Request: ${choice}`));
    const exchange: McpExchange = { req, res, route, message, version, accepted, choice };
    if (sessions && !(await openSession(exchange, sessions, owner))) return;
    const refused = chooseTools(server, exchange);
    if (refused) return answer(res, refused);
    const mismatch = isModernMessage(message) ? modernHeadersMismatch(server, req.headers, message) : undefined;
    if (mismatch) return answer(res, mismatch);
    const scopes = route.principal?.scopes;
    const insufficient = oauth && scopes ? oauth.check(server, message.payload, scopes) : undefined;
    if (insufficient) return refuse(res, insufficient);
    await dispatchAndReply(server, exchange);
  };
}

/** Renders an answer that ends the request. */
function answer(res: ServerResponse, answer: HttpAnswer): void {
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  sendJson(res, answer.status, answer.body);
}

/** The request's JSON-RPC message; undefined when it answered instead (or the client left). */
async function readMessage(
  req: IncomingMessage,
  res: ServerResponse,
  options: McpRequestOptions,
): Promise<ReadMessage | undefined> {
  const body = await options.receive(req);
  if (body === "aborted") return undefined;
  const message =
    typeof body === "string" ? bodyRefused(body, options.maxBodyBytes) : parseMessage(body.toString("utf8"));
  if (!(message instanceof HttpAnswer)) return message;
  answer(res, message);
  return undefined;
}

/**
 * The legacy session of the request (feature `sessions`): false when the sessions answered instead.
 * Modern traffic (by `_meta` or by header) never uses sessions; the dispatcher validates it.
 */
async function openSession(
  exchange: McpExchange,
  sessions: HttpSessions,
  owner: SessionOwner | undefined,
): Promise<boolean> {
  const { req, res, message, version } = exchange;
  if (isModernMessage(message) || isModernProtocolVersion(version)) return true;
  const single = message.single;
  const initialize = single?.method === "initialize" ? (isRecord(single.params) ? single.params : {}) : undefined;
  exchange.use = await sessions.open(
    req,
    res,
    { id: message.requestId, version, ...(initialize ? { initialize, choice: exchange.choice } : {}) },
    owner,
  );
  return exchange.use !== undefined;
}

/** Checks the exchange's choice of tools against the server (a session's is the one of its `initialize`); 400 when not served. */
function chooseTools(server: McpServer, exchange: McpExchange): HttpAnswer | undefined {
  const session = exchange.use?.session;
  const choice = session ? session.choice : exchange.choice;
  if (choice === undefined) return undefined;
  const chosen = server.chooseTools(choice);
  if (typeof chosen === "string")
    return HttpAnswer.error(400, `Bad Request: ${chosen}`, { id: exchange.message.requestId });
  exchange.chosen = chosen;
  return undefined;
}

/** Dispatches the message, then replies: an event stream once it streamed, 202 without a response, else JSON. */
async function dispatchAndReply(server: McpServer, exchange: McpExchange): Promise<void> {
  const { res, message, accepted, use } = exchange;
  // Notifications may be streamed when the client accepts an event stream.
  const stream = accepted.includes("text/event-stream") ? new SseWriter(res) : undefined;
  const notify = stream && !Array.isArray(message.payload) ? stream.send.bind(stream) : undefined;
  const response = await server.dispatch(message.payload, dispatchContext(exchange, notify));
  if (res.destroyed || (use && !(await use.finish(res, response)))) return;
  if (stream?.started) {
    if (response !== undefined) stream.send(response);
    res.end();
  } else if (response === undefined) res.writeHead(202).end();
  else {
    const status = statusFor(response);
    const wait = status === 429 ? retryAfterOf(response) : undefined;
    if (wait !== undefined) res.setHeader("Retry-After", wait);
    sendJson(res, status, response);
  }
}

/** The request context of the dispatch: revision, session, caller, and a cancellation for when the client leaves. */
function dispatchContext(
  exchange: McpExchange,
  notify: ((message: JsonRpcNotification | JsonRpcRequest) => void) | undefined,
): RequestContext {
  const { req, res, route, version, use, chosen } = exchange;
  const session = use?.session;
  const principal = route.principal;
  return {
    protocolVersion: version ?? session?.version ?? DEFAULT_HTTP_PROTOCOL_VERSION,
    // A legacy client is known by its session; without sessions no request says who sent it.
    client: session?.client ?? null,
    gone: disconnection(res),
    // A session's requests may arrive through any instance (and from any proxy address).
    scope: use?.id ? `session:${use.id}` : `http:${req.socket.remoteAddress ?? ""}`,
    ...(req.socket.remoteAddress ? { clientAddress: req.socket.remoteAddress } : {}),
    ...(session ? { session } : {}),
    headers: req.headers,
    ...(principal?.scopes ? { scopes: principal.scopes } : {}),
    ...(chosen ? { choice: chosen } : {}),
    ...(principal?.subject !== undefined ? { subject: principal.subject } : {}),
    ...(notify ? { notify } : {}),
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

/** Switches a response to SSE on the first message, then writes one `message` event per JSON-RPC message. */
class SseWriter {
  started = false;

  constructor(private readonly res: ServerResponse) {}

  send(message: JsonRpcNotification | JsonRpcRequest | JsonRpcResponse | JsonRpcResponse[]): void {
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
