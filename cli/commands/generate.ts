import { spawnSync } from "node:child_process";
import { relative } from "node:path";
import type { Argv, Options } from "yargs";
import {
  Codes,
  featureCatalog,
  generate,
  type GenerateOptions,
  type GenerateResult,
  GenerationError,
  MAX_RESULT_BUDGET_TOKENS,
  MIN_RESULT_BUDGET_TOKENS,
  type OperationFilter,
  parseAuthOverride,
  REMEMBERED_OPTIONS,
  TARGET_NAMES,
} from "../../generator/index.js";
import { defineCommand, featureList, listFlag, overlayList, UsageError } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { humanReport, jsonReport, type ReportFlags } from "../generate-report.js";
import { createProgress } from "../progress.js";
import { printDiagnostics } from "../report.js";
import { specSourceFlags } from "../spec-source-options.js";

/** Where a flag's value goes in `generate`'s options: an option, or one field of its `filter`. */
export type GenerateTarget = keyof GenerateOptions | `filter.${keyof OperationFilter}`;

/** One option of the generate command. */
export interface GenerateFlag {
  /** The flag, without `--`. */
  flag: string;
  /** Its yargs definition (type, default, alias, describe, coerce). */
  option: Options;
  /** The `generate` option its value sets; absent for the CLI's own flags (what to print). */
  into?: GenerateTarget;
  /** The value as `generate` takes it (default: as parsed); undefined leaves the option unset. */
  convert?: (value: never) => unknown;
}

/** A list flag (`--include-tags a,b --include-tags c`): repeatable and comma-separated. */
const LIST = { type: "string", array: true } as const;

/** The spec-source flags as the generate command describes them. */
const SOURCE = specSourceFlags("the spec's folder; its files are published with the server");

/**
 * The generate command's options, in the order `--help` lists them, each with the `generate`
 * option it sets. A new flag is one row here (and its line in docs/reference/cli.md, which
 * test/unit/docs-reference.ts requires); a row whose option the project remembers
 * (generator `REMEMBERED_OPTIONS`) says so in its help by itself.
 */
export const GENERATE_FLAGS: readonly GenerateFlag[] = [
  { flag: "allow-remote", option: SOURCE["allow-remote"], into: "allowRemote" },
  { flag: "ref-root", option: SOURCE["ref-root"], into: "refRoot" },
  {
    flag: "out",
    option: {
      alias: "o",
      type: "string",
      demandOption: true,
      describe: "Output folder of the server project (created, or updated in place)",
    },
    into: "outDir",
  },
  {
    flag: "name",
    option: {
      type: "string",
      describe: "npm package name of the server (default: from info.title, e.g. pet-store-mcp)",
    },
    into: "packageName",
  },
  {
    flag: "repository",
    option: { type: "string", describe: "Source repository URL, for package.json and server.json" },
    into: "repository",
  },
  {
    flag: "mcp-name",
    option: {
      type: "string",
      describe: "MCP Registry name, e.g. io.github.acme/pets-mcp (default: from --repository or the npm scope)",
    },
    into: "mcpName",
  },
  {
    flag: "license",
    option: {
      type: "string",
      describe: "SPDX license of the package, e.g. MIT (default: the spec's info.license when it is one)",
    },
    into: "license",
  },
  {
    flag: "force",
    option: {
      type: "boolean",
      default: false,
      describe: "Overwrite hand-edited generated files; write into a folder mcp-gen did not create",
    },
    into: "force",
  },
  {
    flag: "check",
    option: {
      type: "boolean",
      default: false,
      describe: "Write nothing; exit 5 when the output folder is stale (for CI)",
    },
    into: "check",
  },
  {
    flag: "bump",
    option: {
      type: "boolean",
      default: true,
      describe: "Apply the suggested semver bump to the package version (--no-bump keeps it)",
    },
    into: "bump",
  },
  {
    flag: "reset-tool-names",
    option: {
      type: "boolean",
      default: false,
      describe: "Ignore .mcp-gen/tool-names.json: name every tool from the spec again",
    },
    into: "resetToolNames",
  },
  {
    flag: "auth",
    option: {
      type: "string",
      describe: "Credentials for operations the spec gives no security: bearer | basic | header:<Name> | query:<name>",
      coerce: authOverride,
    },
    into: "auth",
  },
  {
    flag: "env-prefix",
    option: {
      type: "string",
      describe: "Prefix for credential variables (e.g. PETS_ → PETS_API_KEY)",
      coerce: envPrefix,
    },
    into: "envPrefix",
  },
  {
    flag: "json",
    option: {
      type: "boolean",
      default: false,
      describe: "Print one JSON object (result, diff, diagnostics) on stdout",
    },
  },
  { flag: "quiet", option: { alias: "q", type: "boolean", default: false, describe: "Print nothing but errors" } },
  {
    flag: "output-schema",
    option: {
      type: "boolean",
      default: true,
      describe: "Give tools an outputSchema (--no-output-schema omits them)",
    },
    into: "outputSchemas",
  },
  {
    flag: "verbose",
    option: { type: "boolean", default: false, describe: "Print stage timings, memory and info diagnostics" },
  },
  {
    flag: "surface",
    option: {
      type: "string",
      choices: ["all", "search", "code", "auto"],
      describe:
        "The server's default surface (its --surface / MCP_SURFACE still win): all, search, code or auto (default)",
    },
    into: "defaultSurface",
  },
  {
    flag: "result-budget",
    option: {
      type: "number",
      describe: `The server's default result budget in tokens, ${MIN_RESULT_BUDGET_TOKENS} to ${MAX_RESULT_BUDGET_TOKENS} (its --result-budget / MCP_RESULT_BUDGET still win; default 10000)`,
      coerce: resultBudget,
    },
    into: "resultBudget",
  },
  {
    flag: "with",
    option: {
      ...LIST,
      // Read when the help is built, not when the CLI loads.
      get describe() {
        return `Optional runtime features to include (comma-separated or repeated; "none" for none): ${Object.keys(featureCatalog().features).join(", ")}. The surface adds what it needs`;
      },
    },
    into: "features",
    convert: (values?: string[]) => (values === undefined ? undefined : featureList(values)),
  },
  {
    flag: "target",
    option: {
      ...LIST,
      describe: `Where the server runs (comma-separated or repeated): ${TARGET_NAMES.join(", ")}; each adds its entry file, deploy files and dev:<target> script (default node)`,
    },
    into: "targets",
    convert: (values?: string[]) => (values === undefined ? undefined : listFlag(values)),
  },
  {
    flag: "overlay",
    option: {
      type: "string",
      array: true,
      describe:
        'OpenAPI Overlay 1.0 document applied to the spec before generation (repeatable, applied in order; "none" for none); remembered for later runs',
    },
    into: "overlays",
    convert: overlayList,
  },
  {
    flag: "include-tags",
    option: {
      ...LIST,
      describe: "Generate only operations with one of these OpenAPI tags (comma-separated or repeated)",
    },
    into: "filter.includeTags",
    convert: listFlag,
  },
  {
    flag: "exclude-tags",
    option: { ...LIST, describe: "Generate no operation with one of these tags" },
    into: "filter.excludeTags",
    convert: listFlag,
  },
  {
    flag: "include-operations",
    option: {
      ...LIST,
      describe:
        'Generate only operations matching a glob on the tool name or "METHOD /path" (e.g. "repos/*", "GET /repos/*")',
    },
    into: "filter.includeOperations",
    convert: listFlag,
  },
  {
    flag: "exclude-operations",
    option: { ...LIST, describe: "Generate no operation matching one of these globs" },
    into: "filter.excludeOperations",
    convert: listFlag,
  },
  {
    flag: "read-only",
    option: { type: "boolean", default: false, describe: "Generate only GET, HEAD and OPTIONS operations" },
    into: "filter.readOnly",
  },
  {
    flag: "install",
    option: {
      type: "boolean",
      default: false,
      describe: "Run npm install in the output folder after a first generation or when its dependencies changed",
    },
  },
  {
    flag: "allow-empty",
    option: {
      type: "boolean",
      default: false,
      describe: "Generate a server without tools when the spec has no operations (default: an error, MG102)",
    },
    into: "allowEmpty",
  },
  {
    flag: "strict-custom",
    option: {
      type: "boolean",
      default: false,
      describe:
        "Stop (exit 4, nothing written) when src/custom/ no longer type-checks against the new types (default: a warning, MG205)",
    },
    into: "strictCustom",
  },
];

/** `--auth`'s value as an override; a value of no known kind is a usage error. */
function authOverride(value: string | undefined) {
  if (value === undefined) return undefined;
  const auth = parseAuthOverride(value);
  if (!auth) throw new UsageError(`--auth ${value} is not one of bearer, basic, header:<Name>, query:<name>`);
  return auth;
}

/** `--env-prefix`'s value, checked: upper case letters, digits and _. */
function envPrefix(value: string | undefined) {
  if (value !== undefined && !/^[A-Z][A-Z0-9_]*$/.test(value))
    throw new UsageError(`--env-prefix ${value} must be upper case letters, digits and _`);
  return value;
}

function resultBudget(value: number | undefined) {
  if (
    value !== undefined &&
    !(Number.isInteger(value) && value >= MIN_RESULT_BUDGET_TOKENS && value <= MAX_RESULT_BUDGET_TOKENS)
  )
    throw new UsageError(
      `--result-budget ${value} must be a whole number of tokens from ${MIN_RESULT_BUDGET_TOKENS} to ${MAX_RESULT_BUDGET_TOKENS}`,
    );
  return value;
}

/** Whether the project remembers the option a flag sets (its help says so). */
export function remembered(row: GenerateFlag): boolean {
  return row.into !== undefined && row.into in REMEMBERED_OPTIONS;
}

/** Declares every row of `flags` on `y`, a remembered one's help saying so. */
function declareFlags(y: Argv, flags: readonly GenerateFlag[]): Argv {
  for (const row of flags) {
    const describe = remembered(row) ? `${row.option.describe}; remembered for later runs` : row.option.describe;
    y = y.option(row.flag, { ...row.option, describe });
  }
  return y;
}

/** `generate`'s options from the parsed arguments, row by row (`args` has each flag under its own name). */
export function generateOptions(args: Record<string, unknown>, flags: readonly GenerateFlag[]): GenerateOptions {
  const options: Record<string, unknown> = { spec: args.spec };
  for (const { flag, into, convert } of flags) {
    if (into === undefined) continue;
    const value = convert ? convert(args[flag] as never) : args[flag];
    if (value === undefined) continue;
    const [key, field] = into.split(".") as [string, string | undefined];
    if (field === undefined) options[key] = value;
    else options[key] = { ...(options[key] as object | undefined), [field]: value };
  }
  return options as unknown as GenerateOptions;
}

/** Runs `generate` with progress on stderr, prints the result; resolves to the exit code. */
async function runGenerate(options: GenerateOptions, print: ReportFlags): Promise<number> {
  const started = performance.now();
  const progress = createProgress({ quiet: print.quiet || print.json, verbose: print.verbose });
  try {
    const result = await generate({ ...options, onStage: (stage, ms) => progress.stage(stage, ms) });
    progress.stop();
    const code = result.check && !result.check.upToDate ? EXIT.stale : EXIT.ok;
    if (print.json) {
      process.stdout.write(jsonReport(result, code, result.diagnostics));
      return code;
    }
    const { warnings } = print.quiet ? { warnings: 0 } : printDiagnostics(result.diagnostics, print.verbose);
    if (!print.quiet || code !== EXIT.ok)
      process.stdout.write(humanReport(result, print, performance.now() - started, warnings));
    if (print.install && installDue(result)) return npmInstall(result.outDir!, print.quiet);
    // getrusage maximum of the whole process (the emit worker thread included), not the RSS now.
    if (print.verbose) process.stderr.write(`  peak rss ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB\n`);
    return code;
  } catch (error) {
    progress.stop();
    return failureExit(error, print);
  }
}

/** Whether `npm install` is due in the written folder: it is new, or its dependencies changed. */
function installDue(result: GenerateResult): boolean {
  return result.write !== undefined && (result.write.created || (result.dependencyChanges ?? []).length > 0);
}

/** `--install`: npm install in `dir`, its output on stderr; exit 3 when it fails (the project is written). */
function npmInstall(dir: string, quiet: boolean): number {
  if (!quiet) process.stderr.write(`Running npm install in ${relative(process.cwd(), dir) || "."} …\n`);
  const npm = process.env.npm_execpath;
  const [command, args] = npm && npm.endsWith(".js") ? [process.execPath, [npm]] : ["npm", []];
  const run = spawnSync(command, [...args, "install", "--no-audit", "--no-fund"], {
    cwd: dir,
    // npm's own output to stderr: stdout is the report's (one JSON object with --json).
    stdio: ["ignore", 2, 2],
    shell: process.platform === "win32",
  });
  if (run.status === 0) return EXIT.ok;
  process.stderr.write(`mcp-gen: npm install failed in ${dir} (${run.error?.message ?? `exit ${run.status}`}).\n`);
  return EXIT.internal;
}

/** The generate errors that mean "the output folder cannot be updated safely" (exit 4). */
const CONFLICTS: readonly string[] = [
  Codes.handEdited,
  Codes.outputDirNotEmpty,
  Codes.outputPathInvalid,
  Codes.customCodeBroken,
];

/** Reports a failed generation; the exit code (1 for the spec, 4 for the folder, 3 for a bug). */
function failureExit(error: unknown, print: ReportFlags): number {
  if (error instanceof GenerationError) {
    const conflict = error.diagnostics.some((d) => d.severity === "error" && CONFLICTS.includes(d.code));
    const code = conflict ? EXIT.conflict : EXIT.specError;
    if (print.json) process.stdout.write(jsonReport(undefined, code, error.diagnostics));
    else {
      printDiagnostics(error.diagnostics, print.verbose);
      process.stderr.write(`mcp-gen: ${error.message}; nothing was written.\n`);
    }
    return code;
  }
  process.stderr.write(
    `mcp-gen: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nThis is a bug in mcp-gen: please report it together with the spec and this message.\n`,
  );
  return EXIT.internal;
}

/** `mcp-gen <spec> -o <dir>`: generate, update or check a server project. */
export const generateCommand = defineCommand({
  command: "$0 <spec>",
  describe: "Generate an MCP server project, or update one generated before",
  builder: (y) =>
    declareFlags(y, GENERATE_FLAGS)
      .positional("spec", {
        type: "string",
        demandOption: true,
        describe: "Path of the OpenAPI document (a URL needs --allow-remote)",
      })
      .example("$0 openapi.yaml -o ./server", "Generate ./server, or update it after the API changed")
      .example("$0 openapi.yaml -o ./server --check", "CI: fail when ./server is not up to date")
      .example("$0 api.json -o out --name @acme/api-mcp", "Scoped package name"),
  handler: (args) => {
    const parsed = args as Record<string, unknown>;
    return runGenerate(generateOptions(parsed, GENERATE_FLAGS), parsed as unknown as ReportFlags);
  },
});
