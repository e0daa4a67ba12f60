/**
 * The slot feature `toolsets` fills for HTTP: the tools a connection chooses with its URL or
 * headers (`/mcp?toolsets=issues&read_only=1&surface=search`), within what the process serves.
 * Without the feature a connection gets the process's own tools; its query and headers are ignored.
 */
import type { ToolDefinition } from "../api/types.js";
import type { ServedSurface } from "./surfaces.js";

/** What a connection asked for (plain data: a legacy session keeps it, in a shared store too). */
export interface ToolChoice {
  toolsets?: string[];
  readOnly?: boolean;
  surface?: string;
}

/** A choice checked against the server: the operations it leaves (undefined: all) and its surface. */
export interface ChosenTools {
  readonly offered: ReadonlySet<string> | undefined;
  readonly surface: ServedSurface | undefined;
}

/** A server's side of the connections' choices. */
export interface ConnectionChoices {
  /** The choice of a request's query string (first) or headers; undefined: none; a string: why it is malformed. */
  read(search: string, headers: Record<string, string | string[] | undefined>): ToolChoice | string | undefined;
  /** The tools `choice` leaves, or a message naming the valid values when it asks for what is not served. */
  resolve(choice: ToolChoice): ChosenTools | string;
}

/** Makes the choices of a server: `operations` it offers, `surfaces` a connection may pick. */
export type MakeConnectionChoices = (
  operations: () => readonly ToolDefinition[],
  surfaces: readonly ServedSurface[],
) => ConnectionChoices;
