/**
 * A request to the MCP endpoint, whatever the platform (http-call.ts), as a list of steps: method →
 * media types → body → protocol version → session → SEP-2243 headers → tool scopes → dispatch →
 * reply. node:http (http-node.ts) and Web-standard Requests (feature `fetch`) both call it; the
 * checks themselves are in http-exchange.ts.
 */
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc.js";
import { isRecord } from "../protocol/own.js";
import { DEFAULT_HTTP_PROTOCOL_VERSION, isModernProtocolVersion } from "../protocol/versions.js";
import type { RequestContext } from "../server/request-context.js";
import type { ChosenTools, ToolChoice } from "../server/choice-slot.js";
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
  refusalAnswer,
  retryAfterOf,
  statusFor,
  type ReadMessage,
} from "./http-exchange.js";
import type { HttpGuard, SessionOwner } from "./http-plugs.js";
import type { BodyRefusal } from "./http-util.js";
import type { CallSession, HttpCall, HttpReply, McpRoute } from "./http-call.js";

/** What the MCP endpoint's handler works with. */
export interface McpRequestOptions {
  /** True with legacy-era sessions (feature `sessions`, bound to each call): DELETE is allowed. */
  sessions: boolean;
  /** The guard whose per-tool scopes a message must have (feature `oauth`). */
  oauth: HttpGuard | undefined;
  maxBodyBytes: number;
}

/** Serves one request to the MCP endpoint. */
export type McpHandler = (call: HttpCall, reply: HttpReply, route: McpRoute) => Promise<void>;

/** One POST to the MCP endpoint once its message is read: what dispatch and the reply need. */
interface McpExchange {
  readonly call: HttpCall;
  readonly reply: HttpReply;
  readonly route: McpRoute;
  readonly message: ReadMessage;
  /** The `MCP-Protocol-Version` header, if any. */
  readonly version: string | undefined;
  /** The media types the client accepts. */
  readonly accepted: readonly string[];
  /** The legacy session the request belongs to (feature `sessions`). */
  use?: CallSession | undefined;
  /** The tool surface the request's URL or headers chose (a session keeps its `initialize`'s). */
  choice?: ToolChoice | undefined;
  chosen?: ChosenTools | undefined;
}

/** The handler of the MCP endpoint of `server`. */
export function mcpRequestHandler(server: McpServer, options: McpRequestOptions): McpHandler {
  const { oauth } = options;
  return async (call, reply, route) => {
    // In OAuth mode a session belongs to the token's issuer and subject: another caller's token finds none.
    const owner = oauth ? { issuer: oauth.issuer, subject: route.principal?.subject } : undefined;
    const sessions = call.sessions;
    if (sessions && call.method === "DELETE" && typeof call.headers["mcp-session-id"] === "string")
      return sessions.end(owner);
    if (call.method !== "POST") return answer(reply, methodNotAllowed(options.sessions));
    const accepted = negotiate(call.headers);
    if (accepted instanceof HttpAnswer) return answer(reply, accepted);
    const message = readMessage(await call.body(), reply, options.maxBodyBytes);
    if (!message) return;
    const version = protocolVersion(call.headers, message.requestId);
    if (version instanceof HttpAnswer) return answer(reply, version);
    const choice = server.readToolChoice(route.search, call.headers);
    if (typeof choice === "string") return answer(reply, HttpAnswer.error(400, `Bad Request: ${choice}`));
    const exchange: McpExchange = { call, reply, route, message, version, accepted, choice };
    if (sessions && !(await openSession(exchange, owner))) return;
    const refused = chooseTools(server, exchange);
    if (refused) return answer(reply, refused);
    const mismatch = isModernMessage(message) ? modernHeadersMismatch(server, call.headers, message) : undefined;
    if (mismatch) return answer(reply, mismatch);
    const scopes = route.principal?.scopes;
    const insufficient = oauth && scopes ? oauth.check(server, message.payload, scopes) : undefined;
    if (insufficient) return answer(reply, refusalAnswer(insufficient));
    // Awaited here, not in a step of its own: one async frame per request, not two, waits for the call.
    const response = await server.dispatch(message.payload, dispatchContext(exchange, notifier(exchange)));
    if (reply.closed || (exchange.use && !(await exchange.use.finish(response)))) return;
    replyWith(reply, response);
  };
}

/** Renders an answer that ends the request. */
function answer(reply: HttpReply, answer: HttpAnswer): void {
  reply.json(answer.status, answer.body, answer.headers);
}

/** The JSON-RPC message of the request's body; undefined when it answered instead (or the client left). */
function readMessage(body: string | BodyRefusal, reply: HttpReply, maxBodyBytes: number): ReadMessage | undefined {
  if (body === "aborted") return undefined;
  const message = body === "too-large" || body === "busy" ? bodyRefused(body, maxBodyBytes) : parseMessage(body);
  if (!(message instanceof HttpAnswer)) return message;
  answer(reply, message);
  return undefined;
}

/**
 * The legacy session of the request (feature `sessions`): false when the sessions answered instead.
 * Modern traffic (by `_meta` or by header) never uses sessions; the dispatcher validates it.
 */
async function openSession(exchange: McpExchange, owner: SessionOwner | undefined): Promise<boolean> {
  const { call, message, version } = exchange;
  if (isModernMessage(message) || isModernProtocolVersion(version)) return true;
  const single = message.single;
  const initialize = single?.method === "initialize" ? (isRecord(single.params) ? single.params : {}) : undefined;
  exchange.use = await call.sessions!.open(
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

/** Notifications may be streamed when the client accepts an event stream (not for a batch). */
function notifier(exchange: McpExchange): ((event: JsonRpcNotification | JsonRpcRequest) => void) | undefined {
  const { reply, message, accepted } = exchange;
  if (!accepted.includes("text/event-stream") || Array.isArray(message.payload)) return undefined;
  return (event) => reply.event(event);
}

/** Replies: the end of the event stream once it streamed, 202 without a response, else JSON. */
function replyWith(reply: HttpReply, response: JsonRpcResponse | JsonRpcResponse[] | undefined): void {
  if (reply.streaming) {
    if (response !== undefined) reply.event(response);
    reply.end();
  } else if (response === undefined) reply.empty(202);
  else {
    const status = statusFor(response);
    const wait = status === 429 ? retryAfterOf(response) : undefined;
    reply.json(status, response, wait === undefined ? undefined : { "Retry-After": wait });
  }
}

/** The request context of the dispatch: revision, session, caller, and the cancellation for when the client leaves. */
function dispatchContext(
  exchange: McpExchange,
  notify: ((message: JsonRpcNotification | JsonRpcRequest) => void) | undefined,
): RequestContext {
  const { call, route, version, use, chosen } = exchange;
  const session = use?.session;
  const principal = route.principal;
  const context: RequestContext = {
    protocolVersion: version ?? session?.version ?? DEFAULT_HTTP_PROTOCOL_VERSION,
    // A legacy client is known by its session; without sessions no request says who sent it.
    client: session?.client ?? null,
    gone: call.gone,
    // A session's requests may arrive through any instance (and from any proxy address).
    scope: use?.id ? `session:${use.id}` : `http:${call.clientAddress ?? ""}`,
    headers: call.headers,
  };
  // Set one by one, not spread from `cond ? { key } : {}`: no throwaway object per absent key, per request.
  if (call.clientAddress) context.clientAddress = call.clientAddress;
  if (session) context.session = session;
  if (principal?.scopes) context.scopes = principal.scopes;
  if (chosen) context.choice = chosen;
  if (principal?.subject !== undefined) context.subject = principal.subject;
  if (notify) context.notify = notify;
  return context;
}
