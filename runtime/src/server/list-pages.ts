/**
 * Pages of the MCP list methods (`tools/list`, `resources/list`, `resources/templates/list`,
 * `prompts/list`) and their opaque list cursors. A list cursor is this server's own offset into a
 * fixed list; the sealed cursors that page the upstream API are another thing (pagination.ts).
 */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import { isRecord } from "../protocol/own.js";

/** Default number of items per list page (`tools/list`, `resources/list`). */
export const DEFAULT_PAGE_SIZE = 100;
/**
 * Most pages a full `tools/list` takes with the default page size: a larger list gets larger
 * pages. @modelcontextprotocol/client 2.x lists every page of `listTools()` but stops with an error
 * after 64 (its `listMaxPages`); MS Graph beta's 22,361 tools would take 224 pages of 100.
 */
export const MAX_LIST_PAGES = 32;
/**
 * Most JSON characters of one enlarged page (see MAX_LIST_PAGES): the stdio client of SDK 1.x
 * closes the connection on a message over 10 MB (its read buffer's limit).
 */
export const MAX_PAGE_BYTES = 8 * 2 ** 20;

/** Longest list cursor accepted: the ones this server issues have about 20 characters. */
const MAX_LIST_CURSOR_CHARS = 64;

/** Opaque list cursor: base64url of `{"o": offset}`. */
export function encodeListCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset }), "utf8").toString("base64url");
}

/** Decodes a list cursor; throws InvalidParams unless it is one this server could have issued for a list of `total` items. */
export function decodeListCursor(cursor: unknown, total: number): number {
  const invalid = new RpcError(ErrorCode.InvalidParams, "Invalid cursor");
  if (typeof cursor !== "string" || cursor.length > MAX_LIST_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw invalid;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid;
  }
  const offset = isRecord(decoded) ? decoded.o : undefined;
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset <= 0 || offset >= total) throw invalid;
  return offset;
}

/** Cuts the server's lists into pages of one configured (or adapted) size. */
export class ListPager {
  private readonly pageSize: number;
  /** The page size was set by the embedder (not adapted to the list's length). */
  private readonly pageSizeSet: boolean;

  /** `pageSize` unset: {@link DEFAULT_PAGE_SIZE}, or what keeps a list within {@link MAX_LIST_PAGES} pages. */
  constructor(pageSize: number | undefined) {
    this.pageSize = Math.max(1, pageSize ?? DEFAULT_PAGE_SIZE);
    this.pageSizeSet = pageSize !== undefined;
  }

  /**
   * One page of `items` as the list result `{ [key]: page, nextCursor? }`, from `params.cursor`
   * (validated); `show` maps only the page's items.
   */
  page<T>(
    key: string,
    items: readonly T[],
    params: Record<string, unknown>,
    show: (item: T) => unknown = (item) => item,
  ): Record<string, unknown> {
    const offset = params.cursor === undefined ? 0 : decodeListCursor(params.cursor, items.length);
    const size = this.pageSizeSet ? this.pageSize : Math.max(this.pageSize, Math.ceil(items.length / MAX_LIST_PAGES));
    const end = Math.min(items.length, offset + size);
    let next = end;
    let shown: unknown[];
    if (size <= this.pageSize) shown = items.slice(offset, end).map(show);
    else {
      // Enlarged pages end early at MAX_PAGE_BYTES: SDK 1.x's stdio client drops a message over 10 MB.
      shown = [];
      let bytes = 0;
      for (let i = offset; i < end; i++) {
        const item = show(items[i]!);
        const length = JSON.stringify(item).length;
        if (shown.length > 0 && bytes + length > MAX_PAGE_BYTES) {
          next = i;
          break;
        }
        shown.push(item);
        bytes += length;
      }
    }
    const page = { [key]: shown };
    return next < items.length ? { ...page, nextCursor: encodeListCursor(next) } : page;
  }
}
