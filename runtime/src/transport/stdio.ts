/**
 * stdio transport: one JSON-RPC message per line on stdin/stdout (logs go to stderr), with the
 * guards of the official SDKs: a line longer than `maxLineBytes` is answered with -32600 and
 * skipped; while stdout refuses more (`write()` false) no further input is read until it drains;
 * a request beyond `maxInFlight` requests in flight is answered at once with error 429 (notifications
 * and the client's responses always pass: a call in flight may be waiting for one; so does `ping`,
 * which costs nothing and is how a client tells a busy server from a dead one).
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
/**
 * Too many requests in flight, retry later: the HTTP status's number, as the rate limit's refusal
 * (MCP keeps -32020…-32099 for itself and discourages -32000…-32019 for new implementations).
 */
const SERVER_BUSY = 429;

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
  const stdio = new StdioConnection(server, options);
  return {
    closed: stdio.closed,
    close: () => stdio.stop(),
  };
}

/** One stdio connection: its lines, its requests in flight and its output's backpressure. */
class StdioConnection {
  readonly closed: Promise<void>;
  private readonly input: Readable;
  private readonly output: Writable;
  private readonly logger: Logger;
  private readonly maxLineBytes: number;
  private readonly maxInFlight: number;
  private readonly pending = new Set<Promise<void>>();
  /** Lines read and not yet handled (stdout was full). */
  private readonly queue: string[] = [];
  private readonly splitter: LineSplitter;
  private congested = false;
  private requests = 0;
  /** Refusing requests beyond the cap (logged once per spell). */
  private refusing = false;
  private ended = false;
  private shutting: Promise<void> | undefined;
  private finish: () => void = () => {};
  private readonly onData = (chunk: Buffer | string): void => this.splitter.push(chunk);
  private readonly onEnd = (): void => {
    if (this.ended) return;
    this.splitter.end();
    this.ended = true;
    this.pump();
  };

  constructor(
    private readonly server: McpServer,
    options: StdioOptions,
  ) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.logger = options.logger ?? silentLogger;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.closed = new Promise<void>((resolve) => (this.finish = resolve));
    this.splitter = new LineSplitter(
      this.maxLineBytes,
      (line) => {
        this.queue.push(line);
        this.pump();
      },
      () => this.refuseLong(),
    );
    this.input.on("data", this.onData);
    this.input.once("end", this.onEnd);
    this.input.once("close", this.onEnd);
  }

  /** Stops reading: lines not yet handled are dropped, as at EOF of a killed client. */
  async stop(): Promise<void> {
    this.ended = true;
    this.queue.length = 0;
    this.input.pause();
    await this.shutDown();
  }

  private readonly send = (message: unknown): void => {
    if (!this.output.writable || this.output.write(JSON.stringify(message) + "\n") || this.congested) return;
    // Backpressure: read nothing more until stdout has taken what it holds.
    this.congested = true;
    this.logger.debug("stdio: stdout is full; reading paused until it drains");
    this.output.once("drain", () => {
      this.congested = false;
      this.pump();
    });
  };

  /** Handles queued lines while stdout takes more; pauses stdin otherwise; closes after EOF once all is handled. */
  private pump(): void {
    while (this.queue.length > 0 && !this.congested) this.handle(this.queue.shift()!);
    if (this.queue.length > 0 || this.congested) this.input.pause();
    else if (!this.ended) this.input.resume();
    else void this.shutDown();
  }

  private handle(line: string): void {
    if (line.trim() === "") return;
    let payload: unknown;
    try {
      payload = JSON.parse(line);
    } catch {
      this.send(errorResponse(null, { code: ErrorCode.ParseError, message: "Parse error: invalid JSON" }));
      return;
    }
    const request = isRequest(payload);
    if (request && this.requests >= this.maxInFlight && !isPing(payload)) return this.refuseBusy(payload);
    this.refusing = false;
    if (request) this.requests++;
    const work = this.server
      .dispatch(payload, { scope: "stdio", notify: this.send })
      .then((response) => {
        if (response !== undefined) this.send(response);
      })
      .catch((error: unknown) => this.logger.error("stdio dispatch failed", { error: String(error) }))
      .finally(() => {
        if (request) this.requests--;
        this.pending.delete(work);
      });
    this.pending.add(work);
  }

  private refuseBusy(payload: unknown): void {
    if (!this.refusing)
      this.logger.warn(
        `stdio: ${this.maxInFlight} requests in flight; further requests are refused until one completes`,
      );
    this.refusing = true;
    const id =
      isRecord(payload) && (typeof payload.id === "string" || typeof payload.id === "number") ? payload.id : null;
    this.send(
      errorResponse(id, {
        code: SERVER_BUSY,
        message: `Server busy: ${this.maxInFlight} requests in flight; retry when one completes`,
      }),
    );
  }

  private refuseLong(): void {
    this.logger.warn(`stdio: a message line longer than ${this.maxLineBytes} bytes was refused`);
    this.send(
      errorResponse(null, {
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: message larger than ${this.maxLineBytes} bytes`,
      }),
    );
  }

  private shutDown(): Promise<void> {
    return (this.shutting ??= (async () => {
      this.input.off("data", this.onData);
      this.server.closeSubscriptions(); // open subscriptions/listen requests end with their result
      this.server.cancelTasks();
      await Promise.allSettled([...this.pending]);
      await flush(this.output);
      this.finish();
    })());
  }
}

/** A request (or a batch), which is answered and counts as in flight; notifications and responses do not. */
function isRequest(payload: unknown): boolean {
  return Array.isArray(payload) || (isRecord(payload) && typeof payload.method === "string" && "id" in payload);
}

function isPing(payload: unknown): boolean {
  return isRecord(payload) && payload.method === "ping";
}

/** Resolves once everything written so far has been handed to the OS. */
function flush(output: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (!output.writable) return resolve();
    output.write("", () => resolve());
  });
}
