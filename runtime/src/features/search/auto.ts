/**
 * The `auto` surface's choice: one tool per operation (`all`) within {@link AUTO_BUDGET}, else the
 * search surface. Only a server with feature `search` can serve search, so the choice lives here.
 */
import type { ListedTool } from "../../api/mcp-types.js";
import type { ServedSurface, SurfaceName } from "../../server/surfaces.js";

/** `auto` serves one tool per operation only within what clients take (Cursor, VS Code cap the tools). */
export const AUTO_BUDGET = { tools: 40, tokens: 30_000 } as const;

/** Estimated model tokens of a JSON text: about 4 bytes per token. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** Bytes of the `tools/list` entries of these tools (UTF-8 JSON). */
export function listBytes(tools: readonly ListedTool[]): number {
  return Buffer.byteLength(JSON.stringify(tools), "utf8");
}

/** The surface to serve for `requested` and why; `listed` is asked for only when `count` fits the budget. */
export function chooseSurface(
  requested: SurfaceName,
  count: number,
  listed: () => readonly ListedTool[],
  budget: { tools: number; tokens: number } = AUTO_BUDGET,
): { surface: ServedSurface; reason: string } {
  if (requested !== "auto") return { surface: requested, reason: `asked for (--surface ${requested} or MCP_SURFACE)` };
  if (count > budget.tools)
    return { surface: "search", reason: `auto: ${count} operation tools exceed the budget of ${budget.tools} tools` };
  const tokens = estimateTokens(listBytes(listed()));
  if (tokens > budget.tokens)
    return {
      surface: "search",
      reason: `auto: tools/list of ${count} tools is ~${tokens} tokens, over the budget of ${budget.tokens}`,
    };
  return {
    surface: "all",
    reason: `auto: ${count} operation tools, ~${tokens} tokens of tools/list, within the budget (${budget.tools} tools, ${budget.tokens} tokens)`,
  };
}
