/**
 * Legacy-era sessions on the Streamable HTTP transport: `initialize` answers mint a random
 * `Mcp-Session-Id`; later legacy requests must carry a live one (400 when absent, 404 when unknown
 * or deleted); DELETE ends it. Modern requests never use sessions (the transport does not ask).
 */
import type { ServerResponse } from "node:http";
import { clientInfoOf } from "../../protocol/client-info.js";
import { ErrorCode, type JsonRpcId } from "../../protocol/jsonrpc.js";
import { isRecord } from "../../protocol/own.js";
import { StateUnavailableError, type StateStore } from "../../state/state.js";
import { MemoryStateStore } from "../state/memory.js";
import type { HttpSessions, SessionOwner } from "../../transport/http-plugs.js";
import { reject } from "../../transport/http-util.js";
import type { LegacySession } from "../../server/request-context.js";
import { SessionStore, sessionOwner } from "./session-store.js";

/** The sessions kept in `state`. */
export function httpSessions(state: StateStore | undefined): HttpSessions {
  const sessions = new SessionStore(state ?? new MemoryStateStore());
  const ownerOf = (owner: SessionOwner | undefined) => (owner ? sessionOwner(owner.issuer, owner.subject) : undefined);
  return {
    async end(req, res, owner) {
      const deleted = await sessions
        .delete(String(req.headers["mcp-session-id"]), ownerOf(owner))
        .catch((error: unknown) => storeFailure(res, null, error));
      if (deleted === undefined) return;
      if (deleted) res.writeHead(204).end();
      else reject(res, 404, "Session not found");
    },

    async open(req, res, request, who) {
      const owner = ownerOf(who);
      const initialize = request.initialize;
      if (initialize)
        return {
          async finish(res, response) {
            if (response === undefined || Array.isArray(response) || !("result" in response)) return true;
            const created: LegacySession = {
              version: String(response.result.protocolVersion),
              clientCapabilities: isRecord(initialize.capabilities) ? initialize.capabilities : {},
            };
            const client = clientInfoOf(initialize.clientInfo);
            if (client) created.client = client;
            if (owner !== undefined) created.owner = owner;
            if (request.choice !== undefined) created.choice = request.choice;
            const id = await sessions.create(created).catch((error: unknown) => storeFailure(res, request.id, error));
            if (id === undefined) return false;
            res.setHeader("Mcp-Session-Id", id);
            return true;
          },
        };
      const id = req.headers["mcp-session-id"];
      if (typeof id !== "string") {
        reject(res, 400, "Bad Request: Mcp-Session-Id header is required", request.id);
        return undefined;
      }
      const session = await sessions.get(id, owner).catch((error: unknown) => storeFailure(res, request.id, error));
      if (session === undefined) {
        if (!res.headersSent) reject(res, 404, "Session not found", request.id);
        return undefined;
      }
      // The header may repeat the negotiated version, never replace it (e.g. to unlock 2025-03-26 batches).
      if (request.version !== undefined && request.version !== session.version) {
        const message = `Bad Request: MCP-Protocol-Version ${request.version} contradicts the version negotiated for this session (${session.version})`;
        reject(res, 400, message, request.id);
        return undefined;
      }
      const logLevel = session.logLevel;
      return {
        id,
        session,
        finish: (res) =>
          session.logLevel === logLevel
            ? Promise.resolve(true)
            : sessions.save(id, session).then(
                () => true,
                (error: unknown) => storeFailure(res, request.id, error) ?? false,
              ),
      };
    },
  };
}

/**
 * Answers 503 when the state store (Redis) could not be reached for a session; other errors are
 * rethrown. Returns undefined, so callers can tell that the response was sent.
 */
function storeFailure(res: ServerResponse, id: JsonRpcId | null, error: unknown): undefined {
  if (!(error instanceof StateUnavailableError)) throw error;
  res.setHeader("Retry-After", "1");
  const message = `Service Unavailable: legacy sessions are kept in the state store, and ${error.message}; stateless requests still work`;
  reject(res, 503, message, id, ErrorCode.InternalError);
  return undefined;
}
