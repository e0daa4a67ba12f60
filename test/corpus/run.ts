/**
 * The corpus runner: every spec of the chosen sources is generated, compiled under `tsc --strict`,
 * started, listed with the official SDK client and checked (see check-tools.ts). Prints a table
 * and totals; exits 1 when any spec is not clean.
 *
 *   npm run corpus -- [--source dev,oas-examples,github,stripe,kubernetes,graph-beta] [--only text,text]
 *                     [--no-compile] [--jobs 2] [--keep] [--no-output-schema] [--npm-test]
 *
 * `--npm-test` also runs each generated project's own contract test (test/server.test.mjs) with the
 * repository's node_modules and counts its cases per spec.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runSpec, type SpecOutcome } from "./run-spec.js";
import { listSource, type CorpusEntry } from "./sources.js";

/** Parsed command line of the runner. */
export interface CorpusArgs {
  sources: string[];
  only?: string | undefined;
  compile: boolean;
  jobs: number;
  keep: boolean;
  outputSchemas: boolean;
  npmTest: boolean;
}

/** Reads the runner's flags. */
export function parseArgs(argv: string[]): CorpusArgs {
  const value = (flag: string): string | undefined => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  return {
    sources: (value("--source") ?? "dev").split(",").filter(Boolean),
    only: value("--only"),
    compile: !argv.includes("--no-compile"),
    jobs: Math.max(1, Number(value("--jobs") ?? 2)),
    keep: argv.includes("--keep"),
    outputSchemas: !argv.includes("--no-output-schema"),
    npmTest: argv.includes("--npm-test"),
  };
}

/** Runs `entries` with at most `jobs` in flight, preserving order in the result. */
export async function runAll(
  entries: CorpusEntry[],
  args: CorpusArgs,
  root: string,
  onRow?: (row: SpecOutcome, entry: CorpusEntry) => void,
): Promise<SpecOutcome[]> {
  const rows: SpecOutcome[] = new Array(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const index = next++;
      const entry = entries[index]!;
      rows[index] = await runSpec({
        id: `${entry.source}/${entry.id}`,
        spec: entry.spec,
        workDir: join(root, ".tmp", "corpus"),
        root,
        noCompile: !args.compile,
        keep: args.keep,
        npmTest: args.npmTest,
        generateOptions: args.outputSchemas ? {} : { outputSchemas: false },
      });
      onRow?.(rows[index]!, entry);
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.jobs, entries.length) }, worker));
  return rows;
}

/** One line of the table. */
export function formatRow(row: SpecOutcome): string {
  const status = row.problems.length === 0 ? "clean" : "FAIL ";
  const kb = row.listBytes ? `${(row.listBytes / 1024).toFixed(0)}K` : "-";
  const cases = row.npmTest ? ` test ${row.npmTest.passed}/${row.npmTest.passed + row.npmTest.failed}` : "";
  return `${status} ${row.id.padEnd(64).slice(0, 64)} ${String(row.tools).padStart(5)}/${String(row.operations).padEnd(5)} gen ${ms(row.generateMs)} tsc ${ms(row.compileMs)} list ${ms(row.listMs)} ${kb.padStart(6)} warn ${row.warnings}${cases}`;
}

function ms(value: number): string {
  return value ? `${(value / 1000).toFixed(1)}s`.padStart(6) : "     -";
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const corpusDir = join(root, "..", "shared", "corpus");
  let exit = 0;
  for (const source of args.sources) {
    const entries = listSource(root, source, corpusDir).filter(
      (e) => !args.only || args.only.split(",").some((part) => e.id.includes(part)),
    );
    console.log(`\n== ${source}: ${entries.length} spec(s)`);
    const rows = await runAll(entries, args, root, (row) => {
      console.log(formatRow(row));
      for (const problem of row.problems.slice(0, 8)) console.log(`      - ${problem}`);
      if (row.problems.length > 8) console.log(`      - … ${row.problems.length - 8} more`);
    });
    const clean = rows.filter((r) => r.problems.length === 0).length;
    const ops = rows.reduce((n, r) => n + r.operations, 0);
    const tools = rows.reduce((n, r) => n + r.tools, 0);
    console.log(`== ${source}: ${clean}/${rows.length} clean, ${tools}/${ops} operations as tools`);
    if (args.npmTest) {
      const tested = rows.filter((r) => r.npmTest);
      const passing = tested.filter((r) => r.npmTest!.code === 0 && r.npmTest!.failed === 0).length;
      const passed = tested.reduce((n, r) => n + r.npmTest!.passed, 0);
      const failed = tested.reduce((n, r) => n + r.npmTest!.failed, 0);
      console.log(
        `== ${source}: npm test passes in ${passing}/${tested.length} projects; cases ${passed} passed, ${failed} failed`,
      );
    }
    if (clean !== rows.length) exit = 1;
  }
  return exit;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(3);
    },
  );
}
