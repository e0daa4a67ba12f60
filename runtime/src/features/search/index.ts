/**
 * Feature `search`: the search surface (`search_operations`, `describe_operation`,
 * `call_operation`) for APIs too large to list one tool per operation. `auto` picks it for them.
 */
import type { Feature } from "../../cli/features.js";
import { AUTO_BUDGET, chooseSurface } from "./auto.js";
import { SearchMetaTools } from "./meta-tools.js";

export const search: Feature = {
  name: "search",
  usage: `  --surface search   search_operations, describe_operation, call_operation; auto picks it
                     beyond ${AUTO_BUDGET.tools} tools or ~${AUTO_BUDGET.tokens.toLocaleString("en-US")} tokens of tools/list
`,
  plugs: () => ({
    surfaces: { search: (context) => new SearchMetaTools(context) },
    autoSurface: (count, listed, maxTools = AUTO_BUDGET.tools) =>
      chooseSurface("auto", count, listed, { tools: maxTools, tokens: AUTO_BUDGET.tokens }),
  }),
};
