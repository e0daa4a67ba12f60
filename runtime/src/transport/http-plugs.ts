/** What features add to the HTTP transport: a guard (`oauth`), more endpoints (`legacy-sse`), sessions. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonRpcId, JsonRpcResponse } from "../protocol/jsonrpc.js";
import type { Logger } from "../protocol/logger.js";
import type { LegacySession } from "../server/request-context.js";
import type { ToolChoice } from "../server/choice-slot.js";
import type { McpServer } from "../server/server.js";
import type { StateStore } from "../state/state.js";
import { reject, type readBody } from "./http-util.js";

/** A caller whose credentials the guard accepted. */
export interface Principal {
  subject?: string | undefined;
  scopes: Set<string>;
}

/** Why a request is refused: HTTP status and the `WWW-Authenticate` value. */
export interface Refusal {
  status: 401 | 403;
  wwwAuthenticate: string;
  message: string;
}

/** True when the guard refused. */
export function isRefusal(value: Principal | Refusal): value is Refusal {
  return "status" in value;
}

/** Answers a refusal: 401/403 with its `WWW-Authenticate` challenge. */
export function refuse(res: ServerResponse, refusal: Refusal): void {
  res.setHeader("WWW-Authenticate", refusal.wwwAuthenticate);
  reject(res, refusal.status, refusal.message);
}

/** Checks every request to the MCP endpoint (and to the other endpoints) before it is served. */
export interface HttpGuard {
  /** Who issues the credentials it accepts (a session belongs to an issuer and subject). */
  readonly issuer: string;
  /** Answers a request for a document of its own (metadata) and returns true; false for any other. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
  /** Hears the endpoint's URL once the transport listens. */
  listening(endpointUrl: string): void;
  /** The caller of a request with this `Authorization` header, or why it is refused. */
  authenticate(authorization: string | undefined): Promise<Principal | Refusal>;
  /** The refusal of a message whose tool needs scopes the caller lacks, if any. */
  check(server: McpServer, payload: unknown, scopes: ReadonlySet<string>): Refusal | undefined;
}

/** The authenticated caller of one request to another endpoint, and its per-message scope check. */
export interface EndpointAccess {
  principal: Principal;
  /** The refusal for a message the caller may not send (missing tool scopes), if any. */
  check(payload: unknown): Refusal | undefined;
}

/** Endpoints served beside the MCP one. */
export interface HttpEndpoints {
  /** True for the paths these endpoints serve. */
  owns(pathname: string): boolean;
  /** True for paths a browser opens without the MCP token (sign-in pages, which check their user). */
  isPublic?(pathname: string): boolean;
  /** Serves a request to one of them; `access` is the guarded caller, `refuse` answers a refusal. */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    access: EndpointAccess | undefined,
    refuse: (res: ServerResponse, refusal: Refusal) => void,
  ): Promise<void>;
  /** Ends their open streams (shutdown). */
  closeAll(): void;
}

/** Reads a request's body within the transport's limits, or says why it is refused. */
export type ReceiveBody = (req: IncomingMessage) => ReturnType<typeof readBody>;

/** Makes the endpoints for `server`; `receive` reads a body as the transport does (size and budget). */
export type MakeHttpEndpoints = (server: McpServer, receive: ReceiveBody, logger: Logger) => HttpEndpoints;

/** Whose session it is in OAuth mode: the token's issuer and subject. */
export interface SessionOwner {
  issuer: string;
  subject?: string | undefined;
}

/** A legacy request's session, found (or, for `initialize`, to be opened once answered). */
export interface SessionUse {
  id?: string;
  session?: LegacySession;
  /** After dispatch: saves the session or opens the one `initialize` began; false when it answered an error. */
  finish(res: ServerResponse, response: JsonRpcResponse | JsonRpcResponse[] | undefined): Promise<boolean>;
}

/** Legacy-era sessions (`Mcp-Session-Id`, feature `sessions`): the transport's two calls into them. */
export interface HttpSessions {
  /** Answers a DELETE of the session its `Mcp-Session-Id` names (204, or 404). */
  end(req: IncomingMessage, res: ServerResponse, owner: SessionOwner | undefined): Promise<void>;
  /** The session of a legacy request, or undefined when it answered instead (400, 404, 503). */
  open(
    req: IncomingMessage,
    res: ServerResponse,
    request: {
      id: JsonRpcId | null;
      version: string | undefined;
      initialize?: Record<string, unknown>;
      /** The tool surface the `initialize` request chose: the session keeps it. */
      choice?: ToolChoice | undefined;
    },
    owner: SessionOwner | undefined,
  ): Promise<SessionUse | undefined>;
}

/** Makes the sessions kept in `state` (Redis for several instances), else in memory. */
export type MakeHttpSessions = (state: StateStore | undefined) => HttpSessions;
