/**
 * Client views (feature `clients`): what one kind of client is served when it differs from the
 * server's own configuration, a surface, tool names and input schemas of its own. The server asks
 * for the view of each request's client; without the feature (or for a client no profile matches)
 * there is none, and nothing changes.
 */
import type { ListedTool } from "../api/mcp-types.js";
import type { ClientInfo } from "../protocol/client-info.js";
import type { Logger } from "../protocol/logger.js";
import type { ServedSurface, SurfaceName } from "./surfaces.js";

/** One client's view of the server. */
export interface ClientView {
  readonly surface: ServedSurface;
  /** The original tool name of a name this view serves, if it serves it. */
  originalName(served: string): string | undefined;
  /** A listed tool as this client is served it (name and input schema). */
  listed(tool: ListedTool): ListedTool;
  /** Arguments the client sent for original tool `tool`, back in the form the full schema validates. */
  decode(tool: ListedTool, args: unknown): unknown;
}

/** The views of one server, looked up per request. */
export interface ClientViews {
  /** The view for a request from `client` (undefined: the server's own view). */
  viewFor(client: ClientInfo | undefined): ClientView | undefined;
}

/** What the server tells the views about itself. */
export interface ClientViewsContext {
  /** The surface asked for (`auto` adapts to each view); `served` is what it resolved to for the server. */
  requested: SurfaceName;
  served: ServedSurface;
  /** The server's npm name. */
  packageName: string;
  /** Operation tools offered, and what `tools/list` shows of them (asked for only when the count fits a budget). */
  operationCount: number;
  listedOperations: () => readonly ListedTool[];
  /** The names a surface lists, in order (meta or operation tools, then custom tools). */
  namesOn: (surface: ServedSurface) => readonly string[];
  /** Whether the server can serve `surface` (a feature serves it). */
  serves: (surface: ServedSurface) => boolean;
  logger: Logger;
}

/** Makes the views of a server; the clients feature provides it. */
export type MakeClientViews = (context: ClientViewsContext) => ClientViews;
