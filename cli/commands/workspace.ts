import { writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import {
  buildReport,
  buildWorkspace,
  checkFleet,
  Codes,
  formatWorkspaceDiagnostic,
  loadWorkspace,
  PublishOrderError,
  publishWorkspace,
  renderReportHtml,
  type ServerFailure,
  testWorkspace,
  type Workspace,
  WORKSPACE_FILE,
  WorkspaceError,
} from "../../generator/index.js";
import { defineCommand } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { formatDiagnostic } from "../report.js";

/** The actions of `mcp-gen workspace`. */
const WORKSPACE_ACTIONS = ["build", "check", "test", "report", "publish"] as const;

/** Flags of `mcp-gen workspace`. */
interface WorkspaceArgs {
  action: (typeof WORKSPACE_ACTIONS)[number];
  file?: string;
  concurrency: number;
  force: boolean;
  install: boolean;
  compile: boolean;
  rebuild: boolean;
  /** build: also test, and write the report. */
  test: boolean;
  report: boolean;
  http: boolean;
  json: boolean;
  dryRun: boolean;
  registry?: string;
  tag?: string;
  access?: "public" | "restricted";
}

const say = (line: string): void => void process.stderr.write(`${line}\n`);

/** Prints the diagnostics of servers whose generation was refused. */
function printFailures(failures: ServerFailure[]): number {
  for (const failure of failures) {
    say(
      `${failure.server.name} (servers[${failure.server.index}], ${failure.server.specAsWritten}): ${failure.message}`,
    );
    for (const d of failure.diagnostics)
      if (d.severity !== "info") say(`  ${formatDiagnostic(d).replace(/\n/g, "\n  ")}`);
  }
  const conflict = failures.some((f) =>
    f.diagnostics.some(
      (d) =>
        d.severity === "error" &&
        (d.code === Codes.handEdited || d.code === Codes.outputDirNotEmpty || d.code === Codes.outputPathInvalid),
    ),
  );
  say(`mcp-gen workspace: ${failures.length} server(s) cannot be generated; nothing was written.`);
  return conflict ? EXIT.conflict : EXIT.specError;
}

/** `report`: report.json and report.html next to the workspace file. */
async function writeReport(workspace: Workspace): Promise<void> {
  const report = await buildReport(workspace);
  await writeFile(join(workspace.dir, "report.json"), JSON.stringify(report, null, 2) + "\n");
  await writeFile(join(workspace.dir, "report.html"), renderReportHtml(report));
  const where = relative(process.cwd(), workspace.dir) || ".";
  const { totals } = report;
  say(
    `report: ${join(where, "report.html")} and report.json (${totals.servers} servers, ${totals.tools} tools, tests ${totals.tests.passed} passed / ${totals.tests.failed} failed, compliance 100/100 on ${totals.compliance.perfect} of ${totals.compliance.checked}, ${totals.breaking} with breaking changes)`,
  );
}

/** `test`: every server's tests and compliance; the exit code. */
async function runTests(workspace: Workspace, args: WorkspaceArgs): Promise<number> {
  const summary = await testWorkspace(workspace, { concurrency: args.concurrency, http: args.http, log: say });
  const failing = summary.servers.filter(
    ({ test }) => !test.ok || test.failed > 0 || (test.compliance ?? []).some((c) => c.score < 100),
  );
  for (const { server, test } of failing) {
    const checks = (test.compliance ?? []).flatMap((c) => c.failed.map((f) => `${c.transport} ${f.id}: ${f.message}`));
    say(`FAILING ${server.name}: ${[...test.failures, ...checks].join("; ") || "see its test output"}`);
  }
  say(
    failing.length === 0
      ? `all ${summary.servers.length} servers pass their tests and score 100/100`
      : `${failing.length} of ${summary.servers.length} servers failing`,
  );
  return failing.length === 0 ? EXIT.ok : EXIT.checkFailed;
}

/** `build`: generate, install, compile (then test and report when asked); the exit code. */
async function build(workspace: Workspace, args: WorkspaceArgs): Promise<number> {
  const summary = await buildWorkspace(workspace, {
    concurrency: args.concurrency,
    force: args.force,
    install: args.install ? "auto" : "never",
    compile: args.compile,
    rebuild: args.rebuild,
    log: say,
  });
  if (summary.failures.length > 0) return printFailures(summary.failures);
  if (summary.install && !summary.install.ok) {
    say(summary.install.output.trim().split("\n").slice(-15).join("\n"));
    say("mcp-gen workspace: npm install failed at the workspace root");
    return EXIT.checkFailed;
  }
  for (const failure of summary.compileFailures)
    say(`${failure.server.name}: npm run build failed:\n${failure.output.trim().split("\n").slice(-15).join("\n")}`);
  const changed = summary.servers.filter((s) => s.state.generated !== "unchanged").length;
  say(
    `built ${summary.servers.length} servers (${changed} generated or updated, ${summary.servers.length - changed} unchanged)`,
  );
  let code: number = summary.compileFailures.length > 0 ? EXIT.checkFailed : EXIT.ok;
  if (args.test && code === EXIT.ok) code = await runTests(workspace, args);
  if (args.report) await writeReport(workspace);
  return code;
}

/** `check`: the stale servers (exit 5), as lines on stderr or one JSON object on stdout. */
async function check(workspace: Workspace, args: WorkspaceArgs): Promise<number> {
  const result = await checkFleet(workspace, { concurrency: args.concurrency });
  if (result.failures.length > 0) return printFailures(result.failures);
  const code = result.stale.length > 0 ? EXIT.stale : EXIT.ok;
  if (args.json) {
    process.stdout.write(
      JSON.stringify({
        exitCode: code,
        servers: result.entries.map((e) => ({
          name: e.server.name,
          out: e.server.outRelative,
          upToDate: e.check.upToDate,
          version: e.version,
          missing: e.check.missing,
          changed: e.check.changed.map((c) => c.path),
          stale: e.check.stale,
        })),
      }) + "\n",
    );
    return code;
  }
  for (const entry of result.stale) {
    const c = entry.check;
    say(
      `stale: ${entry.server.name} (${entry.server.outRelative}): ${c.changed.length} changed, ${c.missing.length} missing, ${c.stale.length} no longer generated; a build writes ${entry.version}`,
    );
  }
  say(
    result.stale.length === 0
      ? `all ${result.entries.length} servers are up to date`
      : `${result.stale.length} of ${result.entries.length} servers are stale: run "mcp-gen workspace build"`,
  );
  return code;
}

/** `publish`: every server not yet published, in dependency order; the exit code. */
async function publish(workspace: Workspace, args: WorkspaceArgs): Promise<number> {
  try {
    const entries = await publishWorkspace(workspace, {
      dryRun: args.dryRun,
      log: say,
      ...(args.registry ? { registry: args.registry } : {}),
      ...(args.tag ? { tag: args.tag } : {}),
      ...(args.access ? { access: args.access } : {}),
    });
    const failed = entries.filter((e) => e.outcome === "failed");
    const count = (outcome: string) => entries.filter((e) => e.outcome === outcome).length;
    say(
      `${args.dryRun ? `${count("dry-run")} would be published` : `${count("published")} published`}, ${count("already published")} already published, ${failed.length} failed`,
    );
    return failed.length > 0 ? EXIT.checkFailed : EXIT.ok;
  } catch (error) {
    if (!(error instanceof PublishOrderError)) throw error;
    say(`mcp-gen workspace publish: ${error.message}`);
    return EXIT.specError;
  }
}

/** What each action does with the loaded workspace. */
const ACTIONS: Record<WorkspaceArgs["action"], (workspace: Workspace, args: WorkspaceArgs) => Promise<number>> = {
  build,
  check,
  test: runTests,
  report: async (workspace) => {
    await writeReport(workspace);
    return EXIT.ok;
  },
  publish,
};

/**
 * `mcp-gen workspace <build|check|test|report|publish> [file]` on the workspace file (default
 * `mcp-gen.workspace.yaml` in the current folder); resolves to the exit code. Progress goes to
 * stderr, one line per server and step; `check --json` prints its verdict on stdout.
 */
async function runWorkspace(args: WorkspaceArgs): Promise<number> {
  let workspace: Workspace;
  try {
    workspace = loadWorkspace(args.file ?? WORKSPACE_FILE);
  } catch (error) {
    if (!(error instanceof WorkspaceError)) throw error;
    for (const d of error.diagnostics) say(formatWorkspaceDiagnostic(d));
    say(`mcp-gen workspace: ${error.message}; nothing was done.`);
    return EXIT.specError;
  }
  return ACTIONS[args.action](workspace, args);
}

/** `mcp-gen workspace <action> [file]`: a fleet of servers from one workspace file. */
export const workspaceCommand = defineCommand({
  command: "workspace <action> [file]",
  describe:
    "A fleet of servers from one workspace file: build (generate, install, compile), check (stale servers, exit 5), test (own tests and compliance), report (report.json and report.html), publish",
  builder: (y) =>
    y
      .positional("action", {
        type: "string",
        choices: WORKSPACE_ACTIONS,
        demandOption: true,
        describe: "What to do with every server of the workspace",
      })
      .positional("file", {
        type: "string",
        describe: "The workspace file (default: mcp-gen.workspace.yaml in the current folder)",
      })
      .option("concurrency", { type: "number", default: 2, describe: "Servers generated, built or tested at once" })
      .option("force", {
        type: "boolean",
        default: false,
        describe: "build: overwrite generated files edited by hand",
      })
      .option("install", {
        type: "boolean",
        default: true,
        describe:
          "build: npm install at the workspace root when a server changed or nothing is installed (--no-install: never)",
      })
      .option("compile", {
        type: "boolean",
        default: true,
        describe: "build: run npm run build in servers whose build is out of date (--no-compile: never)",
      })
      .option("rebuild", {
        type: "boolean",
        default: false,
        describe: "build: compile every server, even those up to date",
      })
      .option("test", {
        type: "boolean",
        default: false,
        describe: "build: then test every server (as workspace test)",
      })
      .option("report", {
        type: "boolean",
        default: false,
        describe: "build: then write report.json and report.html",
      })
      .option("http", {
        type: "boolean",
        default: false,
        describe: "test: also check compliance over Streamable HTTP",
      })
      .option("json", { type: "boolean", default: false, describe: "check: print the verdict per server as JSON" })
      .option("dry-run", {
        type: "boolean",
        default: false,
        describe: "publish: npm publish --dry-run (nothing is published)",
      })
      .option("registry", { type: "string", describe: "publish: the registry URL (default: npm's configuration)" })
      .option("tag", { type: "string", describe: "publish: the dist-tag (default latest)" })
      .option("access", {
        type: "string",
        choices: ["public", "restricted"] as const,
        describe: "publish: access of scoped packages",
      })
      .example(
        "$0 workspace build --test --report",
        "Generate, install, build, test and report the fleet in mcp-gen.workspace.yaml",
      )
      .example("$0 workspace check", "CI: exit 5 naming every stale server")
      .example("$0 workspace publish --dry-run", "What would be published"),
  handler: (args) =>
    runWorkspace({
      action: args.action,
      ...(args.file ? { file: args.file } : {}),
      concurrency: args.concurrency,
      force: args.force,
      install: args.install,
      compile: args.compile,
      rebuild: args.rebuild,
      test: args.test,
      report: args.report,
      http: args.http,
      json: args.json,
      dryRun: args.dryRun,
      ...(args.registry ? { registry: args.registry } : {}),
      ...(args.tag ? { tag: args.tag } : {}),
      ...(args.access ? { access: args.access } : {}),
    }),
});
