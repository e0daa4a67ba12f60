/**
 * One request to the MCP endpoint and its reply, whatever the platform serves it: node:http
 * (http-node.ts) and Web-standard Request/Response (feature `fetch`) each adapt theirs, and one
 * handler (http-request.ts) serves both.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Cancellation } from "../protocol/cancellation.js";
import type { JsonRpcId, JsonRpcResponse } from "../protocol/jsonrpc.js";
import type { LegacySession } from "../server/request-context.js";
import type { ToolChoice } from "../server/choice-slot.js";
import type { Principal, SessionOwner } from "./http-plugs.js";
import type { BodyRefusal } from "./http-util.js";

/** A request to the MCP endpoint as the router hands it on. */
export interface McpRoute {
  /** The query string of the request's URL, `?` included ("" when none): per-connection options. */
  readonly search: string;
  /** The caller the guard accepted (feature `oauth`). */
  readonly principal: Principal | undefined;
}

/** What the handler reads of a request. */
export interface HttpCall {
  readonly method: string;
  /** Lower-case names. */
  readonly headers: IncomingHttpHeaders;
  /** The client's address (behind a proxy: the proxy's), when the platform tells it. */
  readonly clientAddress: string | undefined;
  /** Cancelled when the client leaves before its answer. */
  readonly gone: Cancellation;
  /** The body's text, or why it was not read (too large, too many bodies at once, the client left). */
  body(): Promise<string | BodyRefusal>;
  /** Legacy-era sessions bound to this request (node:http with feature `sessions`); absent: stateless. */
  readonly sessions?: CallSessions | undefined;
}

/** What a legacy request asks of the sessions. */
export interface SessionRequest {
  id: JsonRpcId | null;
  version: string | undefined;
  initialize?: Record<string, unknown>;
  /** The tool surface the `initialize` request chose: the session keeps it. */
  choice?: ToolChoice | undefined;
}

/** Legacy sessions bound to one request and its reply. */
export interface CallSessions {
  /** Answers a DELETE of the session its `Mcp-Session-Id` names. */
  end(owner: SessionOwner | undefined): Promise<void>;
  /** The session of a legacy request, or undefined when it answered instead. */
  open(request: SessionRequest, owner: SessionOwner | undefined): Promise<CallSession | undefined>;
}

/** The session a legacy request uses. */
export interface CallSession {
  id?: string | undefined;
  session?: LegacySession | undefined;
  /** After dispatch: saves the session or opens the one `initialize` began; false when it answered an error. */
  finish(response: JsonRpcResponse | JsonRpcResponse[] | undefined): Promise<boolean>;
}

/** How the handler answers: once, with JSON or nothing, or with an event stream it writes to. */
export interface HttpReply {
  /** True once the client left (nothing more can reach it). */
  readonly closed: boolean;
  /** Answers a JSON body. */
  json(status: number, body: unknown, headers?: Readonly<Record<string, string>>): void;
  /** Answers without a body (202). */
  empty(status: number): void;
  /** Sends one `message` event; the first switches the answer to an event stream. */
  event(message: unknown): void;
  /** True once an event was sent. */
  readonly streaming: boolean;
  /** Ends the event stream. */
  end(): void;
}
