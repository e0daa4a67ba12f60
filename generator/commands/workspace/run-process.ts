/**
 * Child processes of a workspace run (npm install, builds, tests, publishes): no shell unless asked,
 * output captured (bounded), a deadline after which the child is killed by its PID, and the
 * environment of an outer `npm run`/`npx` left out so npm works on the server's own package.
 */
import { spawn } from "node:child_process";

/** How a command ended. */
export interface ProcessResult {
  code: number | null;
  /** stdout and stderr interleaved (the last 1 MB). */
  output: string;
  ms: number;
  timedOut: boolean;
}

/** Options of {@link runProcess}. */
export interface ProcessOptions {
  cwd: string;
  /** Kill the command (SIGTERM, then SIGKILL) after this many milliseconds. */
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Run `command` through the shell (a package.json script line). */
  shell?: boolean;
}

const KEPT_OUTPUT = 1024 * 1024;

/**
 * The environment for npm in a server folder: the caller's, minus the per-script variables an outer
 * `npm run`/`npx` exports (package and lifecycle data, the outer project's prefix).
 */
export function npmEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package_|lifecycle_|command$|config_local_prefix$)/i.test(key) || key === "INIT_CWD") continue;
    env[key] = value;
  }
  return { ...env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", ...extra };
}

/** The npm executable's name on this platform. */
export const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs a command to its end (or its deadline); never throws for a failing command. */
export function runProcess(command: string, args: string[], options: ProcessOptions): Promise<ProcessResult> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? npmEnvironment(),
      stdio: ["ignore", "pipe", "pipe"],
      shell: options.shell ?? false,
    });
    let output = "";
    const collect = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      if (output.length > KEPT_OUTPUT) output = output.slice(-KEPT_OUTPUT);
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    let timedOut = false;
    const kill = (signal: NodeJS.Signals): void => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(child.pid, signal);
        } catch {
          // already gone
        }
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill("SIGTERM");
      setTimeout(() => kill("SIGKILL"), 5_000).unref();
    }, options.timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      done({
        code: null,
        output: `${output}\ncould not start ${command}: ${error.message}`,
        ms: performance.now() - started,
        timedOut,
      });
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      done({
        code,
        output: timedOut ? `${output}\n(killed after ${options.timeoutMs} ms)` : output,
        ms: performance.now() - started,
        timedOut,
      });
    });
  });
}
