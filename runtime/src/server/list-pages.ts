/** Pages of the MCP list methods; a list cursor is an offset into a fixed list (not the upstream's cursors). */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import { isRecord } from "../protocol/own.js";

/** Default number of items per list page (`tools/list`, `resources/list`). */
export const DEFAULT_PAGE_SIZE = 100;
/** Most pages of a full `tools/list` by default (larger lists get larger pages): SDK 2.x stops after 64. */
export const MAX_LIST_PAGES = 32;
/** Most JSON characters of one enlarged page: the stdio client of SDK 1.x drops a message over 10 MB. */
export const MAX_PAGE_BYTES = 8 * 2 ** 20;

/** Longest list cursor accepted: the ones this server issues have about 20 characters. */
const MAX_LIST_CURSOR_CHARS = 64;

/** The offset of a list cursor (base64url of `{"o": offset}`); InvalidParams unless this server could have issued it. */
function decodeListCursor(cursor: unknown, total: number): number {
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

  /** `pageSize` unset: {@link DEFAULT_PAGE_SIZE}, or what keeps a list within {@link MAX_LIST_PAGES} pages. */
  constructor(private readonly pageSizeSet: number | undefined) {
    this.pageSize = Math.max(1, pageSizeSet ?? DEFAULT_PAGE_SIZE);
  }

  /** One page of `items` as `{ [key]: page, nextCursor? }`, from `params.cursor`; `show` maps only the page's items. */
  page<T>(
    key: string,
    items: readonly T[],
    params: Record<string, unknown>,
    show: (item: T) => unknown = (item) => item,
  ): Record<string, unknown> {
    const offset = params.cursor === undefined ? 0 : decodeListCursor(params.cursor, items.length);
    const adapted = Math.max(this.pageSize, Math.ceil(items.length / MAX_LIST_PAGES));
    const size = this.pageSizeSet !== undefined ? this.pageSize : adapted;
    const end = Math.min(items.length, offset + size);
    let next = end;
    const shown: unknown[] = [];
    let bytes = 0;
    for (let i = offset; i < end; i++) {
      const item = show(items[i]!);
      // Enlarged pages end early at MAX_PAGE_BYTES.
      if (size > this.pageSize) {
        const length = JSON.stringify(item).length;
        if (shown.length > 0 && bytes + length > MAX_PAGE_BYTES) {
          next = i;
          break;
        }
        bytes += length;
      }
      shown.push(item);
    }
    const cursor = Buffer.from(JSON.stringify({ o: next }), "utf8").toString("base64url");
    return next < items.length ? { [key]: shown, nextCursor: cursor } : { [key]: shown };
  }
}
