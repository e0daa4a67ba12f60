/**
 * The typed API client of the user's code (`src/custom/`): `api.listPets({ limit: 2 })` runs the
 * operation through the server's one operation path (validation, hooks, credentials, retries,
 * pagination, the calling request's cancellation) and resolves to its documented structured result,
 * or rejects with an {@link ApiError}. The same shape as code mode's `api` (code-host.ts), typed:
 * a generated project's `src/api.ts` names it `Api = ApiClient<ToolInputs, ToolOutputs>`.
 */
import { operationOutcome } from "./tool-outcome.js";
import type { InputRequiredResult, CallToolResult } from "./mcp-types.js";
import { isRecord } from "../protocol/own.js";

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
  /** The documented structured result (or the text of a result without structured content). */
  data: TData;
  /** HTTP status of the upstream's (last) response; undefined when no request was sent (a hook answered). */
  status: number | undefined;
  /** Response headers of that response, lower-case names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The tool result the call produced (content blocks included). */
  result: CallToolResult;
}

/**
 * The shape a generated output type uses for a response that did not match the documented schema
 * (`{ unexpectedResponse: { status, contentType, body, problems } }`, result.ts). The client
 * rejects such responses, so its methods resolve to the documented shape only.
 */
export interface UnexpectedResponse {
  unexpectedResponse: unknown;
}

/** A tool's output type without the unexpected-response branch: what a successful API call resolves to. */
export type Documented<TOutput> = Exclude<TOutput, UnexpectedResponse>;

/** One operation as a method: arguments optional when the tool requires none. */
export type ApiMethod<TInput, TOutput> = {} extends TInput
  ? {
      (args: TInput | undefined, options: ResponseOptions): Promise<ApiResponse<Documented<TOutput>>>;
      (args?: TInput, options?: CallOptions): Promise<Documented<TOutput>>;
    }
  : {
      (args: TInput, options: ResponseOptions): Promise<ApiResponse<Documented<TOutput>>>;
      (args: TInput, options?: CallOptions): Promise<Documented<TOutput>>;
    };

/**
 * Every operation of an API as a method, from its maps of tool name → arguments and tool name →
 * structured result (the generated `ToolInputs` / `ToolOutputs`; their doc comments show on hover).
 */
export type ApiClient<TInputs, TOutputs> = {
  readonly [K in keyof TInputs]: ApiMethod<TInputs[K], K extends keyof TOutputs ? TOutputs[K] : unknown>;
};

/** The client of code that did not give the API's types: any operation name, untyped results. */
export interface UntypedApi {
  readonly [operation: string]: ApiMethod<Record<string, unknown>, unknown>;
}

/**
 * Why a call failed: `upstream` answered with an error status; its answer did not match the
 * documented schema (`unexpected-response`); or no answer came (`failed`: arguments refused, a
 * network error or timeout, a call that needs the user's confirmation first).
 */
export type ApiErrorKind = "upstream" | "unexpected-response" | "failed";

/** A failed API call: the operation, the upstream status and body excerpt when there was an answer. */
export class ApiError extends Error {
  override readonly name = "ApiError";

  constructor(
    /** The operation (tool name) that was called. */
    readonly operation: string,
    readonly kind: ApiErrorKind,
    message: string,
    /** Upstream HTTP status, when an answer came. */
    readonly status: number | undefined,
    /** The answer's body: an excerpt (errors) or the parsed body (unexpected responses). */
    readonly body: unknown,
    /** The tool result of the call. */
    readonly result: CallToolResult | InputRequiredResult,
  ) {
    super(message);
  }
}

/** The upstream response of one call, as the server reports it to the client. */
export interface ResponseInfo {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Runs operation `name` on behalf of the calling request, reporting the upstream response (each
 * page's, when several are collected) to `onResponse`.
 */
export type OperationRunner = (
  name: string,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal; onResponse: (response: ResponseInfo) => void },
) => Promise<CallToolResult | InputRequiredResult>;

/** What the client needs from the server. */
export interface ApiHost {
  /** Whether the server offers operation `name` (toolset filters applied). */
  has(name: string): boolean;
  /** The key of the operation's unexpected-response shape, when it has an output schema. */
  fallbackKey(name: string): string | undefined;
  run: OperationRunner;
}

/**
 * The `api` object of one request: a property for every operation the server offers (and nothing
 * else, so `await api` or `JSON.stringify(api)` find no `then` or `toJSON`), each calling `host.run`.
 */
export function operationApi(host: ApiHost): UntypedApi {
  const methods = new Map<
    string,
    (args?: Record<string, unknown>, options?: CallOptions & { response?: boolean }) => Promise<unknown>
  >();
  const method = (name: string) => {
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
      outcome.error.body,
      result,
    );
  }
  const key = host.fallbackKey(name);
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
  if (!options.response) return outcome.value;
  const tool = result as CallToolResult;
  return {
    data: outcome.value,
    status: response?.status,
    headers: response?.headers ?? {},
    result: tool,
  } satisfies ApiResponse<unknown>;
}
