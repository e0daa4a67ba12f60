/**
 * `mcp-gen workspace build`: (re)generates every server of the workspace with the single command's
 * guarantees (manifest, custom code kept, stable tool names, semver bump), lays the folder out as an
 * npm workspace, installs once at the root and builds the servers whose build is out of date.
 *
 * Nothing is half-written: every server is generated in memory first (as `--check` does) and its
 * write is checked for refusals (hand-edited files, foreign folders); only when all of them can be
 * written is any written.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import PQueue from "p-queue";
import { GenerationError, type Diagnostic } from "../../shared/diagnostics.js";
import { generate, type GenerateResult } from "../../pipeline/generate.js";
import { readManifest } from "../../pipeline/plan/previous-state.js";
import { checkWritable, writeOutput } from "../../pipeline/write/write-output.js";
import { syncRootPackage } from "./npm-workspace.js";
import { NPM, runProcess } from "./run-process.js";
import { readState, writeState, type BuildState } from "./state.js";
import type { Workspace, WorkspaceServer } from "./workspace-file.js";

/** Options of {@link buildWorkspace}. */
export interface BuildOptions {
  /** Servers generated, built or tested at once (default 2). */
  concurrency?: number;
  /** Overwrite hand-edited generated files (as `--force`). */
  force?: boolean;
  /** `npm install` at the root: "auto" (when a server changed or nothing is installed), or never. */
  install?: "auto" | "never" | "always";
  /** Run each server's `npm run build` when it is out of date (default true). */
  compile?: boolean;
  /** Build every server, even those whose build is up to date. */
  rebuild?: boolean;
  /** One line per server and step. */
  log?: (line: string) => void;
}

/** A server whose generation or write was refused. */
export interface ServerFailure {
  server: WorkspaceServer;
  diagnostics: Diagnostic[];
  message: string;
}

/** What a build did. */
export interface BuildSummary {
  /** Generation failed for these servers (nothing was written then). */
  failures: ServerFailure[];
  /** Per server (in file order): what was generated and whether it compiled. */
  servers: Array<{ server: WorkspaceServer; state: BuildState; result?: GenerateResult }>;
  /** npm install ran (and its result), or not. */
  install?: { ok: boolean; ms: number; output: string };
  /** Servers whose `npm run build` failed, with its output. */
  compileFailures: Array<{ server: WorkspaceServer; output: string }>;
}

/** Milliseconds as the progress lines print them. */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The newest modification time of a file or of any file under a folder (0 when absent). */
async function newest(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of await readdir(path)) latest = Math.max(latest, await newest(join(path, entry)));
  return latest;
}

/** True when `dist/index.js` is missing or older than the server's sources, tsconfig or package.json. */
export async function needsCompile(dir: string): Promise<boolean> {
  const built = await newest(join(dir, "dist", "index.js"));
  if (built === 0) return true;
  const sources = Math.max(
    await newest(join(dir, "src")),
    await newest(join(dir, "tsconfig.json")),
    await newest(join(dir, "package.json")),
  );
  return sources > built;
}

/** Runs the server's `npm run build`; its output when it failed. */
export async function compileServer(server: WorkspaceServer): Promise<{ ok: boolean; ms: number; output: string }> {
  const result = await runProcess(NPM, ["run", "build"], { cwd: server.out, timeoutMs: 600_000 });
  return { ok: result.code === 0, ms: result.ms, output: result.output };
}

/** What the steps of one build share. */
interface BuildRun {
  readonly options: BuildOptions;
  readonly log: (line: string) => void;
  /** Bounds the servers generated or compiled at once. */
  readonly queue: PQueue;
  /** `[i/n] name`, the prefix of a server's lines. */
  readonly label: (server: WorkspaceServer) => string;
}

/** Generates, writes, installs and builds the workspace; see the module comment for the order. */
export async function buildWorkspace(workspace: Workspace, options: BuildOptions = {}): Promise<BuildSummary> {
  const count = workspace.servers.length;
  const run: BuildRun = {
    options,
    log: options.log ?? (() => undefined),
    queue: new PQueue({ concurrency: Math.max(1, options.concurrency ?? 2) }),
    label: (server) => `[${server.index + 1}/${count}] ${server.name}`,
  };
  // 1. Every server in memory, with the refusals its write would meet.
  const planned = await Promise.all(workspace.servers.map((server) => run.queue.add(() => planServer(run, server))));
  const failures = planned.flatMap((p) => (p.failure ? [p.failure] : []));
  if (failures.length > 0) return { failures, servers: [], compileFailures: [] };
  // 2. Write the servers that changed (in file order), then the root package.json.
  const state = await readState(workspace.dir);
  const servers: BuildSummary["servers"] = [];
  for (const { server, result } of planned as Array<{ server: WorkspaceServer; result: GenerateResult }>)
    servers.push(await writeServer(run, server, result));
  const changed = servers.some((entry) => entry.state.generated !== "unchanged");
  const rootChanged = await syncRootPackage(workspace);
  // 3. One install at the root.
  const install = await installRoot(run, workspace, changed || rootChanged);
  // 4. Build what is out of date.
  const compileFailures =
    options.compile !== false && (!install || install.ok) ? await compileServers(run, servers) : [];
  for (const entry of servers) {
    // A regenerated server's last test results no longer describe it.
    const { test: lastTest } = state.servers[entry.server.name] ?? {};
    state.servers[entry.server.name] = {
      build: entry.state,
      ...(lastTest && entry.state.generated === "unchanged" ? { test: lastTest } : {}),
    };
  }
  await writeState(workspace.dir, state);
  return { failures: [], servers, ...(install ? { install } : {}), compileFailures };
}

/** Step 1 for one server: its generation in memory (`check`), and whether its write would be refused. */
async function planServer(
  run: BuildRun,
  server: WorkspaceServer,
): Promise<{ server: WorkspaceServer; result?: GenerateResult; failure?: ServerFailure }> {
  const started = performance.now();
  try {
    const result = await generate({ ...server.options, spec: server.spec, outDir: server.out, check: true });
    if (!result.check!.upToDate) await checkWritable(server.out, result.files, { force: run.options.force ?? false });
    run.log(
      `${run.label(server)}: planned ${result.plan.tools.length} tools, ${result.check!.upToDate ? "up to date" : "to write"} (${seconds(performance.now() - started)})`,
    );
    return { server, result };
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error;
    run.log(`${run.label(server)}: FAILED: ${error.message}`);
    return { server, failure: { server, diagnostics: error.diagnostics, message: error.message } };
  }
}

/** Step 2 for one server: written when it changed; its build state. */
async function writeServer(
  run: BuildRun,
  server: WorkspaceServer,
  result: GenerateResult,
): Promise<BuildSummary["servers"][number]> {
  const upToDate = result.check!.upToDate;
  let generated: BuildState["generated"] = "unchanged";
  // The version of the generation on disk, before this one replaces it.
  const previousVersion = upToDate ? undefined : (await readManifest(server.out))?.packageVersion;
  if (!upToDate) {
    const write = await writeOutput(server.out, result.files, { force: run.options.force ?? false });
    generated = write.created ? "created" : "updated";
    const bump =
      previousVersion && previousVersion !== result.plan.version
        ? ` ${previousVersion} → ${result.plan.version}`
        : ` ${result.plan.version}`;
    const breaking = result.diff?.breaking ? ", BREAKING changes" : "";
    run.log(
      `${run.label(server)}: ${generated}${bump} (${write.written.length} written, ${write.deleted.length} deleted${breaking})`,
    );
  } else run.log(`${run.label(server)}: unchanged ${result.plan.version}`);
  const warnings = result.diagnostics
    .filter((d) => d.severity === "warning")
    .map((d) => ({ code: d.code, message: d.message, ...(d.pointer ? { pointer: d.pointer } : {}) }));
  return {
    server,
    result,
    state: {
      generated,
      version: result.plan.version,
      // An unchanged server keeps nothing "since the last build"; an update records what it changed.
      ...(generated === "updated" && result.diff ? { diff: result.diff } : {}),
      ...(generated === "updated" && previousVersion && previousVersion !== result.plan.version
        ? { previousVersion }
        : {}),
      tools: result.plan.tools.length,
      warnings,
      compiled: "skipped",
    },
  };
}

/** Step 3: `npm install` at the root when asked, or when something changed or nothing is installed. */
async function installRoot(
  run: BuildRun,
  workspace: Workspace,
  changed: boolean,
): Promise<BuildSummary["install"] | undefined> {
  const installed = (await stat(join(workspace.dir, "node_modules")).catch(() => undefined)) !== undefined;
  const { install } = run.options;
  if (!(install === "always" || (install !== "never" && (changed || !installed)))) return undefined;
  run.log(`npm install in ${workspace.dir}`);
  const result = await runProcess(NPM, ["install", "--no-audit", "--no-fund"], {
    cwd: workspace.dir,
    timeoutMs: 900_000,
  });
  run.log(`npm install: ${result.code === 0 ? "done" : "FAILED"} (${seconds(result.ms)})`);
  return { ok: result.code === 0, ms: result.ms, output: result.output };
}

/** Step 4: `npm run build` in every server out of date (all with `rebuild`); the failures. */
async function compileServers(
  run: BuildRun,
  servers: BuildSummary["servers"],
): Promise<BuildSummary["compileFailures"]> {
  const compileFailures: BuildSummary["compileFailures"] = [];
  await Promise.all(
    servers.map((entry) =>
      run.queue.add(async () => {
        if (!run.options.rebuild && !(await needsCompile(entry.server.out))) {
          entry.state.compiled = "up to date";
          return;
        }
        const compiled = await compileServer(entry.server);
        entry.state.compiled = compiled.ok ? "built" : "failed";
        if (!compiled.ok) compileFailures.push({ server: entry.server, output: compiled.output });
        run.log(`${run.label(entry.server)}: ${compiled.ok ? "built" : "build FAILED"} (${seconds(compiled.ms)})`);
      }),
    ),
  );
  return compileFailures;
}
