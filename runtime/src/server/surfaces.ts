/**
 * Surfaces: what a server lists for the operations. `all` (core): one tool per operation; `search`
 * and `code` (features): meta tools ({@link MetaTools}); `auto`: search for large APIs (feature `search`), else `all`.
 */
import type { InputRequiredResult, CallToolResult, ListedTool } from "../api/mcp-types.js";
import type { ToolDefinition } from "../api/types.js";

/** Surfaces a user may ask for. */
export const SURFACES = ["all", "search", "code", "auto"] as const;
/** A requested surface. */
export type SurfaceName = (typeof SURFACES)[number];
/** A surface actually served (`auto` resolved). */
export type ServedSurface = Exclude<SurfaceName, "auto">;

/** Resolves `auto` for `count` operations (`maxTools`: a client's cap); feature `search` provides it. */
export type ChooseAuto = (
  count: number,
  listed: () => readonly ListedTool[],
  maxTools?: number,
) => { surface: ServedSurface; reason: string };

/** Parses a surface name (flag or environment); throws a message naming the choices. */
export function parseSurface(text: string, origin: string): SurfaceName {
  if ((SURFACES as readonly string[]).includes(text)) return text as SurfaceName;
  throw new Error(`${origin} must be one of ${SURFACES.join(", ")} (got '${text}')`);
}

/** Runs an operation as `tools/call` of its own tool would; `fromCode`: a script asks (it cannot confirm). */
export type RunOperation = (
  name: string,
  args: Record<string, unknown>,
  via?: { signal?: AbortSignal; fromCode?: boolean },
) => Promise<CallToolResult | InputRequiredResult>;

/** The operations a server offers: their names from the start, their definitions loaded on first need. */
export interface OperationLookup {
  names: ReadonlySet<string>;
  get(name: string): ToolDefinition | undefined;
  all(): readonly ToolDefinition[];
}

/** What a surface's meta tools are made from. */
export interface MetaToolsContext {
  /** The API's title, for the tool descriptions. */
  title: string;
  /** The operations this server offers (after toolset filters). */
  operations: OperationLookup;
  /** Reads a file of the project's data/ folder; undefined when absent. */
  readData?: ((file: string) => string | undefined) | undefined;
  /** Reads a byte range of a data/ file (one declaration, without parsing the others). */
  readDataRange?: ((file: string, offset: number, length: number) => string) | undefined;
  /** An operation's place in tool order (its line in the data/*-offsets.txt files); -1 when none. */
  indexOf?: ((name: string) => number) | undefined;
}

/** The meta tools of one surface other than `all`: their listing and their calls. */
export interface MetaTools {
  readonly surface: ServedSurface;
  /** The meta tools this surface lists, in order. */
  tools(): readonly ListedTool[];
  find(name: string): ListedTool | undefined;
  /**
   * Calls meta tool `name` with validated `args`. `allowed` says which operations this caller may
   * see (toolset filters, OAuth scopes); `run` runs one operation; `signal` aborts with the request.
   */
  call(
    name: string,
    args: Record<string, unknown>,
    allowed: (name: string) => boolean,
    run: RunOperation,
    signal?: AbortSignal,
  ): Promise<CallToolResult | InputRequiredResult>;
  /** The operation a call of meta tool `name` runs, when it runs exactly one (its OAuth scopes apply). */
  target(name: string, args: unknown): string | undefined;
  /** Whether a call of meta tool `name` runs operations (and so may become a task, as they may). */
  runsOperations(name: string): boolean;
  /**
   * How meta tool `name` names the one operation it calls and that operation's arguments, when
   * each call runs exactly one whose result it returns as is (`call_operation`); else undefined.
   */
  operationCall?(name: string): { nameArgument: string; argumentsArgument: string } | undefined;
}

/** Makes the meta tools of a surface; a feature that serves the surface provides it. */
export type MakeMetaTools = (context: MetaToolsContext) => MetaTools;

/** The surfaces the server's features serve besides `all`. */
export type SurfaceMakers = Partial<Record<Exclude<ServedSurface, "all">, MakeMetaTools>>;
