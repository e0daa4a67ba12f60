/**
 * The checks of a request to the MCP endpoint that do not depend on node:http: each reads the
 * request's method, headers or body text and gives the value the next step needs, or the
 * {@link HttpAnswer} that refuses the request. The node:http handler (http-request.ts) renders
 * answers on a ServerResponse; a handler of Web-standard Requests can render them as Responses.
 */
import type { IncomingHttpHeaders } from "node:http";
import { hasModernMeta } from "../protocol/era.js";
import {
  ErrorCode,
  RpcError,
  errorResponse,
  httpStatusOf,
  isJsonRpcId,
  type JsonRpcId,
  type JsonRpcResponse,
} from "../protocol/jsonrpc.js";
import { isRecord } from "../protocol/own.js";
import { ALL_PROTOCOL_VERSIONS, isKnownProtocolVersion } from "../protocol/versions.js";
import type { McpServer } from "../server/server.js";
import { validateModernHeaders } from "./http-headers.js";
import type { Refusal } from "./http-plugs.js";
import type { BodyRefusal } from "./http-util.js";

/** An answer that ends a request before dispatch: HTTP status, headers, and a JSON-RPC error body. */
export class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  /** A JSON-RPC error (`code`, default InvalidRequest) with HTTP `status`. */
  static error(
    status: number,
    message: string,
    options: { id?: JsonRpcId | null; code?: number; data?: unknown; headers?: Record<string, string> } = {},
  ): HttpAnswer {
    const { id = null, code = ErrorCode.InvalidRequest, data, headers } = options;
    return new HttpAnswer(
      status,
      errorResponse(id, data === undefined ? { code, message } : { code, message, data }),
      headers,
    );
  }
}

/** The answer to a request the guard refused: 401/403 with its `WWW-Authenticate` challenge. */
export function refusalAnswer(refusal: Refusal): HttpAnswer {
  return HttpAnswer.error(refusal.status, refusal.message, {
    headers: { "WWW-Authenticate": refusal.wwwAuthenticate },
  });
}

/** A JSON-RPC message read from a request body: the payload, the single message (not a batch) and its id. */
export interface ReadMessage {
  payload: unknown;
  single: Record<string, unknown> | undefined;
  requestId: JsonRpcId | null;
}

/** Accept values under which a JSON or event-stream answer may be sent. */
const ANSWER_TYPES = ["application/json", "text/event-stream", "application/*", "*/*"];

/** The 405 of a method other than POST (and DELETE, which ends a session, when there are sessions). */
export function methodNotAllowed(sessions: boolean): HttpAnswer {
  return HttpAnswer.error(405, "Method not allowed: use POST", {
    headers: { Allow: sessions ? "POST, DELETE" : "POST" },
  });
}

/** The media types the client accepts (406 when none fits), after the body's type is checked (415). */
export function negotiate(headers: IncomingHttpHeaders): readonly string[] | HttpAnswer {
  const accepted = mediaTypes(headers.accept);
  if (accepted.length > 0 && !accepted.some((type) => ANSWER_TYPES.includes(type)))
    return HttpAnswer.error(406, "Not Acceptable: Accept must allow application/json or text/event-stream");
  const header = headers["content-type"];
  // The usual value needs no parsing.
  const contentType = header === "application/json" ? header : (header ?? "").split(";")[0]!.trim().toLowerCase();
  if (contentType !== "" && contentType !== "application/json")
    return HttpAnswer.error(415, "Unsupported Media Type: use application/json");
  return accepted;
}

/**
 * The last Accept header read and its media types: a client sends the same header with every
 * request, so it is split once, not per request (frozen: every request shares the list).
 */
let lastAccept: { header: string | undefined; types: readonly string[] } = { header: undefined, types: [] };

/** The media types an Accept header lists; none when it is absent or empty (then anything is accepted). */
function mediaTypes(accept: string | undefined): readonly string[] {
  if (accept !== lastAccept.header)
    lastAccept = {
      header: accept,
      types: Object.freeze(
        (accept ?? "")
          .split(",")
          .map((part) => part.split(";")[0]!.trim().toLowerCase())
          .filter(Boolean),
      ),
    };
  return lastAccept.types;
}

/** The answer to a body that was not read: too large (413) or too many bodies arriving at once (503). */
export function bodyRefused(refusal: Exclude<BodyRefusal, "aborted">, limit: number): HttpAnswer {
  if (refusal === "too-large")
    return HttpAnswer.error(413, `Payload Too Large: limit is ${limit} bytes`, { headers: { Connection: "close" } });
  return HttpAnswer.error(503, "Service Unavailable: too many request bodies arriving at once; retry", {
    headers: { Connection: "close", "Retry-After": "1" },
  });
}

/** The JSON-RPC message of a body, or 400 (-32700) when it is not JSON. */
export function parseMessage(text: string): ReadMessage | HttpAnswer {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return HttpAnswer.error(400, "Parse error: invalid JSON", { code: ErrorCode.ParseError });
  }
  const single = isRecord(payload) ? payload : undefined;
  return { payload, single, requestId: single && isJsonRpcId(single.id) ? single.id : null };
}

/** The `MCP-Protocol-Version` header (undefined when absent), or 400 when it names no known revision. */
export function protocolVersion(
  headers: IncomingHttpHeaders,
  requestId: JsonRpcId | null,
): string | undefined | HttpAnswer {
  const header = headers["mcp-protocol-version"];
  const version = (Array.isArray(header) ? header[0] : header)?.trim();
  if (version === undefined || isKnownProtocolVersion(version)) return version;
  return HttpAnswer.error(400, "Unsupported protocol version", {
    id: requestId,
    code: ErrorCode.UnsupportedProtocolVersion,
    data: { supported: [...ALL_PROTOCOL_VERSIONS], requested: version },
  });
}

/** True for a message of the modern era (by its `_meta`): it never uses sessions. */
export function isModernMessage(message: ReadMessage): boolean {
  return message.single !== undefined && hasModernMeta(message.single.params);
}

/** SEP-2243: a modern request's headers mirror its body (400, -32020 when they do not). */
export function modernHeadersMismatch(
  server: McpServer,
  headers: IncomingHttpHeaders,
  message: ReadMessage,
): HttpAnswer | undefined {
  const single = message.single;
  if (!single || typeof single.method !== "string" || !("id" in single)) return undefined;
  const params = single.params as Record<string, unknown>;
  try {
    validateModernHeaders(headers, single.method, params, (name) => server.servedTool(name, params));
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    return new HttpAnswer(error.httpStatus ?? 400, errorResponse(message.requestId, error.toJSON()));
  }
  return undefined;
}

/** `Retry-After` of a 429 reply: the error's `data.retryAfterSeconds` (feature rate-limit), in whole seconds. */
export function retryAfterOf(response: JsonRpcResponse | JsonRpcResponse[]): string | undefined {
  const data = !Array.isArray(response) && "error" in response ? response.error.data : undefined;
  const seconds = isRecord(data) ? data.retryAfterSeconds : undefined;
  return typeof seconds === "number" && Number.isInteger(seconds) && seconds >= 0 ? String(seconds) : undefined;
}

/** HTTP status for a JSON reply: the dispatcher's hint, 400 for unreadable requests (null id), else 200. */
export function statusFor(response: JsonRpcResponse | JsonRpcResponse[]): number {
  if (Array.isArray(response)) return 200;
  return httpStatusOf(response) ?? ("error" in response && response.id === null ? 400 : 200);
}
