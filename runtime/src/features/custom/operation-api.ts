/**
 * The `api` of one request (feature `custom`): a method per offered operation that runs it the way
 * `tools/call` does and resolves to what the API returned, or rejects with an {@link ApiError}.
 */
import type { ApiHost, BinaryData, CallOptions, ResponseInfo, UntypedApi } from "../../api/api-client.js";
import type { CallToolResult } from "../../api/mcp-types.js";
import { operationOutcome } from "../../api/tool-outcome.js";
import { isRecord } from "../../protocol/own.js";
import { ApiError, type ApiResponse } from "./typed-api.js";

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
