import yargs from "yargs";
import { readPackageJson } from "../generator/index.js";
import { type CliCommand, UsageError } from "./command.js";
import { checkCommand } from "./commands/check.js";
import { diffCommand } from "./commands/diff.js";
import { generateCommand } from "./commands/generate.js";
import { lintCommand } from "./commands/lint.js";
import { workspaceCommand } from "./commands/workspace.js";
import { EXIT } from "./exit-codes.js";

/**
 * The commands of `mcp-gen`, in the order `--help` lists them; the default command (generate) last.
 * (Each is typed by its own arguments; yargs' Argv is invariant in them, hence `any` for the list.)
 */
const COMMANDS: readonly CliCommand<any>[] = [
  diffCommand,
  lintCommand,
  workspaceCommand,
  checkCommand,
  generateCommand,
];

const USAGE =
  "$0 <spec> -o <dir>\n\nGenerate (or update) a typed MCP server project from an OpenAPI document (Swagger 2.0, OpenAPI 3.0/3.1, YAML or JSON).";

/** Parses argv and runs the command; resolves to the process exit code (see exit-codes.ts). */
export async function run(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const parser = yargs(argv).scriptName("mcp-gen").usage(USAGE);
  for (const { handler, ...definition } of COMMANDS)
    parser.command({ ...definition, handler: async (args) => void (code = await handler(args)) });
  parser
    .parserConfiguration({ "populate--": true })
    .version(String(readPackageJson("package.json").version))
    .alias("h", "help")
    .strict()
    .fail((message, error, y) => {
      // yargs reports its own validation errors (and those thrown by `coerce`) here too.
      if (error && !(error instanceof UsageError) && error.name !== "YError") throw error;
      y.showHelp((help) => process.stderr.write(`${help}\n\n`));
      throw new UsageError(message || error?.message);
    })
    .wrap(Math.min(100, process.stdout.columns ?? 100));
  try {
    await parser.parseAsync();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`mcp-gen: ${error.message}\nRun "mcp-gen --help" for usage.\n`);
    return EXIT.usage;
  }
  return code;
}
