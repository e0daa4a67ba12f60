/**
 * The API client of the user's code as the core sees it: `api.listPets({ limit: 2 })` runs the
 * operation the way `tools/call` does. Feature `custom` makes it (features/custom/operation-api.ts)
 * and types it for an API; without the feature a handler's `api` has no methods.
 */
import type { CallToolResult, InputRequiredResult } from "./mcp-types.js";
import type { ResponseBinding } from "./types.js";

/** Options of one API call. */
export interface CallOptions {
  /** Aborts this call (the calling request's own cancellation always applies too). */
  signal?: AbortSignal;
}

/** A binary response (neither JSON nor text): its media type and its bytes, base64-encoded. */
export interface BinaryData {
  mimeType: string;
  /** The bytes, base64. */
  data: string;
  /** The URL it came from (without the query). */
  uri?: string;
}

/** The client of code that did not give the API's types: any operation name, untyped results. */
export interface UntypedApi {
  readonly [operation: string]: (
    args?: Record<string, unknown>,
    options?: CallOptions & { response?: boolean },
  ) => Promise<unknown>;
}

/** The upstream response of one call, as the server reports it to the client. */
export interface ResponseInfo {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The response had no body. */
  empty?: boolean;
}

/** What the client needs from the server. */
export interface ApiHost {
  /** Whether the server offers operation `name` (toolset filters applied). */
  has(name: string): boolean;
  /** How the operation's response becomes `structuredContent` (wrap key, unexpected-response key). */
  response(name: string): Pick<ResponseBinding, "wrapKey" | "fallbackKey"> | undefined;
  /** Runs operation `name` for the calling request, telling `onResponse` each upstream response. */
  run(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; onResponse: (response: ResponseInfo) => void },
  ): Promise<CallToolResult | InputRequiredResult>;
}
