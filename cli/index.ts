import yargs from "yargs";
import { featureCatalog, listOption, parseAuthOverride, readPackageJson, selectProfiles } from "../generator/index.js";
import { runCheckCommand } from "./check-command.js";
import { runDiff } from "./diff-command.js";
import { EXIT } from "./exit-codes.js";
import { runGenerate, type GenerateArgs } from "./generate-command.js";
import { runLint } from "./lint-command.js";
import { runWorkspace, WORKSPACE_ACTIONS, type WorkspaceArgs } from "./workspace-command.js";
import { specSourceOptions } from "./spec-source-options.js";

/** A command-line mistake (unknown flag, missing argument): help is shown, exit code 2. */
class UsageError extends Error {}

/** Parses argv and runs the command; resolves to the process exit code (see exit-codes.ts). */
export async function run(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const version = String(readPackageJson("package.json").version);
  const parser = yargs(argv)
    .scriptName("mcp-gen")
    .usage(
      "$0 <spec> -o <dir>\n\nGenerate (or update) a typed MCP server project from an OpenAPI document (Swagger 2.0, OpenAPI 3.0/3.1, YAML or JSON).",
    )
    .command(
      "diff <old> <new>",
      "Compare the tools of two versions of a spec: added, removed, renamed, breaking or compatible changes, suggested semver bump",
      (y) =>
        specSourceOptions(y, "each spec's own folder")
          .positional("old", { type: "string", demandOption: true, describe: "The previous OpenAPI document" })
          .positional("new", { type: "string", demandOption: true, describe: "The new OpenAPI document" })
          .option("json", { type: "boolean", default: false, describe: "Print the diff as JSON (for CI)" })
          .option("fail-on-breaking", { type: "boolean", default: false, describe: "Exit 6 when a change is breaking" })
          .option("keep-names", {
            type: "boolean",
            default: true,
            describe: "Keep the old tool names as a regeneration would (--no-keep-names reports operationId renames)",
          })
          .example("$0 diff v1.yaml v2.yaml --json", "Machine-readable diff for CI"),
      async (args) => {
        code = await runDiff({
          old: args.old!,
          new: args.new!,
          json: args.json,
          failOnBreaking: args.failOnBreaking,
          keepNames: args.keepNames,
          allowRemote: args.allowRemote,
          refRoot: args.refRoot,
        });
      },
    )
    .command(
      "lint <target>",
      "Check what each MCP client would drop, shorten or refuse of the tools a server lists (tool count, name rules, schema features, token footprint)",
      (y) =>
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
            coerce: (value: string) => {
              try {
                selectProfiles(value);
              } catch (error) {
                throw new UsageError((error as Error).message);
              }
              return value;
            },
          })
          .option("surface", {
            type: "string",
            choices: ["all", "search", "code", "auto"],
            default: "auto",
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
          .option("json", { type: "boolean", default: false, describe: "Print the report as JSON (for CI)" })
          .example("$0 lint openapi.yaml --surface all", "What each client does with one tool per operation")
          .example("$0 lint ./server --client cursor --json", "One client, machine-readable; exit 7 on findings"),
      async (args) => {
        code = await runLint({
          target: args.target!,
          client: args.client,
          surface: args.surface as "all" | "search" | "code" | "auto",
          json: args.json,
          allowRemote: args.allowRemote,
          strictSchemas: args.strictSchemas,
          adapt: args.adapt,
          ...(args.with !== undefined ? { features: featureList(args.with) } : {}),
          ...(args.refRoot ? { refRoot: args.refRoot } : {}),
          ...(args.serverName ? { serverName: args.serverName } : {}),
        });
      },
    )
    .command(
      "workspace <action> [file]",
      "A fleet of servers from one workspace file: build (generate, install, compile), check (stale servers, exit 5), test (own tests and compliance), report (report.json and report.html), publish",
      (y) =>
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
            choices: ["public", "restricted"],
            describe: "publish: access of scoped packages",
          })
          .example(
            "$0 workspace build --test --report",
            "Generate, install, build, test and report the fleet in mcp-gen.workspace.yaml",
          )
          .example("$0 workspace check", "CI: exit 5 naming every stale server")
          .example("$0 workspace publish --dry-run", "What would be published"),
      async (args) => {
        code = await runWorkspace({
          action: args.action as WorkspaceArgs["action"],
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
          ...(args.access ? { access: args.access as "public" | "restricted" } : {}),
        });
      },
    )
    .command(
      "check [target]",
      "Score the protocol compliance of one server out of 100: lifecycle in both eras, pagination, errors, cancellation, logging, resources, HTTP rules, tools/list hygiene and token footprint",
      (y) =>
        y
          .positional("target", {
            type: "string",
            describe:
              "A generated server folder (built), or the URL of a running server (http://127.0.0.1:3000/mcp); or give the server's command after --",
          })
          .option("http", {
            type: "boolean",
            default: false,
            describe:
              "Serve and check over Streamable HTTP (a folder gets --http --port 0; a command must print its URL)",
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
      async (args) => {
        const command =
          ((args as Record<string, unknown>)["--"] as Array<string | number> | undefined)?.map(String) ?? [];
        code = await runCheckCommand({
          ...(args.target ? { target: args.target } : {}),
          command,
          http: args.http,
          json: args.json,
          minScore: args.minScore,
        });
      },
    )
    .command(
      "$0 <spec>",
      "Generate an MCP server project, or update one generated before",
      (y) =>
        specSourceOptions(y, "the spec's folder; its files are published with the server")
          .positional("spec", {
            type: "string",
            demandOption: true,
            describe: "Path of the OpenAPI document (a URL needs --allow-remote)",
          })
          .option("out", {
            alias: "o",
            type: "string",
            demandOption: true,
            describe: "Output folder of the server project (created, or updated in place)",
          })
          .option("name", {
            type: "string",
            describe:
              "npm package name of the server (default: the previous generation's, else from info.title, e.g. pet-store-mcp)",
          })
          .option("repository", {
            type: "string",
            describe: "Source repository URL, for package.json and server.json (kept for later runs)",
          })
          .option("mcp-name", {
            type: "string",
            describe: "MCP Registry name, e.g. io.github.acme/pets-mcp (default: from --repository or the npm scope)",
          })
          .option("license", {
            type: "string",
            describe: "SPDX license of the package, e.g. MIT (default: the spec's info.license when it is one)",
          })
          .option("force", {
            type: "boolean",
            default: false,
            describe: "Overwrite hand-edited generated files; write into a folder mcp-gen did not create",
          })
          .option("check", {
            type: "boolean",
            default: false,
            describe: "Write nothing; exit 5 when the output folder is stale (for CI)",
          })
          .option("bump", {
            type: "boolean",
            default: true,
            describe: "Apply the suggested semver bump to the package version (--no-bump keeps it)",
          })
          .option("reset-tool-names", {
            type: "boolean",
            default: false,
            describe: "Ignore .mcp-gen/tool-names.json: name every tool from the spec again",
          })
          .option("auth", {
            type: "string",
            describe:
              "Credentials for operations the spec gives no security: bearer | basic | header:<Name> | query:<name>",
            coerce: (value: string | undefined) => {
              if (value === undefined) return undefined;
              const auth = parseAuthOverride(value);
              if (!auth)
                throw new UsageError(`--auth ${value} is not one of bearer, basic, header:<Name>, query:<name>`);
              return auth;
            },
          })
          .option("env-prefix", {
            type: "string",
            describe: "Prefix for credential variables (e.g. PETS_ → PETS_API_KEY)",
            coerce: (value: string | undefined) => {
              if (value !== undefined && !/^[A-Z][A-Z0-9_]*$/.test(value))
                throw new UsageError(`--env-prefix ${value} must be upper case letters, digits and _`);
              return value;
            },
          })
          .option("json", {
            type: "boolean",
            default: false,
            describe: "Print one JSON object (result, diff, diagnostics) on stdout",
          })
          .option("quiet", { alias: "q", type: "boolean", default: false, describe: "Print nothing but errors" })
          .option("output-schema", {
            type: "boolean",
            default: true,
            describe: "Give tools an outputSchema (--no-output-schema omits them)",
          })
          .option("verbose", {
            type: "boolean",
            default: false,
            describe: "Print stage timings, memory and info diagnostics",
          })
          .option("surface", {
            type: "string",
            choices: ["all", "search", "code", "auto"],
            describe:
              "The server's default surface (its --surface / MCP_SURFACE still win): all, search, code or auto (default); remembered",
          })
          .option("with", {
            type: "string",
            array: true,
            describe: `Optional runtime features to include (comma-separated or repeated; "none" for none): ${featureNames().join(", ")}. Remembered; the surface adds what it needs`,
          })
          .option("include-tags", {
            type: "string",
            array: true,
            describe: "Generate only operations with one of these OpenAPI tags (comma-separated or repeated)",
          })
          .option("exclude-tags", {
            type: "string",
            array: true,
            describe: "Generate no operation with one of these tags",
          })
          .option("include-operations", {
            type: "string",
            array: true,
            describe:
              'Generate only operations matching a glob on the tool name or "METHOD /path" (e.g. "repos/*", "GET /repos/*")',
          })
          .option("exclude-operations", {
            type: "string",
            array: true,
            describe: "Generate no operation matching one of these globs",
          })
          .option("read-only", {
            type: "boolean",
            default: false,
            describe: "Generate only GET, HEAD and OPTIONS operations",
          })
          .option("strict-custom", {
            type: "boolean",
            default: false,
            describe:
              "Stop (exit 4, nothing written) when src/custom/ no longer type-checks against the new types (default: a warning, MG205)",
          })
          .example("$0 openapi.yaml -o ./server", "Generate ./server, or update it after the API changed")
          .example("$0 openapi.yaml -o ./server --check", "CI: fail when ./server is not up to date")
          .example("$0 api.json -o out --name @acme/api-mcp", "Scoped package name"),
      async (args) => {
        code = await runGenerate({
          spec: args.spec!,
          out: args.out,
          name: args.name,
          repository: args.repository,
          mcpName: args.mcpName,
          force: args.force,
          verbose: args.verbose,
          allowRemote: args.allowRemote,
          refRoot: args.refRoot,
          check: args.check,
          bump: args.bump,
          resetToolNames: args.resetToolNames,
          json: args.json,
          quiet: args.quiet,
          auth: args.auth,
          envPrefix: args.envPrefix,
          outputSchema: args.outputSchema,
          surface: args.surface as GenerateArgs["surface"],
          ...(args.with !== undefined ? { features: featureList(args.with) } : {}),
          strictCustom: args.strictCustom,
          ...(args.license !== undefined ? { license: args.license } : {}),
          filter: {
            includeTags: listFlag(args.includeTags),
            excludeTags: listFlag(args.excludeTags),
            includeOperations: listFlag(args.includeOperations),
            excludeOperations: listFlag(args.excludeOperations),
            readOnly: args.readOnly,
          },
        });
      },
    )
    .parserConfiguration({ "populate--": true })
    .version(version)
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

/** The runtime's optional features, by name. */
function featureNames(): string[] {
  return Object.keys(featureCatalog().features);
}

/** `--with`'s features: a repeatable, comma-separated list; "none" (or empty) asks for none. */
function featureList(values: Array<string | number>): string[] {
  return listFlag(values).filter((name) => name !== "none");
}

/** A repeatable, comma-separated flag as its items. */
function listFlag(values: Array<string | number> | undefined): string[] {
  return (values ?? []).flatMap((value) => listOption(String(value)));
}
