/**
 * Helpers for end-to-end tests: free ports, a Prism mock of an OpenAPI document, building a
 * generated server project, and running child processes with bounded time.
 *
 * Every child process started here is tracked by PID; `stop()`/`run()` kill only that PID, and
 * an `exit` hook SIGKILLs whatever is still tracked if the test process dies early.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { lstat, realpath, symlink } from "node:fs/promises";
import { createConnection, createServer } from "node:net";
import { cacheable, compileKey, restoreCompile, storeCompile } from "./compile-cache.js";
import { materializeExample } from "./example-custom.js";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Absolute path of the mcp-gen repository. This module runs from `dist/test/support/e2e.js`,
 * so the root is three levels up (`src` layout `test/support/e2e.ts` gives the same answer
 * relative to `dist`).
 */
export const repoRoot: string = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** Loopback address every e2e process binds to. */
export const LOOPBACK = "127.0.0.1";

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Remembers `child` until it exits, so a crashing test run still kills it (by PID). */
export function track(child: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const proc of live) killPid(proc, "SIGKILL");
    });
  }
  live.add(child);
  child.once("exit", () => live.delete(child));
}

/** Sends `signal` to exactly this child's PID; ignores a process that is already gone. */
function killPid(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(child.pid, signal);
  } catch {
    // already exited
  }
}

/** True once `child` has exited (normally or by signal). */
function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves when `child` exits, or false after `ms` milliseconds. */
function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => {
      child.off("exit", onExit);
      done(false);
    }, ms);
    const onExit = (): void => {
      clearTimeout(timer);
      done(true);
    };
    child.once("exit", onExit);
  });
}

/**
 * Stops `child` by PID: SIGTERM, then SIGKILL if it has not exited within `graceMs`, and waits
 * (bounded) for the exit. Safe to call more than once.
 */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (hasExited(child)) return;
  killPid(child, "SIGTERM");
  if (await waitForExit(child, graceMs)) return;
  killPid(child, "SIGKILL");
  await waitForExit(child, 5_000);
}

/**
 * Splits a stream's chunks into lines and hands each complete line to `onLine` (a trailing
 * partial line is flushed when the stream ends).
 */
function collectLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    pending += chunk;
    const parts = pending.split(/\r?\n/);
    pending = parts.pop() ?? "";
    for (const line of parts) onLine(line);
  });
  stream.on("end", () => {
    if (pending !== "") onLine(pending);
    pending = "";
  });
}

/** Asks the OS for an unused TCP port on 127.0.0.1 (binds port 0, reads it, closes). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.once("error", fail);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        fail(new Error("could not read the port of a probe socket"));
        return;
      }
      server.close(() => done(address.port));
    });
  });
}

/** True when a TCP connection to host:port succeeds within `ms` (sends no bytes). */
function canConnect(host: string, port: number, ms = 1_000): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    const finish = (ok: boolean): void => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(ms, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** A running Prism mock server. */
export interface PrismHandle {
  /** Base URL of the mock, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Port it listens on (127.0.0.1). */
  port: number;
  /** PID of the Prism process. */
  pid: number;
  /** Every stdout/stderr line Prism printed so far, in arrival order (a copy). */
  logs(): string[];
  /** Kills this Prism process (by PID) and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
}

/** Options of {@link startPrism}. */
export interface StartPrismOptions {
  /** How long to wait for Prism to listen, in milliseconds (default 30 000). */
  readyTimeoutMs?: number;
  /**
   * Prism's `-v` level. Default: Prism's own ("info": one block per request with validation
   * result and status). "debug" also logs each request's and response's headers.
   */
  verboseLevel?: "trace" | "debug" | "info" | "warn" | "error";
  /** Prism's `--errors`: a request that violates the spec is answered with an error status, never a mock 2xx. */
  errors?: boolean;
}

/**
 * Starts the locally installed Prism (`node_modules/.bin/prism mock -h 127.0.0.1 -p PORT SPEC`)
 * and resolves once it prints "Prism is listening" and accepts a TCP connection (the readiness
 * probe sends no HTTP request, so Prism's request log only contains the test's traffic).
 * Without `port`, a free one is picked with {@link freePort}; if Prism then dies before it is
 * ready (a lost port race), it is retried up to twice with a new port. Throws with Prism's
 * output when it does not become ready within the timeout (the child is killed first).
 */
export async function startPrism(
  specPath: string,
  port?: number,
  options: StartPrismOptions = {},
): Promise<PrismHandle> {
  const attempts = port === undefined ? 3 : 1;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await startPrismOnce(resolve(specPath), port ?? (await freePort()), options);
    } catch (error) {
      lastError = error;
      if (!(error instanceof PrismExitedEarly)) break;
    }
  }
  throw lastError;
}

/** Prism exited before it was ready (for example: the port was taken meanwhile). */
class PrismExitedEarly extends Error {}

async function startPrismOnce(specPath: string, port: number, options: StartPrismOptions): Promise<PrismHandle> {
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  const bin = join(repoRoot, "node_modules", ".bin", "prism");
  if (!existsSync(bin)) throw new Error(`Prism is not installed: ${bin} is missing (run npm install in ${repoRoot})`);
  const lines: string[] = [];
  const verbosity = [
    ...(options.verboseLevel ? ["-v", options.verboseLevel] : []),
    ...(options.errors ? ["--errors"] : []),
  ];
  const child = spawn(process.execPath, [bin, "mock", ...verbosity, "-h", LOOPBACK, "-p", String(port), specPath], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  track(child);
  let spawnError: Error | undefined;
  child.once("error", (error) => {
    spawnError = error;
  });
  collectLines(child.stdout, (line) => lines.push(line));
  collectLines(child.stderr, (line) => lines.push(line));

  const handle: PrismHandle = {
    url: `http://${LOOPBACK}:${port}`,
    port,
    pid: child.pid ?? -1,
    logs: () => [...lines],
    stop: () => stopChild(child),
  };

  try {
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (spawnError) throw new Error(`could not start Prism: ${spawnError.message}`);
      if (hasExited(child)) {
        throw new PrismExitedEarly(
          `Prism exited (code ${child.exitCode}, signal ${child.signalCode}) before listening on port ${port}:\n${lines.join("\n")}`,
        );
      }
      if (lines.some((line) => line.includes("Prism is listening on")) && (await canConnect(LOOPBACK, port)))
        return handle;
      if (Date.now() > deadline)
        throw new Error(`Prism did not listen on port ${port} within ${readyTimeoutMs} ms:\n${lines.join("\n")}`);
      await sleep(100);
    }
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Output of a finished command. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved, as received. */
  output: string;
  ms: number;
}

/** Options of {@link run}. */
export interface RunOptions {
  cwd: string;
  /** Kill the command (by PID) after this many milliseconds (default 120 000). */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs `command args` (no shell), captures its output and resolves when it exits. Throws with
 * the captured output when it exits non-zero or exceeds `timeoutMs` (it is killed by PID then);
 * the child is always killed in a `finally`, so nothing outlives the call.
 */
export async function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  track(child);
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const label = `${command} ${args.join(" ")} (in ${options.cwd})`;
  try {
    const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | "timeout">(
      (done, fail) => {
        const timer = setTimeout(() => done("timeout"), timeoutMs);
        child.once("error", (error) => {
          clearTimeout(timer);
          fail(new Error(`${label} could not start: ${error.message}`));
        });
        // "close" (not "exit") so that all output has been read.
        child.once("close", (code, signal) => {
          clearTimeout(timer);
          done({ code, signal });
        });
      },
    );
    const ms = Date.now() - started;
    if (outcome === "timeout") throw new Error(`${label} timed out after ${timeoutMs} ms; output:\n${output}`);
    if (outcome.code !== 0)
      throw new Error(`${label} failed (code ${outcome.code}, signal ${outcome.signal}); output:\n${output}`);
    return { ...outcome, output, ms };
  } finally {
    await stopChild(child, 2_000);
  }
}

/**
 * The environment for npm commands in a generated project: the caller's environment minus the
 * per-script variables an outer `npm run`/`npx` exports (package and lifecycle data, the outer
 * project's prefix), so the nested npm works on the generated project only.
 */
export function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package_|lifecycle_|command$|config_local_prefix$)/i.test(key) || key === "INIT_CWD") continue;
    env[key] = value;
  }
  env.npm_config_update_notifier = "false";
  return env;
}

/** Options of {@link buildGeneratedProject}. */
export interface BuildOptions {
  /**
   * true: a real `npm install --no-audit --no-fund` from the registry (proves the generated
   * package.json installs as is). false: symlink the repository's `node_modules` into the
   * project instead (fast; enough for compile-only checks).
   */
  install: boolean;
  /** Timeout of `npm install`, in milliseconds (default 180 000). */
  installTimeoutMs?: number;
  /** Timeout of `npm run build`, in milliseconds (default 120 000). */
  buildTimeoutMs?: number;
}

/** Durations of the steps of {@link buildGeneratedProject}. */
export interface BuildResult {
  installMs: number;
  buildMs: number;
  /** Output of the install (empty with the symlink) and of the build. */
  output: string;
}

/**
 * Prepares `dir` (a generated server project) and runs `npm run build` in it, which must
 * succeed; throws with the captured npm output otherwise. Dependencies come from a real
 * `npm install` or, with `install: false`, from a symlink to the repository's `node_modules`
 * (an existing `node_modules` in `dir` is kept as is).
 */
export async function buildGeneratedProject(dir: string, options: BuildOptions): Promise<BuildResult> {
  const env = npmEnv();
  let installMs = 0;
  let output = "";
  if (options.install) {
    const install = await run("npm", ["install", "--no-audit", "--no-fund"], {
      cwd: dir,
      env,
      timeoutMs: options.installTimeoutMs ?? 180_000,
    });
    installMs = install.ms;
    output += install.output;
  } else {
    const link = join(dir, "node_modules");
    const present = await lstat(link).then(
      () => true,
      () => false,
    );
    if (!present) await symlink(join(repoRoot, "node_modules"), link, "dir");
  }
  const build = await run("npm", ["run", "build"], { cwd: dir, env, timeoutMs: options.buildTimeoutMs ?? 120_000 });
  output += build.output;
  return { installMs, buildMs: build.ms, output };
}

/**
 * Compiles a generated project with the repository's TypeScript (`tsc -p`, the project's own
 * strict tsconfig), its dependencies coming from a symlink to the repository's `node_modules`
 * (an existing `node_modules` is kept). Faster than {@link buildGeneratedProject} (no npm); throws
 * with tsc's output when compilation fails. A project byte-identical to one compiled before in the
 * same test run gets that compile's dist/ from the cache instead (see compile-cache.ts);
 * `MCP_GEN_TSC_CACHE_LOG=1` prints each hit.
 */
export async function compileProject(
  dir: string,
  options: { noEmit?: boolean; timeoutMs?: number } = {},
): Promise<void> {
  const link = join(dir, "node_modules");
  const present = await lstat(link).then(
    () => true,
    () => false,
  );
  if (!present) await symlink(join(repoRoot, "node_modules"), link, "dir");
  const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");
  // The cache's key pins the repository's packages: a project with node_modules of its own compiles every time.
  const usesRepoModules = (await realpath(link)) === (await realpath(join(repoRoot, "node_modules")));
  const flags = options.noEmit ? ["--noEmit"] : [];
  const key = usesRepoModules && cacheable(dir) ? compileKey(repoRoot, dir, flags) : undefined;
  if (key && restoreCompile(repoRoot, key, dir)) {
    if (process.env.MCP_GEN_TSC_CACHE_LOG) console.error(`tsc cache: hit ${dir}`);
    return;
  }
  await run(process.execPath, [tsc, "-p", join(dir, "tsconfig.json"), ...flags], {
    cwd: dir,
    // Bounded, but generous: on the shared 2-core machine at load ~15 a small project's tsc took over
    // 120 s (the old default), and with two test lanes a compile shares the cores with the other lane.
    timeoutMs: options.timeoutMs ?? 600_000,
  });
  if (key) storeCompile(repoRoot, key, dir, !options.noEmit);
}

const compiledExamples = new Map<string, Promise<string>>();

/**
 * A copy of the golden example `generated/<name>` (with its vendored runtime; with `features`, a
 * fresh generation that has them) compiled under strict, made once per test process and shared by
 * the e2e files that only run it (interop, Inspector): one tsc run instead of one each. Callers must
 * not change the folder (a test that does makes its own copy).
 */
export function compiledExample(name: string, features?: string[]): Promise<string> {
  const key = `${name}+${(features ?? []).join(",")}`;
  let compiled = compiledExamples.get(key);
  if (!compiled) {
    const dir = join(mkdtempSync(join(tmpdir(), `mcp-gen-${name}-`)), name);
    compiled = materializeExample(repoRoot, name, dir, features)
      .then(() => compileProject(dir))
      .then(() => dir);
    compiledExamples.set(key, compiled);
  }
  return compiled;
}

/**
 * Copies the checked-in example `generated/<example>` to `dir` (a fresh folder of the test's) with
 * its vendored runtime (with `features`: a fresh generation that has them, see materializeExample)
 * and compiles it with {@link compileProject}, so a test runs the golden server as built.
 */
export async function compileExampleCopy(
  example: string,
  dir: string,
  options: { timeoutMs?: number; features?: string[] } = {},
): Promise<void> {
  await materializeExample(repoRoot, example, dir, options.features);
  await compileProject(dir, options);
}

/** A long-running child started with {@link startProcess}. */
export interface ProcessHandle {
  pid: number;
  /** Every stdout/stderr line so far, in arrival order (a copy). */
  lines(): string[];
  /** Kills this process (by PID, SIGTERM then SIGKILL) and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
}

/** Options of {@link startProcess}. */
export interface StartProcessOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Resolve once a stdout/stderr line matches this. */
  readyLine: RegExp;
  /** How long to wait for `readyLine`, in milliseconds (default 15 000). */
  readyTimeoutMs?: number;
}

/**
 * Starts a long-running process (for example a generated server in `--http` mode), collects its
 * output lines, and resolves once a line matches `readyLine`. Throws with the output when it
 * exits or times out first (the child is killed before throwing).
 */
export async function startProcess(
  command: string,
  args: string[],
  options: StartProcessOptions,
): Promise<ProcessHandle> {
  const lines: string[] = [];
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  track(child);
  let spawnError: Error | undefined;
  child.once("error", (error) => {
    spawnError = error;
  });
  collectLines(child.stdout, (line) => lines.push(line));
  collectLines(child.stderr, (line) => lines.push(line));
  const handle: ProcessHandle = { pid: child.pid ?? -1, lines: () => [...lines], stop: () => stopChild(child) };
  const timeoutMs = options.readyTimeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (spawnError) throw new Error(`could not start ${command}: ${spawnError.message}`);
      if (lines.some((line) => options.readyLine.test(line))) return handle;
      if (hasExited(child))
        throw new Error(
          `${command} ${args.join(" ")} exited (code ${child.exitCode}) before ready:\n${lines.join("\n")}`,
        );
      if (Date.now() > deadline)
        throw new Error(`${command} ${args.join(" ")} not ready within ${timeoutMs} ms:\n${lines.join("\n")}`);
      await sleep(50);
    }
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** A generated server running in `--http` mode. */
export interface HttpServerHandle extends ProcessHandle {
  /** The endpoint it printed (`http://127.0.0.1:PORT/mcp`). */
  url: URL;
}

/**
 * Starts a built generated server (`dist/index.js`) with `--http --port 0` plus `args`, and
 * resolves once it prints the endpoint it listens on.
 */
export async function startHttpServer(
  projectDir: string,
  args: string[],
  readyTimeoutMs = 20_000,
): Promise<HttpServerHandle> {
  const listening = /listening on (http:\/\/\S+)/;
  const handle = await startProcess(
    process.execPath,
    [join(projectDir, "dist/index.js"), "--http", "--port", "0", ...args],
    { cwd: projectDir, readyLine: listening, readyTimeoutMs },
  );
  const line = handle.lines().find((l) => listening.test(l))!;
  return { ...handle, url: new URL(listening.exec(line)![1]!) };
}

/**
 * Polls `check` every 50 ms until it returns true; throws `message()` after `timeoutMs`.
 */
export async function waitUntil(check: () => boolean, timeoutMs: number, message: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(message());
    await sleep(50);
  }
}

/** One request as Prism 5 logged it (lines from "Request received" up to the next request). */
export interface PrismRequest {
  /** Lower-case method, as Prism prints it ("get"). */
  method: string;
  /** Path without the query string ("/pets/1"). */
  path: string;
  /** Status Prism answered with (`> Responding with "200"`), when logged. */
  status?: number;
  /** Prism logged "The request passed the validation rules". */
  passed: boolean;
  /** Validator complaints: "did not pass", "Violation: …", error-level lines, "Request terminated with error". */
  problems: string[];
  /** The response line (or a termination error) was logged: the block is complete. */
  complete: boolean;
  /** Request headers (names lower-cased), only logged with `verboseLevel: "debug"`. */
  headers: Record<string, string>;
  lines: string[];
}

/**
 * Splits Prism 5 `mock` output into requests. Prism prints, per request (plain text when not a
 * TTY):
 *
 *     [HTTP SERVER] get /pets ℹ  info      Request received
 *         [VALIDATOR] ✔  success   The request passed the validation rules. Looking for the best response
 *         [NEGOTIATOR] ℹ  info      > Responding with "200"
 *
 * and for an invalid request `[VALIDATOR] ⚠  warning   Request did not pass the validation rules`,
 * `[VALIDATOR] ✖  error     <message>`, and after the response
 * `[VALIDATOR] ✖  error     Violation: request.query.limit …`; an unroutable or unanswerable
 * request ends with `[HTTP SERVER] get /x ✖  error     Request terminated with error: …`.
 * With `-v debug` the block also holds `[NEGOTIATOR] ⬤  debug     < \tx-request-id: req-1`
 * lines (request headers, lower-cased), collected in `headers`. The query string is not logged.
 */
export function prismRequests(lines: string[]): PrismRequest[] {
  const requests: PrismRequest[] = [];
  let current: PrismRequest | undefined;
  for (const line of lines) {
    const start = /\[HTTP SERVER\] (\w+) (\S+) .*Request received/.exec(line);
    if (start) {
      current = {
        method: start[1]!,
        path: start[2]!,
        passed: false,
        problems: [],
        complete: false,
        headers: {},
        lines: [],
      };
      requests.push(current);
    }
    if (!current) continue;
    current.lines.push(line);
    if (line.includes("The request passed the validation rules")) current.passed = true;
    const header = /debug\s+< \t([^:]+): (.*)$/.exec(line);
    if (header) current.headers[header[1]!.toLowerCase()] = header[2]!;
    const responding = /Responding with "(\d{3})"/.exec(line);
    if (responding) {
      current.status = Number(responding[1]);
      current.complete = true;
    }
    if (/Request terminated with error/.test(line)) current.complete = true;
    if (/did not pass the validation rules|Violation:|Request terminated with error|\berror\s{2,}/.test(line))
      current.problems.push(line.trim());
  }
  return requests;
}
