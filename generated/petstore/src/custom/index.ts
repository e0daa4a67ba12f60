// Your code: created once by mcp-gen and never overwritten, so edit freely.
// Add tools, resources, resource templates and prompts, or hook every upstream call.
// See src/runtime/extensions.ts for the API (CustomTool, CustomResource, CallHooks …).
import { defineExtension } from "../runtime/extensions.js";

export default defineExtension({
  tools: [],
  resources: [],
  resourceTemplates: [],
  prompts: [],
  hooks: {},
});
