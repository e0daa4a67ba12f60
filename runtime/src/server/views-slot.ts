/**
 * The slot feature `apps` fills: interactive views of tool results (the MCP Apps extension,
 * `io.modelcontextprotocol/ui`), linked from tools and served as `ui://` resources, for the clients
 * that declare they render them. Other clients are served exactly what a server without it serves.
 */
import type { ListedTool } from "../api/mcp-types.js";
import type { ToolDefinition } from "../api/types.js";
import type { MetaTools } from "./surfaces.js";

/** A view as `resources/list` shows it and `resources/read` gives it (a `Resource` and its contents). */
export interface ViewResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  _meta?: Record<string, unknown>;
}

/** The views of one server's operations. */
export interface ToolViews {
  /** Whether a client that declared these capabilities renders views. */
  renderedBy(capabilities: Readonly<Record<string, unknown>>): boolean;
  /**
   * The tool as listed to such a client: with its view's link (`_meta.ui`) when it has a view. A
   * meta tool of the server's surface that calls one operation per call (`call_operation`) links
   * the view that shows each call's result in the view of the operation it called.
   */
  linked(tool: ListedTool): ListedTool;
  /**
   * For a client that declared `capabilities` and renders views: the item fields the view of this
   * tool shows in a list (a table's columns), which a result shortened to its budget keeps before
   * other fields; undefined when its view shows no list, or for any other client.
   */
  shownFields(toolName: string, capabilities: Readonly<Record<string, unknown>>): string[] | undefined;
  /** The view resources, as `resources/list` shows them to such a client. */
  resources(): ViewResource[];
  /** A view resource's contents (`text`: its HTML); undefined for any other URI. */
  read(uri: string): Array<Pick<ViewResource, "uri" | "mimeType" | "_meta"> & { text: string }> | undefined;
}

/**
 * Makes the views of the operations (loaded on first need), given the meta tools of the server's
 * surface (undefined on `all`): one of them may call one operation per call (`operationCall`).
 */
export type MakeToolViews = (operations: () => readonly ToolDefinition[], meta: MetaTools | undefined) => ToolViews;
