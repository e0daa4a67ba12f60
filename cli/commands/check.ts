import { existsSync, statSync } from "node:fs";
import { type CheckReport, type CheckTarget, runCheck, TargetError } from "../../generator/index.js";
import { defineCommand } from "../command.js";
import { EXIT } from "../exit-codes.js";

/** Flags of `mcp-gen check`. */
interface CheckArgs {
  /** A generated server folder, or the URL of a running HTTP server. */
  target?: string;
  /** The command after `--`, when the server is started by a command of its own. */
  command: string[];
  http: boolean;
  json: boolean;
  /** Exit 8 when the score is below this (default 100). */
  minScore: number;
}

/** The human report: the score, then one line per check (failed ones first), with why. */
export function formatCheckReport(report: CheckReport): string {
  const who = report.server ? `${report.server.name} ${report.server.version}` : "the server";
  const lines = [`${who} over ${report.transport}: ${report.score}/100`];
  const order = (r: CheckReport["checks"][number]) => (!r.ok ? 0 : r.skipped ? 2 : 1);
  for (const result of [...report.checks].sort((a, b) => order(a) - order(b))) {
    const mark = !result.ok ? "FAIL" : result.skipped ? "n/a " : "ok  ";
    lines.push(`  ${mark} ${result.id.padEnd(28)} ${result.message}`);
  }
  if (report.serverOutput && report.serverOutput.length > 0)
    lines.push("The server's last output:", ...report.serverOutput.map((line) => `  | ${line}`));
  return lines.join("\n");
}

/** What to check: a folder, a URL, or a command; undefined when the arguments name none. */
function targetOf(args: CheckArgs): CheckTarget | string {
  if (args.command.length > 0) {
    if (args.target) return `give either a server folder or a command after --, not both`;
    return { kind: "command", command: args.command[0]!, args: args.command.slice(1) };
  }
  if (!args.target) return "name a generated server folder, a URL (http://…/mcp), or a command after --";
  if (/^https?:\/\//i.test(args.target)) return { kind: "url", url: args.target };
  if (!existsSync(args.target) || !statSync(args.target).isDirectory())
    return `${args.target} is not a folder (a generated server folder), a URL, or a command after --`;
  return { kind: "folder", dir: args.target };
}

/**
 * `mcp-gen check <server folder | URL | -- command…>`: the protocol-compliance score of one server,
 * out of 100. Exit 0 when the score reaches `--min-score` (default 100), 8 when it does not or the
 * server cannot be started, 2 for a bad target.
 */
async function runCheckCommand(args: CheckArgs): Promise<number> {
  const target = targetOf(args);
  if (typeof target === "string") {
    process.stderr.write(`mcp-gen check: ${target}\n`);
    return EXIT.usage;
  }
  try {
    const report = await runCheck(target, { http: args.http });
    const code = report.score >= args.minScore ? EXIT.ok : EXIT.checkFailed;
    if (args.json) process.stdout.write(JSON.stringify({ exitCode: code, ...report }) + "\n");
    else process.stdout.write(formatCheckReport(report) + "\n");
    return code;
  } catch (error) {
    if (!(error instanceof TargetError)) throw error;
    if (args.json)
      process.stdout.write(
        JSON.stringify({ exitCode: EXIT.checkFailed, score: 0, checks: [], error: error.message }) + "\n",
      );
    else process.stderr.write(`mcp-gen check: ${error.message}\n`);
    return EXIT.checkFailed;
  }
}

/** `mcp-gen check [target]`: a server's protocol compliance out of 100. */
export const checkCommand = defineCommand({
  command: "check [target]",
  describe:
    "Score the protocol compliance of one server out of 100: lifecycle in both eras, pagination, errors, cancellation, logging, resources, HTTP rules, tools/list hygiene and token footprint",
  builder: (y) =>
    y
      .positional("target", {
        type: "string",
        describe:
          "A generated server folder (built), or the URL of a running server (http://127.0.0.1:3000/mcp); or give the server's command after --",
      })
      .option("http", {
        type: "boolean",
        default: false,
        describe: "Serve and check over Streamable HTTP (a folder gets --http --port 0; a command must print its URL)",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe: 'Print { "score", "checks": [{ "id", "ok", "message" }] } as JSON',
      })
      .option("min-score", { type: "number", default: 100, describe: "Exit 8 when the score is below this" })
      .example("$0 check ./server", "Start the built server over stdio and score it")
      .example(
        "$0 check --http -- node ./server/dist/index.js --http --port 0",
        "Any server started by a command, over HTTP",
      ),
  handler: (args) =>
    runCheckCommand({
      ...(args.target ? { target: args.target } : {}),
      // The words after `--` (yargs' populate-- in cli/index.ts).
      command: ((args as Record<string, unknown>)["--"] as Array<string | number> | undefined)?.map(String) ?? [],
      http: args.http,
      json: args.json,
      minScore: args.minScore,
    }),
});
