/**
 * What `mcp-gen check` checks, and how it is started: a generated server folder (its built
 * `dist/index.js`, pointed at the check's upstream stand-in, with the placeholder credentials of its
 * own tests), a command (`-- node server.js …`, with `API_BASE_URL` set to the stand-in), or the URL
 * of a server that is already running over HTTP.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { HttpConnection, StdioConnection, type Connection } from "./connection.js";

/** The server to check. */
export type CheckTarget =
  | { kind: "folder"; dir: string }
  | { kind: "command"; command: string; args: string[] }
  | { kind: "url"; url: string };

/** The check cannot start the target (not built, no URL printed, exited early). */
export class TargetError extends Error {}

/** A started target: the connection, and how to stop what was started. */
export interface StartedTarget {
  connection: Connection;
  /** The stdio connection, when the transport is stdio (for its stderr and stray output). */
  stdio?: StdioConnection;
  /** The HTTP endpoint, when the transport is HTTP. */
  url?: URL;
  /** The server's own output (stderr; HTTP: everything it printed). */
  output(): string[];
  stop(): Promise<void>;
}

/** Placeholder credentials a generated server's own tests use (`test/cases.json`), so calls are not refused for lack of them. */
function placeholderCredentials(dir: string): Record<string, string> {
  const file = join(dir, "test", "cases.json");
  if (!existsSync(file)) return {};
  try {
    const credentials =
      (JSON.parse(readFileSync(file, "utf8")) as { credentials?: Record<string, unknown> }).credentials ?? {};
    return Object.fromEntries(
      Object.entries(credentials).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    return {};
  }
}

/** The command that runs a built generated server folder. */
function folderCommand(dir: string): { command: string; args: string[]; env: Record<string, string> } {
  const entry = join(resolve(dir), "dist", "index.js");
  if (!existsSync(entry))
    throw new TargetError(
      `${dir} has no dist/index.js: build the server first (npm install && npm run build), or pass a command after --`,
    );
  return { command: process.execPath, args: [entry], env: placeholderCredentials(dir) };
}

const LISTENING = /(https?:\/\/[^\s"']+)/;

/**
 * Starts the target. `upstream` is the stand-in's base URL; `http` serves over Streamable HTTP
 * (a folder gets `--http --port 0`; a command must print the URL it listens on).
 */
export async function startTarget(
  target: CheckTarget,
  options: { http: boolean; upstream: string; readyTimeoutMs?: number },
): Promise<StartedTarget> {
  if (target.kind === "url") {
    const connection = new HttpConnection(new URL(target.url));
    return { connection, url: connection.url, output: () => [], stop: () => connection.close() };
  }
  const base =
    target.kind === "folder" ? folderCommand(target.dir) : { command: target.command, args: target.args, env: {} };
  const args = [
    ...base.args,
    ...(target.kind === "folder"
      ? ["--base-url", options.upstream, ...(options.http ? ["--http", "--port", "0"] : [])]
      : []),
  ];
  const env = { ...process.env, API_BASE_URL: options.upstream, ...base.env };
  const cwd = target.kind === "folder" ? resolve(target.dir) : process.cwd();
  const stdio = StdioConnection.start(base.command, args, { cwd, env });
  if (!options.http) return { connection: stdio, stdio, output: () => stdio.stderr, stop: () => stdio.close() };
  // Over HTTP the process is only started here; the URL it prints is where the checks go.
  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
  for (;;) {
    const line =
      [...stdio.stderr, ...stdio.strayStdout].find((l) => /listening/i.test(l) && LISTENING.test(l)) ??
      [...stdio.stderr, ...stdio.strayStdout].find((l) => LISTENING.test(l));
    if (line) {
      const url = new URL(LISTENING.exec(line)![1]!);
      const connection = new HttpConnection(url);
      return {
        connection,
        url,
        output: () => [...stdio.stderr, ...stdio.strayStdout],
        stop: async () => {
          await connection.close();
          await stdio.close();
        },
      };
    }
    if (stdio.hasExited || Date.now() > deadline) {
      await stdio.close();
      throw new TargetError(
        `the server ${stdio.hasExited ? "exited" : "printed no URL"} before listening over HTTP:\n${stdio.stderr.slice(-20).join("\n")}`,
      );
    }
    await new Promise((done) => setTimeout(done, 50));
  }
}
