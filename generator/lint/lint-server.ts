/**
 * What a server lists, read from a spec (planned in memory, nothing written) or from a generated
 * server folder (`data/tools.json`, `package.json`), on a given surface, linted against client
 * profiles. The data side of `mcp-gen lint`; the command prints it.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { chooseSurface, configServerName, estimateTokens, listBytes, type ListedTool, parseTools, type ServedSurface, surfaceMetaTools, type SurfaceName, type ToolDefinition } from "../contract.js";
import { toolDefinition } from "../emit/tool-file.js";
import { generate } from "../generate.js";
import { lintTools, type LintFinding, type LintOptions } from "./lint-tools.js";
import type { ClientProfile } from "./profiles.js";

/** The operation tools of a server and the names clients know it by. */
export interface ServerTools {
  packageName: string;
  title: string;
  operations: ListedTool[];
}

/** Options of {@link readServerTools}. */
export interface ReadOptions {
  allowRemote?: boolean;
  refRoot?: string | undefined;
}

/** A tool as `tools/list` shows it (the runtime's binding and extra data left out). */
function listed(tool: ToolDefinition): ListedTool {
  const { http: _http, documentation: _documentation, tags: _tags, ...shown } = tool;
  return shown;
}

/** The target of `mcp-gen lint` is a folder, but not one mcp-gen generated. */
export class NotAServerFolder extends Error {}

/** Reads the operation tools of a generated server folder, or plans them from a spec. */
export async function readServerTools(target: string, options: ReadOptions = {}): Promise<ServerTools> {
  if (existsSync(target) && statSync(target).isDirectory()) {
    const toolsFile = join(target, "data", "tools.json");
    if (!existsSync(toolsFile)) throw new NotAServerFolder(`${target} is not a generated server folder (no data/tools.json): pass the server's folder or its OpenAPI document`);
    const pkg = JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as { name?: string };
    const definitionsFile = join(target, "data", "definitions.json");
    const tools = parseTools(readFileSync(toolsFile, "utf8"), existsSync(definitionsFile) ? readFileSync(definitionsFile, "utf8") : undefined);
    const packageName = pkg.name ?? "server";
    return { packageName, title: packageName, operations: tools.map(listed) };
  }
  const { plan } = await generate({ spec: target, allowRemote: options.allowRemote ?? false, refRoot: options.refRoot, planOnly: true });
  return { packageName: plan.packageName, title: plan.title, operations: plan.tools.map((tool) => listed(toolDefinition(tool))) };
}

/** The findings of one profile. */
export interface ProfileReport {
  id: string;
  name: string;
  sources: string[];
  findings: LintFinding[];
}

/** What `mcp-gen lint` reports (its `--json` output). */
export interface LintReport {
  server: string;
  requestedSurface: SurfaceName;
  surface: ServedSurface;
  reason: string;
  tools: number;
  bytes: number;
  tokens: number;
  profiles: ProfileReport[];
}

/** Options of {@link lintServer}. */
export interface LintServerOptions extends LintOptions {
  /** The key the server has in the client's configuration (default: from the package name, as --print-config writes it). */
  serverName?: string | undefined;
}

/** Lints what the server lists on `surface` against each profile. */
export function lintServer(server: ServerTools, surface: SurfaceName, profiles: ClientProfile[], options: LintServerOptions = {}): LintReport {
  const chosen = chooseSurface(surface, server.operations.length, () => server.operations);
  const tools = chosen.surface === "all" ? server.operations : surfaceMetaTools(chosen.surface, server.title, server.operations.length);
  const bytes = listBytes(tools);
  const serverName = options.serverName ?? configServerName(server.packageName);
  return {
    server: serverName,
    requestedSurface: surface,
    surface: chosen.surface,
    reason: chosen.reason,
    tools: tools.length,
    bytes,
    tokens: estimateTokens(bytes),
    profiles: profiles.map((profile) => ({ id: profile.id, name: profile.name, sources: profile.sources, findings: lintTools({ serverName, tools }, profile, options) })),
  };
}

/** Whether a report has a finding that loses, shortens or refuses tools (`defer` and `note` are fine). */
export function hasBlockingFindings(report: LintReport): boolean {
  return report.profiles.some((profile) => profile.findings.some((finding) => finding.effect !== "defer" && finding.effect !== "note"));
}
