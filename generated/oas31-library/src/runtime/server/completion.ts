// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * `completion/complete`: values for a resource template's variable (the user's templates, then the
 * generated operation-documentation template) or a prompt's argument, by prefix.
 */
import type { CustomResourceTemplate } from "../api/extensions.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import { isRecord } from "../protocol/own.js";
import type { PromptMethods } from "./prompts.js";
import type { Params } from "./request-context.js";
import { MAX_COMPLETION_VALUES, type ResourceCatalog } from "./resources.js";

/** What completion looks in. */
export interface CompletionSources {
  resourceTemplates: readonly CustomResourceTemplate[];
  /** The generated resources (loads the operations when first called). */
  generated: () => ResourceCatalog;
  prompts: PromptMethods;
}

/** Answers one `completion/complete` request; -32602 for a malformed request or an unknown prompt. */
export function complete(params: Params, sources: CompletionSources): Record<string, unknown> {
  const ref = isRecord(params.ref) ? params.ref : undefined;
  const argument = isRecord(params.argument) ? params.argument : undefined;
  if (!ref || typeof ref.type !== "string" || !argument || typeof argument.name !== "string") {
    throw new RpcError(ErrorCode.InvalidParams, "completion/complete requires 'ref' and 'argument.name'");
  }
  const prefix = typeof argument.value === "string" ? argument.value : "";
  if (ref.type === "ref/resource" && typeof ref.uri === "string") {
    const custom = sources.resourceTemplates.find((t) => t.uriTemplate === ref.uri);
    if (custom) return { completion: completion(custom.complete?.(argument.name, prefix) ?? []) };
    return { completion: sources.generated().complete(ref.uri, argument.name, prefix) };
  }
  if (ref.type === "ref/prompt") {
    const prompt = sources.prompts.find(ref.name);
    if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(ref.name)}`);
    return { completion: completion(prompt.complete?.(argument.name, prefix) ?? []) };
  }
  throw new RpcError(ErrorCode.InvalidParams, `Unsupported completion reference type: ${ref.type}`);
}

/** The completion object of a list of values: at most {@link MAX_COMPLETION_VALUES}, with the total. */
function completion(values: string[]): { values: string[]; total: number; hasMore: boolean } {
  return {
    values: values.slice(0, MAX_COMPLETION_VALUES),
    total: values.length,
    hasMore: values.length > MAX_COMPLETION_VALUES,
  };
}
