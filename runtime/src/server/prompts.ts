/** The prompt methods (`prompts/list`, `prompts/get`) over the user's prompts (extensions.ts); the generated server has none. */
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

  /** `prompts/list` (each prompt without its functions). */
  list(params: Params, pager: ListPager): Record<string, unknown> {
    return pager.page("prompts", this.prompts, params, ({ get: _get, complete: _complete, ...listed }) => listed);
  }

  /** `prompts/get`: arguments must be strings and the required ones present (-32602 otherwise). */
  async get(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    const prompt = this.find(params.name);
    if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(params.name)}`);
    const args = params.arguments ?? {};
    if (!isRecord(args) || Object.values(args).some((v) => typeof v !== "string"))
      throw new RpcError(ErrorCode.InvalidParams, "prompt arguments must be an object of strings");
    const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
    if (missing.length > 0)
      throw new RpcError(ErrorCode.InvalidParams, `Missing required prompt arguments: ${missing.join(", ")}`);
    return prompt.get(args as Record<string, string>, this.channel.requestTools(params, call));
  }
}
