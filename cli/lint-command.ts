import {
  hasBlockingFindings,
  type LintReport,
  lintServer,
  NotAServerFolder,
  readServerTools,
  selectProfiles,
  type SurfaceName,
} from "../generator/index.js";
import { EXIT } from "./exit-codes.js";
import { specErrorExit } from "./report.js";

/** Flags of `mcp-gen lint`. */
export interface LintArgs {
  target: string;
  client: string;
  surface: SurfaceName;
  json: boolean;
  allowRemote: boolean;
  refRoot?: string;
  /** The server's key in the client's configuration, when not the default. */
  serverName?: string;
  strictSchemas: boolean;
  /** Lint what the server serves each recognised client (default), not the tools as listed. */
  adapt: boolean;
  /** For a spec: the runtime features of the server it would generate (`--with`). */
  features?: string[];
}

/** How many tool names a finding shows before "+N more". */
const SHOWN_NAMES = 8;

/** The human report: one block per profile, each finding with its effect and the tools concerned. */
export function formatLintReport(report: LintReport): string {
  const lines = [
    `${report.server}: surface ${report.requestedSurface}${report.requestedSurface === report.surface ? "" : ` → ${report.surface}`} (${report.reason})`,
    `  ${report.tools.toLocaleString("en-US")} tools listed, ${report.bytes.toLocaleString("en-US")} bytes, ~${report.tokens.toLocaleString("en-US")} tokens`,
  ];
  for (const profile of report.profiles) {
    const blocking = profile.findings.filter((finding) => finding.effect !== "adapted");
    // What the server changes for this client at run time, in one clause (--json lists the tools).
    const adapted = profile.findings
      .filter((finding) => finding.effect === "adapted")
      .map(
        (finding) =>
          `${finding.tools.length.toLocaleString("en-US")} ${finding.rule === "served-names" ? "tool name" : "input schema"}${finding.tools.length === 1 ? "" : "s"} rewritten`,
      );
    const served = profile.surface === report.surface ? "" : `; served surface ${profile.surface} (${profile.reason})`;
    const adaptation = adapted.length > 0 ? `; the server serves it ${adapted.join(", ")} (--json lists them)` : "";
    lines.push(
      `${profile.id} (${profile.name}): ${blocking.length === 0 ? "ok" : `${blocking.length} finding${blocking.length === 1 ? "" : "s"}`}${served}${adaptation}`,
    );
    for (const finding of blocking) {
      lines.push(`  ${finding.effect.padEnd(8)} ${finding.rule}: ${finding.message}`);
      if (finding.tools.length > 0) {
        const shown = finding.tools.slice(0, SHOWN_NAMES).join(", ");
        const more =
          finding.tools.length > SHOWN_NAMES ? ` (+${finding.tools.length - SHOWN_NAMES} more; --json lists all)` : "";
        lines.push(`           ${shown}${more}`);
      }
    }
  }
  if (!report.adapts && hasBlockingFindings(report))
    lines.push(
      "hint: this server serves every client the tools as listed; generated with --with clients it adapts names, schemas and its surface to each client it recognises",
    );
  return lines.join("\n");
}

/**
 * `mcp-gen lint <spec | server folder>`: what each client profile would drop, truncate, refuse or
 * defer of the tools the server lists on a surface. Exit 7 when a profile would lose, shorten or
 * refuse tools (a deferral, or a note about an opt-in mode, is not a failure), 0 otherwise.
 */
export async function runLint(args: LintArgs): Promise<number> {
  const profiles = selectProfiles(args.client);
  try {
    const server = await readServerTools(args.target, {
      allowRemote: args.allowRemote,
      refRoot: args.refRoot,
      surface: args.surface,
      ...(args.features ? { features: args.features } : {}),
    });
    const report = lintServer(server, args.surface, profiles, {
      serverName: args.serverName,
      strictSchemas: args.strictSchemas,
      adapt: args.adapt,
    });
    const code = hasBlockingFindings(report) ? EXIT.lint : EXIT.ok;
    if (args.json) process.stdout.write(JSON.stringify({ exitCode: code, ...report }) + "\n");
    else process.stdout.write(formatLintReport(report) + "\n");
    return code;
  } catch (error) {
    if (error instanceof NotAServerFolder) {
      process.stderr.write(`mcp-gen lint: ${error.message}\n`);
      return EXIT.usage;
    }
    return specErrorExit(error, args.json, "lint");
  }
}
