import {
  hasBlockingFindings,
  type LintReport,
  lintServer,
  NotAServerFolder,
  readServerTools,
  selectProfiles,
  type SurfaceName,
} from "../../generator/index.js";
import { defineCommand, featureList, UsageError, overlayList } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { printDiagnostics, specErrorExit } from "../report.js";
import { specSourceOptions } from "../spec-source-options.js";

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

/** `--client`: a profile name or `all`; an unknown one is a usage error (exit 2). */
function knownClient(value: string): string {
  try {
    selectProfiles(value);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return value;
}

/**
 * `mcp-gen lint <spec | server folder>`: what each client profile would drop, truncate, refuse or
 * defer of the tools the server lists on a surface. Exit 7 when a profile would lose, shorten or
 * refuse tools (a deferral, or a note about an opt-in mode, is not a failure), 0 otherwise.
 */
export const lintCommand = defineCommand({
  command: "lint <target>",
  describe:
    "Check what each MCP client would drop, shorten or refuse of the tools a server lists (tool count, name rules, schema features, token footprint)",
  builder: (y) =>
    specSourceOptions(y, "the spec's own folder")
      .positional("target", {
        type: "string",
        demandOption: true,
        describe: "An OpenAPI document, or a generated server folder",
      })
      .option("client", {
        type: "string",
        default: "all",
        describe: "A client profile (claude-code, claude-desktop, cursor, gemini, openai, vscode) or all",
        coerce: knownClient,
      })
      .option("surface", {
        type: "string",
        choices: ["all", "search", "code", "auto"] as const,
        default: "auto" as SurfaceName,
        describe: "The surface the server serves (as its --surface)",
      })
      .option("server-name", {
        type: "string",
        describe:
          "The server's key in the client's configuration (default: from the package name, as --print-config writes it)",
      })
      .option("strict-schemas", {
        type: "boolean",
        default: false,
        describe: "Also report input schemas an opt-in strict mode would refuse (OpenAI structured outputs)",
      })
      .option("adapt", {
        type: "boolean",
        default: true,
        describe:
          "Lint what the generated server serves each client it recognises (its auto budget, names, schemas); --no-adapt: the tools as listed",
      })
      .option("with", {
        type: "string",
        array: true,
        describe: "For a spec: the runtime features of the server it would generate (as mcp-gen --with)",
      })
      .option("overlay", {
        type: "string",
        array: true,
        describe: "For a spec: Overlay 1.0 document applied first (repeatable, in order, as mcp-gen --overlay)",
      })
      .option("json", { type: "boolean", default: false, describe: "Print the report as JSON (for CI)" })
      .example("$0 lint openapi.yaml --surface all", "What each client does with one tool per operation")
      .example("$0 lint ./server --client cursor --json", "One client, machine-readable; exit 7 on findings"),
  handler: async (args) => {
    const profiles = selectProfiles(args.client);
    try {
      const server = await readServerTools(args.target, {
        allowRemote: args.allowRemote,
        ...(args.refRoot ? { refRoot: args.refRoot } : {}),
        surface: args.surface,
        ...(args.with !== undefined ? { features: featureList(args.with) } : {}),
        overlays: overlayList(args.overlay) ?? [],
      });
      // What the spec's own shaping says (overlay actions that change nothing, ignored x-mcp-* values).
      const shaping = server.diagnostics ?? [];
      if (!args.json) printDiagnostics(shaping, false);
      const report = lintServer(server, args.surface, profiles, {
        ...(args.serverName ? { serverName: args.serverName } : {}),
        strictSchemas: args.strictSchemas,
        adapt: args.adapt,
      });
      const code = hasBlockingFindings(report) ? EXIT.lint : EXIT.ok;
      if (args.json)
        process.stdout.write(
          JSON.stringify({ exitCode: code, ...report, ...(shaping.length > 0 ? { diagnostics: shaping } : {}) }) + "\n",
        );
      else process.stdout.write(formatLintReport(report) + "\n");
      return code;
    } catch (error) {
      if (error instanceof NotAServerFolder) {
        process.stderr.write(`mcp-gen lint: ${error.message}\n`);
        return EXIT.usage;
      }
      return specErrorExit(error, args.json, "lint");
    }
  },
});
