/**
 * Starting `prism-json.ts` as a child process and following its JSON log. Every child is
 * remembered and killed by PID when the runner exits early (test/support/e2e.ts `track`).
 * The Prism CLI with its text log is `startPrism` of test/support/e2e.ts; this one runs Prism as a
 * library with a JSON log, which the fidelity runner reads request by request.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { stopChild, track } from "../support/e2e.js";
import { parseRecords, prismRequests } from "./prism-log.js";

/** A running `prism-json.ts` child. */
export interface JsonPrism {
  url: string;
  lines(): string[];
  /** "Request received" records so far. */
  requestCount(): number;
  /** Waits (bounded) until the last of `count` requests has logged its end, plus a short grace. */
  settle(count: number): Promise<void>;
  /** Whether the process has ended (Prism crashes on some requests: see run-spec.ts). */
  exited(): boolean;
  /** The last lines Prism wrote to stderr (why it ended). */
  stderrTail(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/**
 * Starts `prism-json.js` (from `root`/dist) on `port` (0: one the OS picks), and waits until it
 * listens.
 */
export async function startJsonPrism(root: string, spec: string, timeoutMs: number, port = 0): Promise<JsonPrism> {
  const script = join(root, "dist", "test", "fidelity", "prism-json.js");
  const child: ChildProcess = spawn(
    process.execPath,
    ["--max-old-space-size=4096", script, "--port", String(port), "--host", "127.0.0.1", spec],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  track(child);
  const lines: string[] = [];
  let received = 0;
  let pending = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      if (line.includes('"msg":"Request received"')) received++;
    }
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  const stop = (): Promise<void> => stopChild(child);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = lines.find((line) => line.includes("Prism is listening on"));
    if (ready) {
      const url = /listening on (http:\/\/[^"\s]+)/.exec(ready)![1]!;
      return {
        url,
        lines: () => [...lines],
        requestCount: () => received,
        async settle(count) {
          if (count === 0) return;
          const end = Date.now() + 2_000;
          while (Date.now() < end) {
            const last = prismRequests(parseRecords(lines)).at(count - 1);
            if (last?.complete) break;
            await sleep(20);
          }
          await sleep(30);
        },
        exited,
        // The error's own line (not its stack frames) when there is one.
        stderrTail: () => {
          const tail = stderr
            .trim()
            .split("\n")
            .map((line) => line.trim());
          return (
            tail.filter((line) => /error/i.test(line) && !line.startsWith("at ")).at(-1) ?? tail.slice(-2).join(" | ")
          ).slice(0, 400);
        },
        stop,
      };
    }
    if (exited())
      throw new Error(
        `Prism exited: ${
          lines
            .filter((l) => l.includes("fatal"))
            .join(" ")
            .slice(0, 300) || stderr.slice(-300)
        }`,
      );
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Prism did not listen within ${timeoutMs} ms`);
    }
    await sleep(100);
  }
}
