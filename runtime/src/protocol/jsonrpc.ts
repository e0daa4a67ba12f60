/** JSON-RPC 2.0 framing: message types, error codes, envelope validation. Nothing here knows MCP methods. */
import { isRecord } from "./own.js";

/** A request id: string or number, never null (MCP forbids null ids on requests). */
export type JsonRpcId = string | number;

/** Request or notification params: MCP always uses objects, JSON-RPC also allows arrays. */
export type JsonRpcParams = Record<string, unknown> | unknown[];

/** A notification: no id, never answered. */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: JsonRpcParams;
}

/** A request: expects a response with the same id. */
export interface JsonRpcRequest extends JsonRpcNotification {
  id: JsonRpcId;
}

/** The `error` member of an error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A successful response. */
export interface JsonRpcSuccessResponse {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: Record<string, unknown>;
}

/** An error response; `id` is null only when the request could not be read. */
export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

/** Any response. */
export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;

/** Standard JSON-RPC 2.0 error codes. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy era (≤ 2025-11-25) resource-not-found; the modern era uses InvalidParams. */
  ResourceNotFound: -32002,
  /** Modern era: an HTTP header disagrees with the body or is malformed (SEP-2243). */
  HeaderMismatch: -32020,
  /** Modern era: the request needs a client capability the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** Modern era: the requested protocol version is not served; `data.supported` lists ours. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** An error a handler throws to answer with this code, message and data (anything else: InternalError). */
export class RpcError extends Error {
  override readonly name = "RpcError";

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** HTTP status the Streamable HTTP transport answers with (modern era: 400/404); default 200. */
    readonly httpStatus?: number,
  ) {
    super(message);
  }

  /** The `error` member for a response. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** Builds a success response. */
export function successResponse(id: JsonRpcId, result: Record<string, unknown>): JsonRpcSuccessResponse {
  return { jsonrpc: "2.0", id, result };
}

const httpStatuses = new WeakMap<object, number>();

/** Builds an error response; `httpStatus` is remembered for the HTTP transport ({@link httpStatusOf}). */
export function errorResponse(
  id: JsonRpcId | null,
  error: JsonRpcErrorObject,
  httpStatus?: number,
): JsonRpcErrorResponse {
  const response: JsonRpcErrorResponse = { jsonrpc: "2.0", id, error };
  if (httpStatus !== undefined) httpStatuses.set(response, httpStatus);
  return response;
}

/** The HTTP status a response asked for when it was built, if any. */
export function httpStatusOf(response: object): number | undefined {
  return httpStatuses.get(response);
}

/** The result of looking at a parsed JSON value that should be one JSON-RPC message. */
export type ClassifiedMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse }
  | { kind: "invalid"; id: JsonRpcId | null; reason: string };

/** True for a valid request id (string or finite number). */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Classifies one parsed value and validates its JSON-RPC envelope. */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (!isRecord(value)) return { kind: "invalid", id: null, reason: "message must be a JSON object" };
  // Echo the id in the error only when it is itself valid.
  const id = isJsonRpcId(value.id) ? value.id : null;
  if (value.jsonrpc !== "2.0") return { kind: "invalid", id, reason: 'jsonrpc must be exactly "2.0"' };

  if ("method" in value) {
    if (typeof value.method !== "string") return { kind: "invalid", id, reason: "method must be a string" };
    if (value.params !== undefined && (typeof value.params !== "object" || value.params === null))
      return { kind: "invalid", id, reason: "params must be an object or an array" };
    if (!("id" in value)) return { kind: "notification", message: value as unknown as JsonRpcNotification };
    if (!isJsonRpcId(value.id)) return { kind: "invalid", id: null, reason: "id must be a string or a number" };
    return { kind: "request", message: value as unknown as JsonRpcRequest };
  }

  if ("result" in value || "error" in value) {
    if (value.id !== null && !isJsonRpcId(value.id))
      return { kind: "invalid", id: null, reason: "response id must be a string, a number or null" };
    return { kind: "response", message: value as unknown as JsonRpcResponse };
  }
  return { kind: "invalid", id, reason: "message is neither a request, a notification nor a response" };
}
