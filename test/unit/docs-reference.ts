/**
 * The reference pages cannot drift from the code: every command and option of `mcp-gen --help` (and
 * of each command's `--help`, from the yargs definitions in cli/) is in docs/reference/cli.md, every
 * option and environment variable of the generated server's `--help` (runtime/src/cli/main.ts and
 * the features' usage) is in docs/reference/server.md, and every MG code the generator has
 * (generator/shared/diagnostics.ts `Codes`, and the workspace file's `WorkspaceCodes`) is a row of docs/reference/diagnostics.md.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { WorkspaceCodes } from "../../generator/commands/workspace/workspace-file.js";
import { Codes } from "../../generator/shared/diagnostics.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const read = (...path: string[]) => readFileSync(join(root, ...path), "utf8");

/** The options yargs lists in a `--help` text: the first `--name` of each line of its Options part. */
export function helpOptions(help: string): string[] {
  const options = help.split(/^Options:$/m)[1] ?? "";
  return [...new Set([...options.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]!))];
}

/** The flags a doc does not name: `--x` counts as named by `--x` or by `--no-x` (a yargs boolean with default true). */
export function undocumented(flags: readonly string[], doc: string): string[] {
  const named = (flag: string) => new RegExp(`(^|[^\\w-])(${flag}|--no-${flag.slice(2)})(?![\\w-])`).test(doc);
  return flags.filter((flag) => !named(flag));
}

const cliDoc = read("docs", "reference", "cli.md");
const mcpGen = (...args: string[]) =>
  execFileSync(process.execPath, [join(root, "bin", "mcp-gen.js"), ...args], { encoding: "utf8" });

test("the option reader finds yargs' options, and a flag missing from a doc is reported", () => {
  const help = "mcp-gen x\n\nOptions:\n      --alpha   one\n  -o, --out   two\n      --bump  three  [default: true]\n";
  assert.equal(helpOptions(help), ["--alpha", "--out", "--bump"]);
  assert.equal(undocumented(["--alpha", "--out", "--bump"], "`--alpha`, `-o, --out`, `--no-bump`"), []);
  assert.equal(undocumented(["--alpha", "--out", "--beta"], "`--alpha-two`, `--out`"), ["--alpha", "--beta"]);
});

test("every command and option of `mcp-gen --help` and of each command's --help is in docs/reference/cli.md", () => {
  const main = mcpGen("--help");
  const commands = [...main.matchAll(/^\s+mcp-gen (\w+) [<[]/gm)].map((m) => m[1]!);
  assert.equal(commands.sort(), ["check", "diff", "lint", "workspace"]);
  const missing: string[] = [];
  for (const command of [undefined, ...commands]) {
    const help = command ? mcpGen(command, "--help") : main;
    const options = helpOptions(help);
    assert.ok(options.length >= 3, `mcp-gen ${command ?? ""} --help lists options`);
    missing.push(...undocumented(options, cliDoc).map((flag) => `mcp-gen ${command ?? "<spec>"} ${flag}`));
    if (command) assert.match(cliDoc, `mcp-gen ${command}`, `the command ${command} is documented`);
  }
  for (const action of ["build", "check", "test", "report", "publish"])
    assert.match(cliDoc, new RegExp(`workspace[^\\n]*\\b${action}\\b`), `workspace ${action} is documented`);
  assert.equal(missing, []);
});

/** The generated server's flags: those `parseArgs` accepts (runtime/src/cli/main.ts) and those its usage texts name. */
function serverFlags(): { flags: string[]; variables: string[] } {
  const main = read("runtime", "src", "cli", "main.ts");
  const parse = main.slice(main.indexOf("function parseFlags"));
  const block = parse.slice(parse.indexOf("options: {"), parse.indexOf("\n  });"));
  const parsed = [...block.matchAll(/^\s+"?([a-z][a-z-]*)"?: \{ type:/gm)].map((m) => `--${m[1]}`);
  const featureDir = join(root, "runtime", "src", "features");
  // The core's help is the template of `usage`; a feature's is its `usage` string.
  const usages = [
    main.slice(main.indexOf("export function usage"), main.indexOf("/** What a generated entry point passes")),
    ...readdirSync(featureDir).map(
      (name) => /usage: `([^`]*)`/.exec(read("runtime", "src", "features", name, "index.ts"))?.[1] ?? "",
    ),
  ];
  const usageText = usages.join("\n");
  const named = [...usageText.matchAll(/^\s+(--[a-z][a-z-]*)/gm)].map((m) => m[1]!);
  const variables = [...usageText.matchAll(/\b((?:MCP|API)_[A-Z0-9_]+)\b/g)].map((m) => m[1]!);
  return { flags: [...new Set([...parsed, ...named])].sort(), variables: [...new Set(variables)].sort() };
}

test("every option and environment variable of the generated server's --help is in docs/reference/server.md", () => {
  const doc = read("docs", "reference", "server.md");
  const { flags, variables } = serverFlags();
  assert.ok(flags.includes("--http") && flags.includes("--oauth-issuer") && flags.includes("--code-timeout"));
  assert.ok(flags.length > 30, `only ${flags.length} flags read`);
  assert.ok(variables.includes("MCP_STATE_SECRET") && variables.includes("API_BASE_URL"));
  assert.equal(undocumented(flags, doc), []);
  assert.equal(
    variables.filter((name) => !doc.includes(name)),
    [],
  );
});

test("every MG code of the generator is a row of docs/reference/diagnostics.md", () => {
  const doc = read("docs", "reference", "diagnostics.md");
  const codes = [...Object.values(Codes), ...Object.values(WorkspaceCodes)] as string[];
  assert.ok(codes.length > 30 && codes.includes("MG001"), `${codes.length} codes read`);
  const rows = new Set([...doc.matchAll(/^\| (MG\d{3}) \|/gm)].map((m) => m[1]!));
  assert.equal(
    codes.filter((code) => !rows.has(code)),
    [],
  );
  assert.equal(
    [...rows].filter((code) => !codes.includes(code)),
    [],
    "no row for a code the generator does not have",
  );
});

test.run();
