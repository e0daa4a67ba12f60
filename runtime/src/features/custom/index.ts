/**
 * Feature `custom`: the user's code of `src/custom/` — tools, resources, templates and prompts
 * written in code, hooks around every operation call, and the typed `api` client their handlers
 * get (src/api.ts types it for the API). Included when the project has custom code, or with
 * `--with custom`; a server without it vendors none of this.
 */
import type { Feature } from "../../cli/features.js";
import type { CustomCode } from "../../server/custom-slot.js";
import { hasHooks, runAfterHooks, runBeforeHooks } from "./call-hooks.js";
import { operationApi } from "./operation-api.js";
import { customContent } from "./custom-content.js";

/** What the core runs the user's code with. */
export const customCode: CustomCode = {
  hooks: (hooks) => ({
    has: (name) => hasHooks(hooks, name),
    before: (tool, args, tools) => runBeforeHooks(hooks, tool, args, tools),
    after: (tool, args, result, tools) => runAfterHooks(hooks, tool, args, result, tools),
  }),
  api: operationApi,
  content: customContent,
};

export const custom: Feature = {
  name: "custom",
  plugs: () => ({ customCode }),
};
