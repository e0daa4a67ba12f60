import { relative } from "node:path";
import { Codes, GenerationError, type Diagnostic } from "../generator/diagnostics.js";
import { formatDiff } from "../generator/diff/format-diff.js";
import { generate, type GenerateResult } from "../generator/generate.js";
import { EXIT } from "./exit-codes.js";
import { createProgress } from "./progress.js";
import { printDiagnostics } from "./report.js";

/** Flags of the generate command. */
import type { AuthOverride } from "../generator/plan/security.js";
import type { OperationFilter } from "../generator/contract.js";

export interface GenerateArgs {
  spec: string;
  out: string;
  name?: string;
  repository?: string;
  mcpName?: string;
  force: boolean;
  verbose: boolean;
  allowRemote: boolean;
  /** `--ref-root`: the folder file $refs may read from. */
  refRoot?: string;
  check: boolean;
  bump: boolean;
  resetToolNames: boolean;
  json: boolean;
  quiet: boolean;
  /** `--auth`: credentials for operations the spec gives no security. */
  auth?: AuthOverride;
  /** `--env-prefix`: prefix of credential variables. */
  envPrefix?: string;
  /** `--no-output-schema` sets this to false. */
  outputSchema?: boolean;
  /** `--surface`: the server's default surface. */
  surface?: "all" | "search" | "code" | "auto";
  /** `--license`: the package's SPDX license. */
  license?: string;
  /** `--include-tags`, `--exclude-tags`, `--include-operations`, `--exclude-operations`, `--read-only`. */
  filter?: OperationFilter;
}

/** The machine-readable result printed with --json. */
function jsonReport(result: GenerateResult | undefined, code: number, diagnostics: Diagnostic[]): string {
  return (
    JSON.stringify({
      exitCode: code,
      ...(result
        ? {
            packageName: result.plan.packageName,
            version: result.plan.version,
            tools: result.plan.tools.map((t) => t.name),
            ...(result.write ? { written: result.write.written, deleted: result.write.deleted, overwritten: result.write.overwritten } : {}),
            ...(result.check ? { check: { upToDate: result.check.upToDate, missing: result.check.missing, changed: result.check.changed.map((c) => c.path), stale: result.check.stale } } : {}),
            ...(result.diff ? { diff: result.diff } : {}),
          }
        : {}),
      diagnostics,
    }) + "\n"
  );
}

/** Human summary of a successful write or check. */
function humanReport(result: GenerateResult, args: GenerateArgs, ms: number, warnings: number): string {
  const where = relative(process.cwd(), result.outDir ?? args.out) || ".";
  const lines: string[] = [];
  if (result.diff) lines.push(formatDiff(result.diff));
  if (result.check) {
    const c = result.check;
    if (c.upToDate) lines.push(`${where} is up to date with ${args.spec}.`);
    else {
      lines.push(`${where} is stale: run "mcp-gen ${args.spec} -o ${args.out}" to update it.`);
      for (const p of c.missing) lines.push(`  missing: ${p}`);
      for (const p of c.stale) lines.push(`  not generated any more: ${p}`);
      for (const { path, diff } of c.changed) lines.push(`  changed: ${path}${args.verbose ? `\n${diff}` : ""}`);
    }
    return lines.join("\n") + "\n";
  }
  const w = result.write!;
  const tally = w.created ? `${w.written.length} files` : `${w.written.length} written, ${w.deleted.length} deleted, ${w.unchanged.length} unchanged`;
  lines.push(
    `Generated ${result.plan.packageName}@${result.plan.version}: ${result.plan.tools.length} tool(s), ${tally} in ${where} (${Math.round(ms)} ms${warnings ? `, ${warnings} warning(s)` : ""}).`,
  );
  if (w.overwritten.length > 0) lines.push(`Overwritten because of --force: ${w.overwritten.join(", ")}`);
  if (w.created) lines.push(`Next: cd ${where} && npm install && npm run build && node dist/index.js --help`);
  return lines.join("\n") + "\n";
}

/** `mcp-gen <spec> -o <dir>`: generate, update or check a server project; resolves to the exit code. */
export async function runGenerate(args: GenerateArgs): Promise<number> {
  const started = performance.now();
  const progress = createProgress({ quiet: args.quiet || args.json, verbose: args.verbose });
  try {
    const result = await generate({
      spec: args.spec,
      outDir: args.out,
      packageName: args.name,
      repository: args.repository,
      mcpName: args.mcpName,
      force: args.force,
      allowRemote: args.allowRemote,
      refRoot: args.refRoot,
      check: args.check,
      bump: args.bump,
      resetToolNames: args.resetToolNames,
      auth: args.auth,
      envPrefix: args.envPrefix,
      outputSchemas: args.outputSchema,
      ...(args.filter ? { filter: args.filter } : {}),
      ...(args.surface ? { defaultSurface: args.surface } : {}),
      ...(args.license !== undefined ? { license: args.license } : {}),
      onStage: (stage, ms) => progress.stage(stage, ms),
    });
    progress.stop();
    const code = result.check && !result.check.upToDate ? EXIT.stale : EXIT.ok;
    if (args.json) {
      process.stdout.write(jsonReport(result, code, result.diagnostics));
      return code;
    }
    const { warnings } = args.quiet ? { warnings: 0 } : printDiagnostics(result.diagnostics, args.verbose);
    if (!args.quiet || code !== EXIT.ok) process.stdout.write(humanReport(result, args, performance.now() - started, warnings));
    // getrusage maximum of the whole process (the validation worker thread included), not the RSS now.
    if (args.verbose) process.stderr.write(`  peak rss ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB\n`);
    return code;
  } catch (error) {
    progress.stop();
    if (error instanceof GenerationError) {
      const conflict = error.diagnostics.some((d) => d.severity === "error" && (d.code === Codes.handEdited || d.code === Codes.outputDirNotEmpty || d.code === Codes.outputPathInvalid));
      const code = conflict ? EXIT.conflict : EXIT.specError;
      if (args.json) process.stdout.write(jsonReport(undefined, code, error.diagnostics));
      else {
        printDiagnostics(error.diagnostics, args.verbose);
        process.stderr.write(`mcp-gen: ${error.message}; nothing was written.\n`);
      }
      return code;
    }
    process.stderr.write(`mcp-gen: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nThis is a bug in mcp-gen: please report it together with the spec and this message.\n`);
    return EXIT.internal;
  }
}
