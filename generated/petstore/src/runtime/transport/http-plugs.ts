// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * What features add to the HTTP transport: a guard in front of the MCP endpoint (feature `oauth`:
 * an OAuth 2.1 resource server) and more endpoints beside it (feature `legacy-sse`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../protocol/logger.js";
import type { McpServer } from "../server/server.js";

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

/** Checks every request to the MCP endpoint (and to the other endpoints) before it is served. */
export interface HttpGuard {
  /** Absolute URL of the guard's metadata document; left empty, the transport fills it in once it listens. */
  metadataUrl: string;
  /** The metadata document served at the well-known paths (RFC 9728). */
  metadata(): Record<string, unknown>;
  /** The caller of a request with this `Authorization` header, or why it is refused. */
  authenticate(authorization: string | undefined): Promise<Principal | Refusal>;
  /** The refusal of a call whose tool needs scopes the caller lacks. */
  insufficientScope(needed: string[]): Refusal;
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

/** Makes the endpoints for `server`; `maxBodyBytes` is the transport's request body limit. */
export type MakeHttpEndpoints = (server: McpServer, maxBodyBytes: number, logger: Logger) => HttpEndpoints;
