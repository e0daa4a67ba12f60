/** stdio transport: one JSON-RPC message per line on stdin/stdout (logs go to stderr). */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { ErrorCode, errorResponse } from "../protocol/jsonrpc.js";
import { silentLogger, type Logger } from "../protocol/logger.js";
import type { McpServer } from "../server/server.js";
import type { TransportHandle } from "./transport.js";

/** Options for {@link startStdio}. */
export interface StdioOptions {
  input?: Readable;
  output?: Writable;
  logger?: Logger;
}

/**
 * Serves `server` over stdio, messages handled concurrently. On stdin EOF: ends subscriptions,
 * waits for requests in flight, flushes their responses and resolves `closed`.
 */
export function startStdio(server: McpServer, options: StdioOptions = {}): TransportHandle {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const logger = options.logger ?? silentLogger;
  const pending = new Set<Promise<void>>();
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });

  const send = (message: unknown): void => {
    if (output.writable) output.write(JSON.stringify(message) + "\n");
  };

  lines.on("line", (line) => {
    if (line.trim() === "") return;
    let payload: unknown;
    try {
      payload = JSON.parse(line);
    } catch {
      send(errorResponse(null, { code: ErrorCode.ParseError, message: "Parse error: invalid JSON" }));
      return;
    }
    const work = server
      .dispatch(payload, { scope: "stdio", notify: send })
      .then((response) => {
        if (response !== undefined) send(response);
      })
      .catch((error: unknown) => logger.error("stdio dispatch failed", { error: String(error) }))
      .finally(() => pending.delete(work));
    pending.add(work);
  });

  const closed = new Promise<void>((resolve) => {
    lines.once("close", () => {
      server.closeSubscriptions(); // open subscriptions/listen requests end with their result
      server.cancelTasks();
      void Promise.allSettled([...pending]).then(() => flush(output).then(resolve));
    });
  });

  return {
    closed,
    async close() {
      lines.close();
      await closed;
    },
  };
}

/** Resolves once everything written so far has been handed to the OS. */
function flush(output: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (!output.writable) return resolve();
    output.write("", () => resolve());
  });
}
