/**
 * `mcp-gen workspace test`: every server's own tests and its compliance check (`mcp-gen check`),
 * recorded in the workspace state for the report. A server whose build is out of date is built
 * first; its test script's leading `npm run build &&` is then not run a second time.
 */
import { readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import PQueue from "p-queue";
import { runCheck, type CheckReport } from "../check/run-check.js";
import { TargetError } from "../check/target.js";
import { compileServer, needsCompile, seconds } from "./build.js";
import { NPM, npmEnvironment, runProcess } from "./run-process.js";
import { readState, writeState, type TestState } from "./state.js";
import type { Workspace, WorkspaceServer } from "./workspace-file.js";

/** Options of {@link testWorkspace}. */
export interface TestOptions {
  concurrency?: number;
  /** Also check each server over Streamable HTTP (stdio is always checked). */
  http?: boolean;
  log?: (line: string) => void;
}

/**
 * Counts of a node:test run: TAP (the reporter Node 20 uses when its output is not a terminal:
 * `# pass 9`, `not ok 2 - name`) or the spec reporter of later versions (`ℹ pass 9`, `✖ name (3ms)`).
 */
export function parseTap(output: string): { passed: number; failed: number; skipped: number; failures: string[] } {
  const count = (label: string) => Number(new RegExp(`^(?:#|ℹ) ${label} (\\d+)$`, "m").exec(output)?.[1] ?? 0);
  const tap = [...output.matchAll(/^\s*not ok \d+ - (.+)$/gm)].map((m) => m[1]!.trim());
  const spec = [...output.matchAll(/^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/gm)]
    .map((m) => m[1]!.trim())
    .filter((name) => !/^failing tests:$/.test(name));
  const failures = [...new Set([...tap, ...spec])].filter((name) => !/^test\/.+\.m?js$/.test(name));
  return {
    passed: count("pass"),
    failed: count("fail"),
    skipped: count("skipped") + count("todo"),
    failures: failures.slice(0, 10),
  };
}

/** The prefix of the generated test script that builds first. */
const BUILD_FIRST = /^npm run build\s*&&\s*/;

/** Runs the server's test script (without its build step when the build is fresh). */
async function runServerTests(
  server: WorkspaceServer,
  workspace: Workspace,
  built: boolean,
): Promise<{ code: number | null; output: string; ms: number }> {
  const pkg = JSON.parse(readFileSync(join(server.out, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  const script = pkg.scripts?.test;
  if (!script) return { code: 1, output: "the server's package.json has no test script", ms: 0 };
  if (built && BUILD_FIRST.test(script)) {
    // As npm would run the rest of the line: through the shell, with the node_modules/.bin folders on PATH.
    const bins = [join(server.out, "node_modules", ".bin"), join(workspace.dir, "node_modules", ".bin")];
    const env = npmEnvironment({ PATH: [...bins, process.env.PATH ?? ""].join(delimiter) });
    return runProcess(script.replace(BUILD_FIRST, ""), [], { cwd: server.out, timeoutMs: 600_000, env, shell: true });
  }
  return runProcess(NPM, ["test"], { cwd: server.out, timeoutMs: 900_000 });
}

/** A check report as the state keeps it. */
function complianceOf(report: CheckReport): NonNullable<TestState["compliance"]>[number] {
  return {
    score: report.score,
    transport: report.transport,
    failed: report.checks.filter((c) => !c.ok).map((c) => ({ id: c.id, message: c.message })),
    skipped: report.checks.filter((c) => c.skipped).map((c) => c.id),
  };
}

/** What a test run found, per server in file order. */
export interface TestSummary {
  servers: Array<{ server: WorkspaceServer; test: TestState }>;
}

/** Tests every server and records the results in the workspace state. */
export async function testWorkspace(workspace: Workspace, options: TestOptions = {}): Promise<TestSummary> {
  const log = options.log ?? (() => undefined);
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 2) });
  const count = workspace.servers.length;
  const results = await Promise.all(
    workspace.servers.map((server) =>
      queue.add(async () => {
        const label = `[${server.index + 1}/${count}] ${server.name}`;
        let built = !(await needsCompile(server.out));
        if (!built) {
          const compiled = await compileServer(server);
          built = compiled.ok;
          if (!compiled.ok) {
            log(`${label}: build FAILED`);
            return {
              server,
              test: { passed: 0, failed: 1, skipped: 0, failures: ["npm run build"], ok: false } satisfies TestState,
            };
          }
        }
        const run = await runServerTests(server, workspace, built);
        const tap = parseTap(run.output);
        const test: TestState = { ...tap, ok: run.code === 0 && tap.failed === 0 };
        if (run.code !== 0 && tap.failed === 0)
          test.failures = [
            `the test command exited with ${run.code}: ${run.output.trim().split("\n").slice(-3).join(" / ")}`,
          ];
        const compliance: NonNullable<TestState["compliance"]> = [];
        for (const http of options.http ? [false, true] : [false]) {
          try {
            compliance.push(complianceOf(await runCheck({ kind: "folder", dir: server.out }, { http })));
          } catch (error) {
            if (!(error instanceof TargetError)) throw error;
            compliance.push({
              score: 0,
              transport: http ? "http" : "stdio",
              failed: [{ id: "start", message: error.message }],
              skipped: [],
            });
          }
        }
        test.compliance = compliance;
        const scores = compliance.map((c) => `${c.transport} ${c.score}/100`).join(", ");
        log(
          `${label}: tests ${test.passed} passed, ${test.failed} failed${test.skipped ? `, ${test.skipped} skipped` : ""} (${seconds(run.ms)}); compliance ${scores}`,
        );
        return { server, test };
      }),
    ),
  );
  const state = await readState(workspace.dir);
  for (const { server, test } of results) state.servers[server.name] = { ...state.servers[server.name], test };
  await writeState(workspace.dir, state);
  return { servers: results };
}
