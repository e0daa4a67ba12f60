// Your code: created once by mcp-gen and never overwritten, so edit freely.
// Add tools, resources, resource templates and prompts; hook every operation call (beforeCall,
// afterCall) or one tool's, keyed by its name; call operations with the typed `api` each handler
// gets. Types and helpers: src/api.ts; examples: README.md in this folder.
import { defineExtension } from "../api.js";

export default defineExtension({
  tools: [],
  resources: [],
  resourceTemplates: [],
  prompts: [],
  hooks: {},
});
