/**
 * The user's resources, resource templates and prompts (api/extensions.ts) as the core's
 * `resources/*`, `prompts/*` and `completion/complete` serve them (server/custom-slot.ts
 * `CustomContent`), before the generated resources.
 */
import type { Extension } from "../../api/extensions.js";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.js";
import { isRecord } from "../../protocol/own.js";
import type { CustomContent } from "../../server/custom-slot.js";
import { matchUriTemplate } from "./uri-template.js";

/** The content of `extension`: listed without its functions, read and completed through them. */
export function customContent(extension: Extension): CustomContent {
  const resources = extension.resources ?? [];
  const templates = extension.resourceTemplates ?? [];
  const prompts = extension.prompts ?? [];
  return {
    resources: resources.map(({ read: _read, ...listed }) => listed),
    templates: templates.map(({ read: _read, complete: _complete, ...listed }) => listed),
    prompts: prompts.map(({ get: _get, complete: _complete, ...listed }) => listed),
    read(uri, tools) {
      const fixed = resources.find((r) => r.uri === uri);
      if (fixed) return fixed.read(tools());
      for (const template of templates) {
        const variables = matchUriTemplate(template.uriTemplate, uri);
        if (variables) return template.read(uri, variables, tools());
      }
      return undefined;
    },
    complete(ref, argument, prefix) {
      const named =
        ref.type === "ref/resource"
          ? templates.find((t) => t.uriTemplate === ref.uri)
          : prompts.find((p) => ref.type === "ref/prompt" && p.name === ref.name);
      return named && (named.complete?.(argument, prefix) ?? []);
    },
    async getPrompt(params, tools) {
      const prompt = prompts.find((p) => p.name === params.name);
      if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(params.name)}`);
      const args = params.arguments ?? {};
      if (!isRecord(args) || Object.values(args).some((v) => typeof v !== "string"))
        throw new RpcError(ErrorCode.InvalidParams, "prompt arguments must be an object of strings");
      const missing = (prompt.arguments ?? [])
        .filter((a) => a.required && args[a.name] === undefined)
        .map((a) => a.name);
      if (missing.length > 0)
        throw new RpcError(ErrorCode.InvalidParams, `Missing required prompt arguments: ${missing.join(", ")}`);
      return prompt.get(args as Record<string, string>, tools);
    },
  };
}
