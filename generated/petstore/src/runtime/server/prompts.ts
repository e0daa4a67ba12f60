// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * The prompt methods (`prompts/list`, `prompts/get`) over the user's prompts (extensions.ts); the
 * generated server has none of its own.
 */
import type { CustomPrompt } from "../api/extensions.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import type { ListPager } from "./list-pages.js";
import { isRecord } from "../protocol/own.js";
import type { HandlerContext, Params } from "./request-context.js";
import type { ClientChannel } from "./request-tools.js";

/** Serves the prompt methods of one server. */
export class PromptMethods {
  constructor(
    private readonly prompts: readonly CustomPrompt[],
    private readonly channel: ClientChannel,
  ) {}

  /** The prompt called `name`, if any. */
  find(name: unknown): CustomPrompt | undefined {
    return this.prompts.find((p) => p.name === name);
  }

  /** `prompts/list`. */
  list(params: Params, pager: ListPager): Record<string, unknown> {
    return pager.page("prompts", this.prompts.map(listedPrompt), params);
  }

  /** `prompts/get`: arguments must be strings and the required ones present (-32602 otherwise). */
  async get(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    const prompt = this.find(params.name);
    if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(params.name)}`);
    const args = params.arguments ?? {};
    if (!isRecord(args) || Object.values(args).some((v) => typeof v !== "string")) {
      throw new RpcError(ErrorCode.InvalidParams, "prompt arguments must be an object of strings");
    }
    const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
    if (missing.length > 0)
      throw new RpcError(ErrorCode.InvalidParams, `Missing required prompt arguments: ${missing.join(", ")}`);
    return prompt.get(args as Record<string, string>, this.channel.requestTools(params, call));
  }
}

/** A prompt as `prompts/list` shows it (its functions left out). */
function listedPrompt(prompt: CustomPrompt): Record<string, unknown> {
  const { get: _get, complete: _complete, ...listed } = prompt;
  return listed;
}
