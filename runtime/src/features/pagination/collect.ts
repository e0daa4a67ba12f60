/**
 * Bounded auto-collection: a paginated tool called with `maxPages` > 1 follows its own
 * `nextCursor` and returns the items of every page fetched together. Bounded by page count, a byte
 * budget and cancellation; a page that fails or deviates from the spec ends the collection, and
 * `nextCursor` then points at the first page not collected.
 */
import type { CallToolResult } from "../../api/mcp-types.js";
import { readToolResult, renderToolResult } from "../../api/tool-outcome.js";
import type { ToolDefinition } from "../../api/types.js";

/** Upper bound of `maxPages`. */
export const MAX_COLLECTED_PAGES = 10;
/** Stop collecting once the structured result is this large (bytes of JSON). */
export const COLLECT_BYTE_BUDGET = 1_000_000;

type Obj = Record<string, unknown>;

function itemsAt(content: unknown, path: string[]): unknown[] | undefined {
  let node = content;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Obj)[key];
  }
  return Array.isArray(node) ? node : undefined;
}

/** How many pages the call asks for (1 when the tool does not offer collection). */
export function requestedPages(tool: ToolDefinition, args: Record<string, unknown>): number {
  const argument = tool.http.pagination?.maxPagesArgument;
  const value = argument ? args[argument] : undefined;
  return typeof value === "number" && Number.isInteger(value) ? Math.min(Math.max(value, 1), MAX_COLLECTED_PAGES) : 1;
}

/**
 * Follows `nextCursor` from `first` for up to `pages` pages in total. `fetchPage` runs the tool with
 * the given arguments; `onPage` reports progress after each page.
 */
export async function collectPages(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  first: CallToolResult,
  pages: number,
  fetchPage: (args: Record<string, unknown>) => Promise<CallToolResult>,
  options: { signal?: AbortSignal; onPage?: (done: number, total: number) => void } = {},
): Promise<CallToolResult> {
  const pagination = tool.http.pagination;
  const path = tool.http.response.wrapKey ? [tool.http.response.wrapKey] : pagination?.itemsPath;
  const start = readToolResult(first);
  const merged = start.value as Obj | undefined;
  const items = merged && path ? itemsAt(merged, path) : undefined;
  if (!pagination || !path || pages <= 1 || !start.ok || !merged || !items) return first;
  let fetched = 1;
  options.onPage?.(fetched, pages);
  while (fetched < pages && typeof merged.nextCursor === "string" && !options.signal?.aborted) {
    if (JSON.stringify(merged).length > COLLECT_BYTE_BUDGET) break;
    const next = readToolResult(await fetchPage({ ...args, [pagination.cursorArgument]: merged.nextCursor }));
    const more = next.ok ? itemsAt(next.value, path) : undefined;
    if (!more) break;
    items.push(...more);
    const cursor = (next.value as Obj).nextCursor;
    if (typeof cursor === "string") merged.nextCursor = cursor;
    else delete merged.nextCursor;
    fetched++;
    options.onPage?.(fetched, pages);
  }
  const text = JSON.stringify(merged, null, 2);
  const summary = `${items.length} items from ${fetched} page(s).${typeof merged.nextCursor === "string" ? ` More results: call again with ${pagination.cursorArgument} = ${merged.nextCursor}` : ""}`;
  return renderToolResult({
    ...start,
    parts: [
      // Never cut here: the result step sizes it for the model (server/result-step.ts), as valid JSON.
      { kind: "text", text },
      { kind: "text", text: summary },
    ],
    value: merged,
  });
}
