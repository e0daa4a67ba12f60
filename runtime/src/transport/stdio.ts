/**
 * stdio transport: one JSON-RPC message per line on stdin/stdout (logs go to stderr), with the
 * guards of the official SDKs: a line longer than `maxLineBytes` is answered with -32600 and
 * skipped; while stdout refuses more (`write()` false) no further input is read until it drains;
 * a request beyond `maxInFlight` requests in flight is answered at once with -32000 (notifications
 * and the client's responses always pass: a call in flight may be waiting for one).
 */
import type { Readable, Writable } from "node:stream";
import { ErrorCode, errorResponse } from "../protocol/jsonrpc.js";
import { silentLogger, type Logger } from "../protocol/logger.js";
import { isRecord } from "../protocol/own.js";
import type { McpServer } from "../server/server.js";
import { LineSplitter } from "./line-splitter.js";
import type { TransportHandle } from "./transport.js";

/** Longest message line read (the HTTP transport's body limit). */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Requests handled at once; more are refused until one completes. */
export const DEFAULT_MAX_IN_FLIGHT = 100;
/** JSON-RPC server error (implementation-defined range): too many requests in flight, retry later. */
const SERVER_BUSY = -32000;

/** Options for {@link startStdio}. */
export interface StdioOptions {
  input?: Readable;
  output?: Writable;
  logger?: Logger;
  /** Longest line (bytes, without its newline); default {@link DEFAULT_MAX_LINE_BYTES}. */
  maxLineBytes?: number;
  /** Requests in flight at most; default {@link DEFAULT_MAX_IN_FLIGHT}. */
  maxInFlight?: number;
}

/**
 * Serves `server` over stdio, messages handled concurrently. On stdin EOF: ends subscriptions,
 * waits for requests in flight, flushes their responses and resolves `closed`.
 */
export function startStdio(server: McpServer, options: StdioOptions = {}): TransportHandle {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const logger = options.logger ?? silentLogger;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const pending = new Set<Promise<void>>();
  /** Lines read and not yet handled (stdout was full). */
  const queue: string[] = [];
  let congested = false;
  let requests = 0;
  let refusing = false;
  let ended = false;
  let finish: () => void = () => {};
  const closed = new Promise<void>((resolve) => (finish = resolve));

  const send = (message: unknown): void => {
    if (!output.writable || output.write(JSON.stringify(message) + "\n") || congested) return;
    // Backpressure: read nothing more until stdout has taken what it holds.
    congested = true;
    logger.debug("stdio: stdout is full; reading paused until it drains");
    output.once("drain", () => {
      congested = false;
      pump();
    });
  };

  const handle = (line: string): void => {
    if (line.trim() === "") return;
    let payload: unknown;
    try {
      payload = JSON.parse(line);
    } catch {
      send(errorResponse(null, { code: ErrorCode.ParseError, message: "Parse error: invalid JSON" }));
      return;
    }
    const request = isRequest(payload);
    if (request && requests >= maxInFlight) return refuseBusy(payload);
    refusing = false;
    if (request) requests++;
    const work = server
      .dispatch(payload, { scope: "stdio", notify: send })
      .then((response) => {
        if (response !== undefined) send(response);
      })
      .catch((error: unknown) => logger.error("stdio dispatch failed", { error: String(error) }))
      .finally(() => {
        if (request) requests--;
        pending.delete(work);
      });
    pending.add(work);
  };

  const refuseBusy = (payload: unknown): void => {
    if (!refusing)
      logger.warn(`stdio: ${maxInFlight} requests in flight; further requests are refused until one completes`);
    refusing = true;
    const id =
      isRecord(payload) && (typeof payload.id === "string" || typeof payload.id === "number") ? payload.id : null;
    send(
      errorResponse(id, {
        code: SERVER_BUSY,
        message: `Server busy: ${maxInFlight} requests in flight; retry when one completes`,
      }),
    );
  };

  /** Handles queued lines while stdout takes more; pauses stdin otherwise; closes after EOF once all is handled. */
  const pump = (): void => {
    while (queue.length > 0 && !congested) handle(queue.shift()!);
    if (queue.length > 0 || congested) input.pause();
    else if (!ended) input.resume();
    else void shutDown();
  };

  const splitter = new LineSplitter(
    maxLineBytes,
    (line) => {
      queue.push(line);
      pump();
    },
    () => {
      logger.warn(`stdio: a message line longer than ${maxLineBytes} bytes was refused`);
      send(
        errorResponse(null, {
          code: ErrorCode.InvalidRequest,
          message: `Invalid Request: message larger than ${maxLineBytes} bytes`,
        }),
      );
    },
  );
  const onData = (chunk: Buffer | string): void => splitter.push(chunk);
  const onEnd = (): void => {
    if (ended) return;
    splitter.end();
    ended = true;
    pump();
  };
  input.on("data", onData);
  input.once("end", onEnd);
  input.once("close", onEnd);

  let shutting: Promise<void> | undefined;
  const shutDown = (): Promise<void> =>
    (shutting ??= (async () => {
      input.off("data", onData);
      server.closeSubscriptions(); // open subscriptions/listen requests end with their result
      server.cancelTasks();
      await Promise.allSettled([...pending]);
      await flush(output);
      finish();
    })());

  return {
    closed,
    async close() {
      // Stop reading: lines not yet handled are dropped, as at EOF of a killed client.
      ended = true;
      queue.length = 0;
      input.pause();
      await shutDown();
    },
  };
}

/** A request (or a batch), which is answered and counts as in flight; notifications and responses do not. */
function isRequest(payload: unknown): boolean {
  return Array.isArray(payload) || (isRecord(payload) && typeof payload.method === "string" && "id" in payload);
}

/** Resolves once everything written so far has been handed to the OS. */
function flush(output: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (!output.writable) return resolve();
    output.write("", () => resolve());
  });
}
