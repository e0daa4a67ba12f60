/**
 * `npm run test:large -- [--source github,stripe,graph-beta] [--reuse]`: generates each large API's
 * server into .tmp/large/<source>/, builds it under strict, and runs every surface with both
 * official clients over stdio and HTTP (surfaces.ts). Prints one line per run and a summary table;
 * exits 1 when any run had a problem. `--reuse` keeps a server built by an earlier run.
 * Not part of `npm test` (MS Graph beta alone takes minutes to generate and build); the e2e suite
 * runs the same check on Stripe.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "../../generator/pipeline/generate.js";
import { listSource } from "../corpus/sources.js";
import { compileProject } from "../support/e2e.js";
import { checkSurfaces, serverTools, type SurfaceRun } from "./surfaces.js";
import { dataReachProblems } from "./data-reach.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Runs the sources named on the command line; resolves to the exit code. */
async function main(argv: string[]): Promise<number> {
  const value = (flag: string): string | undefined => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const sources = (value("--source") ?? "github,stripe,graph-beta").split(",").filter(Boolean);
  const reuse = argv.includes("--reuse");

  let failed = 0;
  const table: string[] = [
    "| API | operations | surface | client | transport | tools listed | pages | `tools/list` bytes | connect ms | list ms | call ms | problems |",
    "| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const source of sources) {
    const [entry] = listSource(root, source, join(root, "..", "shared", "corpus"));
    if (!entry) throw new Error(`unknown source ${source}`);
    const dir = join(root, ".tmp", "large", source);
    if (!reuse || !existsSync(join(dir, "dist", "index.js"))) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      let t = performance.now();
      await generate({ spec: entry.spec, outDir: dir, force: true, features: ["code"] });
      process.stderr.write(`${source}: generated in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
      t = performance.now();
      await compileProject(dir, { timeoutMs: 1_800_000 });
      process.stderr.write(`${source}: built in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
    }
    const reach = dataReachProblems(dir);
    process.stderr.write(`${source}: data reach ${reach.length === 0 ? "clean" : reach.slice(0, 5).join("; ")}\n`);
    if (reach.length > 0) failed++;
    const tools = serverTools(dir);
    const runs: SurfaceRun[] = await checkSurfaces(dir, tools, (line) => process.stderr.write(`${source} ${line}\n`));
    for (const run of runs) {
      if (run.problems.length > 0) failed++;
      table.push(
        `| ${source} | ${tools.length} | ${run.surface} | ${run.client} | ${run.transport} | ${run.tools} | ${run.pages} | ${run.listBytes} | ${Math.round(run.connectMs)} | ${Math.round(run.listMs)} | ${Math.round(run.callMs)} | ${run.problems.join("; ") || "none"} |`,
      );
    }
  }
  console.log(table.join("\n"));
  console.log(`${failed === 0 ? "all runs clean" : `${failed} runs with problems`}`);
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(3);
    },
  );
}
