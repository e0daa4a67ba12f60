/**
 * The typed API client of the user's code: `api.listPets({ limit: 2 })` runs the operation the way
 * `tools/call` does and resolves to what the API returned (JSON, text, {@link BinaryData}, or
 * undefined for no content), or rejects with an {@link ApiError}. `src/api.ts` types it.
 */
import { operationOutcome } from "./tool-outcome.js";
import type { CallToolResult, InputRequiredResult } from "./mcp-types.js";
import { isRecord } from "../protocol/own.js";
import type { ResponseBinding } from "./types.js";

/** Options of one API call. */
export interface CallOptions {
  /** Aborts this call (the calling request's own cancellation always applies too). */
  signal?: AbortSignal;
}

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

/** A binary response (neither JSON nor text): its media type and its bytes, base64-encoded. */
export interface BinaryData {
  mimeType: string;
  /** The bytes, base64. */
  data: string;
  /** The URL it came from (without the query). */
  uri?: string;
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
export interface UntypedApi {
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

/** The upstream response of one call, as the server reports it to the client. */
export interface ResponseInfo {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The response had no body. */
  empty?: boolean;
}

/** A guard (`src/api.ts`'s `isErrorResponse`): whether `error` is the upstream's error answer to `operation`. */
export function errorResponseGuard<TErrors>(): <K extends keyof TErrors & string>(
  error: unknown,
  operation: K,
) => error is ApiError<TErrors[K] | string> {
  return (error, operation): error is ApiError<never> =>
    error instanceof ApiError && error.kind === "upstream" && error.operation === operation;
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

/** The `api` of one request: a method per offered operation and nothing else (no `then`, no `toJSON`). */
export function operationApi(host: ApiHost): UntypedApi {
  type Method = (args?: Record<string, unknown>, options?: CallOptions & { response?: boolean }) => Promise<unknown>;
  const methods = new Map<string, Method>();
  const method = (name: string): Method => {
    let call = methods.get(name);
    if (!call) {
      call = (args, options) => callOperation(host, name, args ?? {}, options ?? {});
      methods.set(name, call);
    }
    return call;
  };
  return new Proxy(Object.create(null) as UntypedApi, {
    get: (_target, name) => (typeof name === "string" && host.has(name) ? method(name) : undefined),
    has: (_target, name) => typeof name === "string" && host.has(name),
  });
}

async function callOperation(
  host: ApiHost,
  name: string,
  args: Record<string, unknown>,
  options: CallOptions & { response?: boolean },
): Promise<unknown> {
  if (!isRecord(args)) throw new TypeError(`api.${name}: arguments must be an object`);
  let response: ResponseInfo | undefined;
  const result = await host.run(name, args, {
    ...(options.signal ? { signal: options.signal } : {}),
    onResponse: (info) => (response = info),
  });
  const outcome = operationOutcome(name, result);
  if (!outcome.ok) {
    const answered = !("resultType" in result) && outcome.error.status !== undefined;
    throw new ApiError(
      name,
      answered ? "upstream" : "failed",
      outcome.error.message,
      outcome.error.status ?? response?.status,
      answered ? parsedBody(outcome.error.body) : outcome.error.body,
      result,
    );
  }
  const binding = host.response(name);
  const key = binding?.fallbackKey;
  const unexpected = key !== undefined && isRecord(outcome.value) ? outcome.value[key] : undefined;
  if (isRecord(unexpected)) {
    const status = typeof unexpected.status === "number" ? unexpected.status : response?.status;
    const problems = Array.isArray(unexpected.problems) ? unexpected.problems.join("; ") : "";
    throw new ApiError(
      name,
      "unexpected-response",
      `${name}: the response does not match the documented schema${problems ? ` (${problems})` : ""}`,
      status,
      unexpected.body,
      result,
    );
  }
  const tool = result as CallToolResult;
  const data = resultData(tool, binding?.wrapKey, response);
  if (!options.response) return data;
  const cursor = isRecord(tool.structuredContent) ? tool.structuredContent.nextCursor : undefined;
  return {
    data,
    ...(typeof cursor === "string" ? { nextCursor: cursor } : {}),
    status: response?.status,
    headers: response?.headers ?? {},
    result: tool,
  } satisfies ApiResponse<unknown>;
}

/** An error answer's body excerpt as JSON when it parses, else as it is. */
function parsedBody(body: string | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** What the API returned: structured content (unwrapped), a binary block, undefined when empty, else the text. */
function resultData(result: CallToolResult, wrapKey: string | undefined, response: ResponseInfo | undefined): unknown {
  const structured = result.structuredContent;
  if (structured !== undefined) return wrapKey !== undefined && isRecord(structured) ? structured[wrapKey] : structured;
  for (const block of result.content ?? []) {
    if (block.type === "image" || block.type === "audio") return { mimeType: block.mimeType, data: block.data };
    if (block.type === "resource" && "blob" in block.resource && typeof block.resource.blob === "string")
      return {
        mimeType: block.resource.mimeType ?? "application/octet-stream",
        data: block.resource.blob,
        uri: block.resource.uri,
      } satisfies BinaryData;
  }
  if (response?.empty) return undefined;
  return (result.content ?? []).flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}
