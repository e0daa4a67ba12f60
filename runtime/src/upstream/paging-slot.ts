/** Upstream pagination as the core sees it (feature `pagination`: `cursor` in, `nextCursor` out, collection). */
import type { CallToolResult } from "../api/mcp-types.js";
import type { ToolDefinition } from "../api/types.js";

/** Arguments (and for URL styles, the exact URL) of the page a cursor asks for. */
export type CursorApplication =
  | { ok: true; args: Record<string, unknown>; url?: string }
  | { ok: false; message: string };

/** What the cursor for the next page needs to know about the response. */
export interface PageFacts {
  /** The arguments the page was requested with (after the cursor was applied). */
  args: Record<string, unknown>;
  /** The JSON body, if JSON. */
  body: unknown;
  link?: string | undefined;
  /** The URL requested, to resolve relative next links. */
  requestUrl: string;
  baseUrl: string;
  /** Encoded `name=value` query credentials the request carried; never stored in a cursor. */
  credentialQuery?: readonly string[] | undefined;
}

/** The pagination of one server. */
export interface Paging {
  /** Applies the `cursor` argument of a paginated tool to its arguments. */
  apply(tool: ToolDefinition, args: Record<string, unknown>, baseUrl: string): CursorApplication;
  /** Adds the next page's cursor to a successful result of a paginated tool (none on the last page). */
  addNext(tool: ToolDefinition, result: CallToolResult, facts: PageFacts): void;
  /** How many pages a call asks for (1 when the tool does not offer collection). */
  pages(tool: ToolDefinition, args: Record<string, unknown>): number;
  /** Follows `nextCursor` from `first` for up to `pages` pages in total, their items together. */
  collect(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    first: CallToolResult,
    pages: number,
    fetchPage: (args: Record<string, unknown>) => Promise<CallToolResult>,
    options?: { signal?: AbortSignal; onPage?: (done: number, total: number) => void },
  ): Promise<CallToolResult>;
}

/** Makes the pagination of a server (its cursor key from the environment); the pagination feature provides it. */
export type MakePaging = (env: NodeJS.ProcessEnv) => Paging;
