/**
 * The typed API client of the user's code: `api.listPets({ limit: 2 })` resolves to what the API
 * returned (JSON, text, {@link BinaryData}, or undefined for no content), or rejects with an
 * {@link ApiError}. `src/api.ts` types it with the API's maps.
 */
import type { BinaryData, CallOptions } from "../../api/api-client.js";
import type { CallToolResult, InputRequiredResult } from "../../api/mcp-types.js";

export type { BinaryData, CallOptions } from "../../api/api-client.js";

/** Options that ask for the upstream response's status and headers besides the data. */
export interface ResponseOptions extends CallOptions {
  response: true;
}

/** What the upstream answered, when the caller asked for it (`{ response: true }`). */
export interface ApiResponse<TData> {
  /** What the call resolves to without `{ response: true }`. */
  data: TData;
  /** The cursor of the next page, for a paginated operation that has one (pass it as `cursor`). */
  nextCursor?: string;
  /** HTTP status of the upstream's (last) response; undefined when no request was sent (a hook answered). */
  status: number | undefined;
  /** Response headers of that response, lower-case names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The tool result the call produced (content blocks included). */
  result: CallToolResult;
}

/** One operation as a method: arguments optional when the tool requires none. */
export type ApiMethod<TInput, TOutput> = {} extends TInput
  ? {
      (args: TInput | undefined, options: ResponseOptions): Promise<ApiResponse<TOutput>>;
      (args?: TInput, options?: CallOptions): Promise<TOutput>;
    }
  : {
      (args: TInput, options: ResponseOptions): Promise<ApiResponse<TOutput>>;
      (args: TInput, options?: CallOptions): Promise<TOutput>;
    };

/**
 * Every operation of an API as a method, from its maps of tool name → arguments and tool name →
 * result (the generated `ToolInputs` / `ToolOutputs`; their doc comments show on hover).
 */
export type ApiClient<TInputs, TOutputs> = {
  readonly [K in keyof TInputs]: ApiMethod<TInputs[K], K extends keyof TOutputs ? TOutputs[K] : unknown>;
};

/** The client of code that did not give the API's types: any operation name, untyped results. */
export interface AnyApi {
  readonly [operation: string]: ApiMethod<Record<string, unknown>, unknown>;
}

/** Why a call failed: an upstream error status, an answer unlike its schema, or no answer (`failed`). */
export type ApiErrorKind = "upstream" | "unexpected-response" | "failed";

/** {@link ApiError}'s `code` for each kind. */
const API_ERROR_CODES = {
  upstream: "ERR_API_UPSTREAM",
  "unexpected-response": "ERR_API_UNEXPECTED_RESPONSE",
  failed: "ERR_API_FAILED",
} as const;

/** The stable `code` of an {@link ApiError}. */
export type ApiErrorCode = (typeof API_ERROR_CODES)[ApiErrorKind];

/** A failed API call; `TBody` types an upstream error answer's body (see `errorResponseGuard`). */
export class ApiError<TBody = unknown> extends Error {
  override readonly name = "ApiError";
  /** Stable across versions, one per kind: custom code may branch on it. */
  readonly code: ApiErrorCode;

  constructor(
    /** The operation (tool name). */
    readonly operation: string,
    readonly kind: ApiErrorKind,
    message: string,
    /** Upstream HTTP status, when an answer came. */
    readonly status: number | undefined,
    /** The error answer's JSON (else a text excerpt), the body unlike the schema, or undefined. */
    readonly body: TBody,
    /** The tool result of the call. */
    readonly result: CallToolResult | InputRequiredResult,
  ) {
    super(message);
    this.code = API_ERROR_CODES[kind];
  }
}

/** A guard (`src/api.ts`'s `isErrorResponse`): whether `error` is the upstream's error answer to `operation`. */
export function errorResponseGuard<TErrors>(): <K extends keyof TErrors & string>(
  error: unknown,
  operation: K,
) => error is ApiError<TErrors[K] | string> {
  return (error, operation): error is ApiError<never> =>
    error instanceof ApiError && error.kind === "upstream" && error.operation === operation;
}
