import { relative } from "node:path";
import yargs from "yargs";
import { GenerationError } from "../generator/diagnostics.js";
import { generate } from "../generator/generate.js";
import { readPackageJson } from "../generator/package-root.js";
import { printDiagnostics } from "./report.js";

/** Exit codes: 0 success, 1 the spec cannot be generated, 2 bad usage, 3 unexpected failure. */
const EXIT = { ok: 0, specError: 1, usage: 2, internal: 3 } as const;

/** A command-line mistake (unknown flag, missing argument): help is shown, exit code 2. */
class UsageError extends Error {}

async function runGenerate(args: { spec: string; out: string; name?: string; force: boolean; verbose: boolean; allowRemote: boolean; outputSchema: boolean }): Promise<number> {
  const started = performance.now();
  try {
    const result = await generate({
      spec: args.spec,
      outDir: args.out,
      packageName: args.name,
      force: args.force,
      allowRemote: args.allowRemote,
      outputSchemas: args.outputSchema,
      onStage: args.verbose ? (stage, ms) => process.stderr.write(`  ${stage.padEnd(7)} ${ms.toFixed(1).padStart(8)} ms\n`) : undefined,
    });
    const { warnings } = printDiagnostics(result.diagnostics, args.verbose);
    const total = performance.now() - started;
    const where = relative(process.cwd(), result.outDir!) || ".";
    process.stdout.write(
      `Generated ${result.plan.packageName}: ${result.plan.tools.length} tool(s), ${result.files.length} files in ${where} (${Math.round(total)} ms${warnings ? `, ${warnings} warning(s)` : ""}).\n` +
        `Next: cd ${where} && npm install && npm run build && node dist/index.js --help\n`,
    );
    if (args.verbose) process.stderr.write(`  peak rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB\n`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof GenerationError) {
      printDiagnostics(error.diagnostics, args.verbose);
      process.stderr.write(`mcp-gen: ${error.message}; nothing was written.\n`);
      return EXIT.specError;
    }
    process.stderr.write(`mcp-gen: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.internal;
  }
}

/** Parses argv and runs the command; resolves to the process exit code. */
export async function run(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const version = String(readPackageJson("package.json").version);
  const parser = yargs(argv)
    .scriptName("mcp-gen")
    .usage("$0 <spec> -o <dir>\n\nGenerate a typed MCP server project from an OpenAPI document (Swagger 2.0, OpenAPI 3.0/3.1, YAML or JSON).")
    .command(
      "$0 <spec>",
      "Generate an MCP server project",
      (y) =>
        y
          .positional("spec", { type: "string", demandOption: true, describe: "Path of the OpenAPI document (a URL needs --allow-remote)" })
          .option("out", { alias: "o", type: "string", demandOption: true, describe: "Output folder of the server project" })
          .option("name", { type: "string", describe: "npm package name of the server (default: from info.title, e.g. pet-store-mcp)" })
          .option("force", { type: "boolean", default: false, describe: "Replace a non-empty output folder" })
          .option("allow-remote", { type: "boolean", default: false, describe: "Allow reading the spec and $refs over HTTP(S)" })
          .option("output-schema", { type: "boolean", default: true, describe: "Give tools an outputSchema (--no-output-schema omits them)" })
          .option("verbose", { type: "boolean", default: false, describe: "Print stage timings, memory and info diagnostics" })
          .example("$0 openapi.yaml -o ./server", "Generate ./server from openapi.yaml")
          .example("$0 api.json -o out --name @acme/api-mcp --force", "Scoped package name, replace out/"),
      async (args) => {
        code = await runGenerate({ spec: args.spec!, out: args.out, name: args.name, force: args.force, verbose: args.verbose, allowRemote: args.allowRemote, outputSchema: args.outputSchema });
      },
    )
    .version(version)
    .alias("h", "help")
    .strict()
    .fail((message, error, y) => {
      if (error) throw error;
      y.showHelp((help) => process.stderr.write(`${help}\n\n`));
      throw new UsageError(message);
    })
    .wrap(Math.min(100, process.stdout.columns ?? 100));
  try {
    await parser.parseAsync();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`mcp-gen: ${error.message}\n`);
    return EXIT.usage;
  }
  return code;
}
