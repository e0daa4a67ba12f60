/**
 * The fidelity runner: for each spec of the chosen corpus sources, every sampled tool call is
 * checked by a Prism mock of the same spec (see run-spec.ts). Prints a table per spec and totals,
 * writes a JSON report, and exits 1 when any call is one of our bugs.
 *
 *   npm run fidelity -- [--source dev,oas-examples,github,stripe,kubernetes,graph-beta]
 *                       [--spec text,text] [--sample 20 | --all] [--seed fidelity]
 *                       [--jobs 2] [--report .cache/fidelity/report.json] [--keep] [--prism-timeout 240] [--prism-subset]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { listSource, type CorpusEntry } from "../corpus/sources.js";
import { BUG_CLASSES, emptyCounts, runFidelity, type CallClass, type SpecFidelity } from "./run-spec.js";

/** Parsed command line. */
export interface FidelityArgs {
  sources: string[];
  spec?: string | undefined;
  sample: number | "all";
  seed: string;
  jobs: number;
  report: string;
  keep: boolean;
  /** Seconds Prism may take to load a spec and listen (Stripe's takes minutes on a busy machine). */
  prismTimeout: number;
  /** Prism judges only the sampled operations, components in a side file (specs Prism cannot load whole). */
  prismSubset: boolean;
}

/** Reads the runner's flags. */
export function parseFidelityArgs(argv: string[], root: string): FidelityArgs {
  const value = (flag: string): string | undefined => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const sample = Number(value("--sample") ?? 20);
  if (!Number.isInteger(sample) || sample < 1) throw new Error("--sample must be a positive integer");
  return {
    sources: (value("--source") ?? "dev").split(",").filter(Boolean),
    spec: value("--spec"),
    sample: argv.includes("--all") ? "all" : sample,
    seed: value("--seed") ?? "fidelity",
    jobs: Math.max(1, Number(value("--jobs") ?? 2)),
    report: resolve(root, value("--report") ?? join(".cache", "fidelity", "report.json")),
    keep: argv.includes("--keep"),
    prismTimeout: Math.max(1, Number(value("--prism-timeout") ?? 240)),
    prismSubset: argv.includes("--prism-subset"),
  };
}

/** Totals over rows. */
export interface FidelityTotals {
  specs: number;
  specErrors: number;
  calls: number;
  counts: Record<CallClass, number>;
  /** accepted / (accepted + our bugs): the share of calls Prism could judge that it accepted. */
  acceptedShare: number;
}

/** Sums the rows. */
export function totals(rows: SpecFidelity[]): FidelityTotals {
  const counts = emptyCounts();
  for (const row of rows) for (const key of Object.keys(counts) as CallClass[]) counts[key] += row.counts[key];
  const bugs = BUG_CLASSES.reduce((n, key) => n + counts[key], 0);
  const judged = counts.accepted + bugs;
  return {
    specs: rows.length,
    specErrors: rows.filter((r) => r.error).length,
    calls: Object.values(counts).reduce((a, b) => a + b, 0),
    counts,
    acceptedShare: judged === 0 ? 1 : counts.accepted / judged,
  };
}

/** One table line per spec. */
export function formatFidelityRow(row: SpecFidelity): string {
  const c = row.counts;
  const bugs = BUG_CLASSES.reduce((n, key) => n + c[key], 0);
  const status = row.error ? "ERROR" : bugs > 0 ? "FAIL " : "ok   ";
  const cells = `${String(row.sampled).padStart(3)}/${String(row.tools).padEnd(4)} acc ${String(c.accepted).padStart(3)} viol ${String(c["request-violation"]).padStart(3)} own ${String(c["own-refusal"]).padStart(3)} noreq ${String(c["no-request"]).padStart(3)} prism ${String(c["prism-limitation"]).padStart(3)} nosample ${String(c["sample-invalid"]).padStart(3)}`;
  return `${status} ${row.id.padEnd(56).slice(0, 56)} ${cells} ${(row.ms / 1000).toFixed(0).padStart(4)}s${row.error ? `  ${row.error}` : ""}`;
}

/** Runs entries with at most `jobs` in flight, order kept. */
async function runAll(
  entries: CorpusEntry[],
  args: FidelityArgs,
  root: string,
  onRow: (row: SpecFidelity) => void,
): Promise<SpecFidelity[]> {
  const rows: SpecFidelity[] = new Array(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const index = next++;
      const entry = entries[index]!;
      rows[index] = await runFidelity({
        id: `${entry.source}/${entry.id}`,
        spec: entry.spec,
        root,
        workDir: join(root, ".tmp", "fidelity"),
        sample: args.sample,
        seed: args.seed,
        keep: args.keep,
        prismTimeoutMs: args.prismTimeout * 1000,
        prismSubset: args.prismSubset,
      });
      onRow(rows[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.jobs, entries.length) }, worker));
  return rows;
}

/** Runs the chosen sources; returns every row (also written to the report). */
export async function runFidelitySources(
  args: FidelityArgs,
  root: string,
  corpusDir: string,
  print: (line: string) => void = console.log,
): Promise<SpecFidelity[]> {
  const all: SpecFidelity[] = [];
  for (const source of args.sources) {
    const entries = listSource(root, source, corpusDir).filter(
      (e) => !args.spec || args.spec.split(",").some((part) => e.id.includes(part)),
    );
    print(`\n== ${source}: ${entries.length} spec(s), sample ${args.sample}, seed ${args.seed}`);
    const rows = await runAll(entries, args, root, (row) => {
      print(formatFidelityRow(row));
      for (const call of row.calls.filter((c) => BUG_CLASSES.includes(c.class)).slice(0, 6))
        print(`      - ${call.class} ${call.tool} (${call.operation}): ${call.detail.join(" | ").slice(0, 300)}`);
    });
    all.push(...rows);
    print(formatTotals(source, totals(rows)));
  }
  if (args.sources.length > 1) print(formatTotals("all", totals(all)));
  mkdirSync(dirname(args.report), { recursive: true });
  writeFileSync(
    args.report,
    JSON.stringify(
      { seed: args.seed, sample: args.sample, sources: args.sources, totals: totals(all), specs: all },
      null,
      2,
    ) + "\n",
  );
  print(`report: ${args.report}`);
  return all;
}

/** The totals line. */
export function formatTotals(label: string, t: FidelityTotals): string {
  const c = t.counts;
  return `== ${label}: ${t.specs} spec(s) (${t.specErrors} not run), ${t.calls} calls: accepted ${c.accepted}, request violations ${c["request-violation"]}, own refusals ${c["own-refusal"]}, failed without request ${c["no-request"]}, Prism limitations ${c["prism-limitation"]}, unsampleable ${c["sample-invalid"]} → ${(t.acceptedShare * 100).toFixed(1)}% accepted of judged calls`;
}

async function main(): Promise<number> {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const args = parseFidelityArgs(process.argv.slice(2), root);
  const rows = await runFidelitySources(args, root, join(root, "..", "shared", "corpus"));
  const t = totals(rows);
  return BUG_CLASSES.some((key) => t.counts[key] > 0) || t.specErrors > 0 ? 1 : 0;
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
