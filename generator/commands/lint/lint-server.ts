/**
 * What a server lists, read from a spec (planned in memory, nothing written) or from a generated
 * server folder (`data/tools.json`, `package.json`), on a given surface, linted against client
 * profiles as the generated server serves each of them (its run-time adaptation: the profile's `auto`
 * budget, names and schemas; runtime/src/features/clients/client-views.ts), or as listed with `--no-adapt`. The data
 * side of `mcp-gen lint`; the command prints it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  AUTO_BUDGET,
  chooseSurface,
  configServerName,
  estimateTokens,
  listBytes,
  nameMap,
  loadTools,
  shapeInputSchema,
  CALL_OPERATION_TOOL,
  EXECUTE_CODE_LISTED,
  findingTools,
  type ListedTool,
  type ServedSurface,
  type SurfaceName,
  type ToolDefinition,
} from "../../shared/contract.js";
import { toolDefinition } from "../../pipeline/emit/typescript/tool-file.js";
import { generate } from "../../pipeline/generate.js";
import { Codes, type Diagnostic } from "../../shared/diagnostics.js";
import { lintTools, type LintFinding, type LintOptions } from "./lint-tools.js";
import { runtimeProfiles, type ClientProfile } from "../../shared/profiles.js";

/** The operation tools of a server, the names clients know it by, and its runtime features. */
export interface ServerTools {
  packageName: string;
  title: string;
  operations: ListedTool[];
  /** The runtime features it has (runtime/features.json): `clients` adapts to each client, `search` and `code` serve those surfaces. */
  features: string[];
  /**
   * For a spec: what generation says of the user's own changes to it (overlay actions that change
   * nothing, MG120; extension values it ignores, MG122), so lint shows them too.
   */
  diagnostics?: Diagnostic[];
}

/** The codes of findings about the user's own shaping of the surface (overlays, x-mcp-* extensions). */
const SHAPING_CODES: readonly string[] = [Codes.overlayTargetEmpty, Codes.overlayInvalid, Codes.extensionInvalid];

/** Options of {@link readServerTools}. */
export interface ReadOptions {
  allowRemote?: boolean;
  refRoot?: string | undefined;
  /** For a spec: the server's default surface and the features asked for (`--surface`, `--with` of a generation). */
  surface?: SurfaceName;
  features?: string[];
  /** For a spec: Overlay 1.0 documents applied first (`--overlay`). */
  overlays?: readonly string[];
}

/** A tool as `tools/list` shows it (the runtime's binding and extra data left out). */
function listed(tool: ToolDefinition): ListedTool {
  const { http: _http, documentation: _documentation, tags: _tags, confirm: _confirm, ...shown } = tool;
  return shown;
}

/** The target of `mcp-gen lint` is a folder, but not one mcp-gen generated. */
export class NotAServerFolder extends Error {}

/** Reads the operation tools of a generated server folder, or plans them from a spec. */
export async function readServerTools(target: string, options: ReadOptions = {}): Promise<ServerTools> {
  if (existsSync(target) && statSync(target).isDirectory()) {
    const toolsFile = join(target, "data", "tools.json");
    if (!existsSync(toolsFile))
      throw new NotAServerFolder(
        `${target} is not a generated server folder (no data/tools.json): pass the server's folder or its OpenAPI document`,
      );
    const pkg = JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as { name?: string };
    const definitionsFile = join(target, "data", "definitions.json");
    // A project without shared schema definitions has no definitions.json.
    const json = (file: string) => JSON.parse(readFileSync(file, "utf8")) as never;
    const tools = loadTools(json(toolsFile), existsSync(definitionsFile) ? json(definitionsFile) : []);
    const packageName = pkg.name ?? "server";
    const features = join(target, "src", "runtime", "features");
    return {
      packageName,
      title: packageName,
      operations: tools.map(listed),
      features: existsSync(features) ? readdirSync(features).sort() : [],
    };
  }
  const { plan, diagnostics } = await generate({
    spec: target,
    allowRemote: options.allowRemote ?? false,
    refRoot: options.refRoot,
    planOnly: true,
    ...(options.surface ? { defaultSurface: options.surface } : {}),
    ...(options.features ? { features: options.features } : {}),
    overlays: options.overlays ?? [],
  });
  return {
    packageName: plan.packageName,
    title: plan.title,
    operations: plan.tools.map((tool) => listed(toolDefinition(tool))),
    features: plan.features,
    diagnostics: diagnostics.filter((d) => SHAPING_CODES.includes(d.code)),
  };
}

/** The findings of one profile. */
export interface ProfileReport {
  id: string;
  name: string;
  sources: string[];
  /** The surface this client is served (on `auto`, chosen with its own tool limit, as the server does). */
  surface: ServedSurface;
  reason: string;
  tools: number;
  findings: LintFinding[];
}

/** What `mcp-gen lint` reports (its `--json` output). */
export interface LintReport {
  server: string;
  requestedSurface: SurfaceName;
  /** The surface a client no profile matches is served. */
  surface: ServedSurface;
  reason: string;
  tools: number;
  bytes: number;
  tokens: number;
  /** Whether the findings are of what a generated server serves each client (its run-time adaptation). */
  adapted: boolean;
  /** Whether the server has the clients feature (without it, it serves every client the tools as listed). */
  adapts: boolean;
  profiles: ProfileReport[];
}

/** Options of {@link lintServer}. */
export interface LintServerOptions extends LintOptions {
  /** The key the server has in the client's configuration (default: from the package name, as --print-config writes it). */
  serverName?: string | undefined;
  /**
   * Lint what a generated server serves each client it recognises (default): the profile's own `auto`
   * budget, names and input schemas rewritten to its rules. False: the tools as listed to any client.
   */
  adapt?: boolean;
}

/** The surface the server serves for `chosen`: `all` when it lacks the feature of the surface chosen. */
function servable(
  server: ServerTools,
  chosen: { surface: ServedSurface; reason: string },
): { surface: ServedSurface; reason: string } {
  return chosen.surface === "all" || server.features.includes(chosen.surface)
    ? chosen
    : { surface: "all", reason: `${chosen.reason}; served all, as the server has no ${chosen.surface} feature` };
}

/** The tools listed on `surface` (operation tools, or the surface's meta tools). */
function toolsOn(server: ServerTools, surface: ServedSurface): ListedTool[] {
  if (surface === "all") return server.operations;
  const running = surface === "code" ? EXECUTE_CODE_LISTED : CALL_OPERATION_TOOL;
  return [...findingTools(server.title, server.operations.length), running];
}

/**
 * What the generated server serves a client of `profile` (client-views.ts does the same at run time):
 * the surface from the profile's tool budget, names within its rules, input schemas in its dialect;
 * and the findings that say so.
 */
function servedTo(
  server: ServerTools,
  profile: ClientProfile,
  requested: SurfaceName,
  serverName: string,
): { surface: ServedSurface; reason: string; tools: ListedTool[]; notes: LintFinding[] } {
  const [runtime] = runtimeProfiles([profile]);
  const budget = { tools: runtime!.maxTools ?? AUTO_BUDGET.tools, tokens: AUTO_BUDGET.tokens };
  const chosen = servable(
    server,
    chooseSurface(requested, server.operations.length, () => server.operations, budget),
  );
  const listed = toolsOn(server, chosen.surface);
  const maxLength =
    runtime!.maxQualifiedName !== undefined ? runtime!.maxQualifiedName - serverName.length - 1 : undefined;
  const names = nameMap(
    listed.map((tool) => tool.name),
    {
      ...(runtime!.namePattern ? { pattern: runtime!.namePattern } : {}),
      ...(maxLength !== undefined ? { maxLength } : {}),
    },
  );
  const rules = runtime!.schema;
  const tools = listed.map((tool) => ({
    ...tool,
    name: names.served(tool.name),
    ...(rules ? { inputSchema: shapeInputSchema(tool.inputSchema, rules).schema } : {}),
  }));
  const who = `to clients announcing ${profile.clientInfo.names.join(" or ")} (or with --client ${profile.id})`;
  const renamed = listed.filter((tool) => names.served(tool.name) !== tool.name).map((tool) => tool.name);
  const notes: LintFinding[] = [];
  if (renamed.length > 0) {
    notes.push({
      rule: "served-names",
      effect: "adapted",
      message: `the server serves ${renamed.length} tool name${renamed.length === 1 ? "" : "s"} rewritten within the client's rules ${who}; calls with them reach the same operations`,
      tools: renamed,
    });
  }
  const reshaped = rules
    ? listed
        .filter((tool, i) => JSON.stringify(tool.inputSchema) !== JSON.stringify(tools[i]!.inputSchema))
        .map((tool) => tool.name)
    : [];
  if (reshaped.length > 0) {
    notes.push({
      rule: "served-schemas",
      effect: "adapted",
      message: `the server serves ${reshaped.length} input schema${reshaped.length === 1 ? "" : "s"} rewritten to the client's dialect ${who}: ${profile.schema!.text}`,
      tools: reshaped,
    });
  }
  return { surface: chosen.surface, reason: chosen.reason, tools, notes };
}

/** Lints what the server lists on `surface` against each profile (as served to that client, unless `adapt` is false). */
export function lintServer(
  server: ServerTools,
  surface: SurfaceName,
  profiles: ClientProfile[],
  options: LintServerOptions = {},
): LintReport {
  const chosen = servable(
    server,
    chooseSurface(surface, server.operations.length, () => server.operations),
  );
  const tools = toolsOn(server, chosen.surface);
  const bytes = listBytes(tools);
  const serverName = options.serverName ?? configServerName(server.packageName);
  const adapts = server.features.includes("clients");
  const adapt = (options.adapt ?? true) && adapts;
  return {
    server: serverName,
    requestedSurface: surface,
    surface: chosen.surface,
    reason: chosen.reason,
    tools: tools.length,
    bytes,
    tokens: estimateTokens(bytes),
    adapted: adapt,
    adapts,
    profiles: profiles.map((profile) => {
      const served = adapt ? servedTo(server, profile, surface, serverName) : { ...chosen, tools, notes: [] };
      const findings = [...lintTools({ serverName, tools: served.tools }, profile, options), ...served.notes];
      return {
        id: profile.id,
        name: profile.name,
        sources: profile.sources,
        surface: served.surface,
        reason: served.reason,
        tools: served.tools.length,
        findings,
      };
    }),
  };
}

/** Whether a report has a finding that loses, shortens or refuses tools (`defer`, `note` and `adapted` are fine). */
export function hasBlockingFindings(report: LintReport): boolean {
  return report.profiles.some((profile) =>
    profile.findings.some(
      (finding) => finding.effect !== "defer" && finding.effect !== "note" && finding.effect !== "adapted",
    ),
  );
}
