/**
 * A generated project served by `npm run dev:worker` (wrangler dev → workerd, from npm, offline) on
 * 127.0.0.1, as the Worker e2e tests start it: wrangler and the Node 22 it needs installed once, the
 * project's dependencies the repository's, its settings in `.dev.vars`; stopped process by process.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePort, npmEnv, startProcess, type ProcessHandle } from "./e2e.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const run = promisify(execFile);

/** The Node 22 and conformance suite (scripts/setup-conformance.js) and wrangler's bin folder, installed once. */
export async function workerTools(): Promise<{ node22: string; suite: string; wranglerBin: string }> {
  const conformance = await run(process.execPath, [join(root, "scripts/setup-conformance.js")], { timeout: 300_000 });
  const wrangler = await run(process.execPath, [join(root, "scripts/setup-wrangler.js")], { timeout: 300_000 });
  return {
    node22: /node: (.+)/.exec(conformance.stdout)![1]!.trim(),
    suite: /conformance: (.+)/.exec(conformance.stdout)![1]!.trim(),
    wranglerBin: /wrangler: (.+)/.exec(wrangler.stdout)![1]!.trim(),
  };
}

/** A running `npm run dev:worker`: its process, its MCP endpoint, and how to stop its whole tree. */
export interface WorkerDev {
  process: ProcessHandle;
  url: string;
  stop(): Promise<void>;
}

/** Serves the generated project `out` with `npm run dev:worker`, its `.dev.vars` holding `vars`. */
export async function startWorkerDev(
  out: string,
  vars: Record<string, string>,
  tools: { node22: string; wranglerBin: string },
): Promise<WorkerDev> {
  // The project's dependencies are the repository's (wrangler aside, which is on PATH).
  symlinkSync(join(root, "node_modules"), join(out, "node_modules"), "dir");
  writeFileSync(
    join(out, ".dev.vars"),
    Object.entries(vars)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(""),
  );
  const port = await freePort();
  // npm as a user runs it (from PATH), with the environment of a nested npm cleaned (npmEnv).
  const worker = await startProcess("npm", ["run", "dev:worker"], {
    cwd: out,
    env: {
      ...npmEnv(),
      PATH: [dirname(tools.node22), tools.wranglerBin, process.env.PATH ?? ""].join(delimiter),
      PORT: String(port),
      CI: "true",
      NO_COLOR: "1",
      FORCE_COLOR: "0",
      WRANGLER_SEND_METRICS: "false",
    },
    // wrangler colours the URL even without a terminal unless told not to.
    readyLine: /Ready on \S*http:\/\/127\.0\.0\.1:\d+/,
    readyTimeoutMs: 180_000,
  });
  return { process: worker, url: `http://127.0.0.1:${port}/mcp`, stop: () => stopTree(worker) };
}

/** Stops npm, wrangler and workerd: each process of the tree the test started, by PID. */
async function stopTree(worker: ProcessHandle): Promise<void> {
  const tree = descendants(worker.pid);
  await worker.stop();
  for (const pid of tree.reverse()) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already gone with its parent
    }
  }
}

/** The PIDs of the processes below `pid` (from /proc), parents before their children. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // exited while listed
    }
  }
  const found: number[] = [];
  const walk = (parent: number): void => {
    for (const child of children.get(parent) ?? []) (found.push(child), walk(child));
  };
  walk(pid);
  return found;
}
