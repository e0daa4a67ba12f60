/**
 * Feature `pagination`, included when an operation of the API pages: one `cursor` argument and
 * `nextCursor` result for every paging style (sealed cursors, `MCP_CURSOR_SECRET` shared by the
 * instances of a server), and `maxPages` to collect several pages in one call.
 */
import type { Feature } from "../../cli/features.js";
import type { MakePaging } from "../../upstream/paging-slot.js";
import { collectPages, requestedPages } from "./collect.js";
import { addNextCursor, applyCursor, cursorKey, nextCursor } from "./cursor-paging.js";

export const pagination: Feature = {
  name: "pagination",
  plugs: () => ({ paging: cursorPaging }),
};

/** Pagination with cursors sealed by the key the environment gives (or a random one). */
export const cursorPaging: MakePaging = (env) => {
  const key = cursorKey(env);
  return {
    apply: (tool, args, baseUrl) => applyCursor(tool, args, key, baseUrl),
    addNext(tool, result, facts) {
      const next = nextCursor(tool, facts, key);
      if (next) addNextCursor(result, next, tool.http.pagination!.cursorArgument);
    },
    pages: requestedPages,
    collect: collectPages,
  };
};
