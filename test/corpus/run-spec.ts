/**
 * One corpus entry end to end: generate the project, compile it with `tsc --strict` (its contract
 * test's arguments typed as the tools' inputs, test/support/cases-module.ts), start it over
 * stdio, list its tools with the official SDK client, and check them. Never throws: every failure
 * becomes a problem in the returned row.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Codes, GenerationError } from "../../generator/shared/diagnostics.js";
import { generate } from "../../generator/pipeline/generate.js";
import { checkTools, countOperations, type ListedTool } from "./check-tools.js";
import { runNpmTest, type NpmTestOutcome } from "./npm-test.js";
import { casesModuleText, type CasesFile } from "../support/cases-module.js";
import { compileProject } from "../support/e2e.js";

/** One row of the corpus table. */
export interface SpecOutcome {
  id: string;
  operations: number;
  tools: number;
  /** Warnings the generator printed (skips included). */
  warnings: number;
  generateMs: number;
  compileMs: number;
  listMs: number;
  /** Size of the `tools/list` result as JSON, in bytes. */
  listBytes: number;
  problems: string[];
  /** The project's own contract test, when asked for (`npmTest`). */
  npmTest?: NpmTestOutcome;
}

/** How to run one spec. */
export interface RunSpecOptions {
  id: string;
  spec: string;
  /** Scratch folder for this spec's project (deleted afterwards unless `keep`). */
  workDir: string;
  /** The repository root (for node_modules and tsc). */
  root: string;
  /** Skip tsc (and therefore the server start): generation and schema checks only. */
  noCompile?: boolean;
  keep?: boolean;
  /** Also run the project's own contract test (`test/server.test.mjs`) and count its cases. */
  npmTest?: boolean;
  /** Options passed through to `generate` (e.g. `outputSchemas: false`). */
  generateOptions?: Record<string, unknown>;
}

/** The module the runner adds to each project's src/ (test/support/cases-module.ts). */
const CASES_MODULE = "cases-typecheck.ts";

/** Runs one spec through generate → tsc (with the cases typed as tool inputs) → start → tools/list → checks. */
export async function runSpec(options: RunSpecOptions): Promise<SpecOutcome> {
  const row: SpecOutcome = {
    id: options.id,
    operations: 0,
    tools: 0,
    warnings: 0,
    generateMs: 0,
    compileMs: 0,
    listMs: 0,
    listBytes: 0,
    problems: [],
  };
  const out = join(options.workDir, options.id.replace(/[^A-Za-z0-9_.-]+/g, "_"));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(options.workDir, { recursive: true });
  try {
    let started = performance.now();
    let result;
    try {
      // With feature custom: the tools' …Input types the contract-test arguments are checked against
      // are written only for custom code (the server itself is the default one plus an empty extension).
      const features = [...((options.generateOptions?.features as string[] | undefined) ?? []), "custom"];
      result = await generate({ spec: options.spec, outDir: out, force: true, ...options.generateOptions, features });
    } catch (error) {
      if (error instanceof GenerationError) {
        const first = error.diagnostics.find((d) => d.severity === "error");
        row.problems.push(
          `generation refused: ${first ? `${first.code} ${first.pointer ?? ""} ${first.message}` : error.message}`,
        );
      } else row.problems.push(`generator crashed: ${(error as Error).stack?.split("\n").slice(0, 3).join(" | ")}`);
      return row;
    }
    row.generateMs = performance.now() - started;
    row.warnings = result.diagnostics.filter((d) => d.severity === "warning").length;
    row.operations = countOperations(readSpec(options.spec));
    const skipped = result.diagnostics.filter((d) => d.code === Codes.operationSkipped).length;
    if (options.noCompile) {
      const tools = result.plan.tools.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        outputSchema: t.outputSchema,
      }));
      row.tools = tools.length;
      row.problems.push(...checkTools(tools as ListedTool[], row.operations - skipped));
      return row;
    }
    // The contract test's arguments must type-check as the tools' …Input types (compiled with the project).
    const cases = JSON.parse(readFileSync(join(out, "test/cases.json"), "utf8")) as CasesFile;
    writeFileSync(join(out, "src", CASES_MODULE), casesModuleText(cases, "./tools/index.js", { refused: false }).text);
    started = performance.now();
    try {
      await compileProject(out, { timeoutMs: 600_000 });
    } catch (error) {
      const lines = (error as Error).message.split("\n").filter((l) => l.includes("error TS"));
      row.problems.push(`tsc failed (${lines.length} errors): ${lines.slice(0, 3).join(" | ").slice(0, 600)}`);
      return row;
    }
    row.compileMs = performance.now() - started;
    const client = new Client({ name: "mcp-gen-corpus", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(out, "dist/index.js"), "--base-url", "http://127.0.0.1:9", "--surface", "all"],
      stderr: "ignore",
    });
    try {
      await client.connect(transport);
      started = performance.now();
      const tools: ListedTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 1000; page++) {
        const listed = await client.listTools(cursor ? { cursor } : undefined, { timeout: 120_000 });
        tools.push(...(listed.tools as ListedTool[]));
        row.listBytes += Buffer.byteLength(JSON.stringify(listed));
        cursor = listed.nextCursor;
        if (!cursor) break;
      }
      row.listMs = performance.now() - started;
      row.tools = tools.length;
      row.problems.push(...checkTools(tools, row.operations - skipped));
    } catch (error) {
      row.problems.push(`server/client failed: ${(error as Error).message.slice(0, 300)}`);
    } finally {
      await client.close().catch(() => undefined);
    }
    if (options.npmTest) {
      row.npmTest = await runNpmTest(out);
      if (row.npmTest.failed > 0 || row.npmTest.code !== 0) {
        row.problems.push(
          `npm test: ${row.npmTest.failed} of ${row.npmTest.passed + row.npmTest.failed} cases failed`,
          ...row.npmTest.failures.map((f) => `npm test: ${f}`),
        );
      }
    }
  } finally {
    if (!options.keep) rmSync(out, { recursive: true, force: true });
  }
  return row;
}

/** Reads a spec file for counting (JSON fast path, YAML otherwise). */
function readSpec(path: string): unknown {
  const text = readFileSync(path, "utf8");
  try {
    return JSON.parse(text);
  } catch {
    return parseYaml(text, { maxAliasCount: -1 });
  }
}
