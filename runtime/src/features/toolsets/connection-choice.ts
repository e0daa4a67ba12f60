/**
 * The tool surface a connection chooses over HTTP (`/mcp?toolsets=issues,pulls&read_only=1&surface=search`,
 * or the headers `Mcp-Toolsets`, `Mcp-Read-Only`, `Mcp-Surface`), within what the process serves:
 * the process flags are the ceiling, a connection narrows. A request that chooses nothing costs nothing.
 */
import type { ToolDefinition } from "../../api/types.js";
import type { ChosenTools, ConnectionChoices, ToolChoice } from "../../server/choice-slot.js";
import type { ServedSurface } from "../../server/surfaces.js";

const TRUE = /^(1|true|yes)$/i;
const FALSE = /^(0|false|no)$/i;
const READ_METHODS = new Set(["get", "head", "options"]);

/** The choice of a request's query string (first) or headers; undefined: none; a string: why it is malformed. */
export function readToolChoice(
  search: string,
  headers: Record<string, string | string[] | undefined>,
): ToolChoice | string | undefined {
  const query = search === "" ? undefined : new URLSearchParams(search);
  const value = (param: string, header: string): string | undefined => {
    const given = query?.get(param) ?? headers[header];
    return Array.isArray(given) ? given.join(",") : given;
  };
  const toolsets = value("toolsets", "mcp-toolsets");
  const readOnly = value("read_only", "mcp-read-only");
  const surface = value("surface", "mcp-surface");
  if (toolsets === undefined && readOnly === undefined && surface === undefined) return undefined;
  const choice: ToolChoice = {};
  if (toolsets !== undefined) {
    choice.toolsets = toolsets
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean);
    if (choice.toolsets.length === 0) return "toolsets must name at least one toolset (comma-separated)";
  }
  if (readOnly !== undefined) {
    if (!TRUE.test(readOnly) && !FALSE.test(readOnly))
      return `read_only must be one of 1, 0, true, false, yes, no (got '${readOnly}')`;
    choice.readOnly = TRUE.test(readOnly);
  }
  if (surface !== undefined) choice.surface = surface.trim();
  return choice;
}

/** The server's side: checks choices against what it serves, and remembers the few it meets. */
export class ToolChoices implements ConnectionChoices {
  private readonly known = new Map<string, ChosenTools>();

  /** `operations`: every operation the process offers; `surfaces`: those a connection may choose. */
  constructor(
    private readonly operations: () => readonly ToolDefinition[],
    private readonly surfaces: readonly ServedSurface[],
  ) {}

  read = readToolChoice;

  /** The tools `choice` leaves, or a message naming the valid values when it asks for what is not served. */
  resolve(choice: ToolChoice): ChosenTools | string {
    const key = JSON.stringify(choice);
    const known = this.known.get(key);
    if (known) return known;
    const surface = choice.surface as ServedSurface | undefined;
    if (surface !== undefined && !this.surfaces.includes(surface))
      return `surface must be one of ${this.surfaces.join(", ")} on this server (got '${choice.surface}')`;
    const offered = this.offered(choice);
    if (typeof offered === "string") return offered;
    // Distinct choices are few in practice; a bound keeps a client that varies them from growing the map.
    if (this.known.size >= 256) this.known.clear();
    const chosen = { offered, surface };
    this.known.set(key, chosen);
    return chosen;
  }

  /** The operations left by the toolsets and read-only parts of `choice`, or why a toolset is unknown. */
  private offered(choice: ToolChoice): ReadonlySet<string> | undefined | string {
    if (!choice.toolsets && !choice.readOnly) return undefined;
    const tools = this.operations();
    const wanted = choice.toolsets && new Set(choice.toolsets);
    if (wanted) {
      const served = new Set(tools.flatMap((tool) => (tool.tags ?? []).map((tag) => tag.toLowerCase())));
      const unknown = [...wanted].find((name) => !served.has(name));
      if (unknown !== undefined)
        return `unknown toolset '${unknown}': this server serves ${[...served].sort().join(", ") || "no toolsets"}`;
    }
    const kept = tools.filter(
      (tool) =>
        (!choice.readOnly || READ_METHODS.has(tool.http.method.toLowerCase())) &&
        (!wanted || (tool.tags ?? []).some((tag) => wanted.has(tag.toLowerCase()))),
    );
    return new Set(kept.map((tool) => tool.name));
  }
}
