/**
 * Feature `apps`: interactive views of the operations (the MCP Apps extension, SEP-1865) for the
 * clients that declare `io.modelcontextprotocol/ui`: a list as a sortable table, a record as a
 * card, a change as a form that calls the tool through the host. Each tool with a view links it
 * (`_meta.ui.resourceUri`); other clients are served what a server without the feature serves.
 * The views' script (view/) is bundled with the extension's `App` by the project's build
 * (scripts/bundle-views.mjs) into view-bundle.js beside this module.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Feature } from "../../cli/features.js";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.js";
import { AppViews } from "./app-views.js";

/** The bundled view script, built by `npm run build`. */
function readViewScript(): string {
  const bundle = new URL("./view-bundle.js", import.meta.url);
  // An RpcError, so the client reads what is wrong (other errors are answered as "Internal error").
  if (!existsSync(bundle))
    throw new RpcError(
      ErrorCode.InternalError,
      "the views' script is not built: run `npm run build` in the server's project folder",
    );
  return readFileSync(bundle, "utf8");
}

/** The feature: its only plug makes the views of the operations the server offers. */
export const apps: Feature = {
  name: "apps",
  plugs: () => ({
    toolViews: (operations, meta) => new AppViews(operations, readViewScript, meta),
  }),
};
