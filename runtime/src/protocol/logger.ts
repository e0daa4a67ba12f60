/** Logging to stderr (stdout carries MCP messages on stdio). Never pass secrets in messages or fields. */
import { redactUserinfo } from "./redact.js";

/** Log levels in increasing severity. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** The logger the runtime uses; plug in your own (it must not write to stdout). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** False when entries of `level` are dropped (the caller may skip building one); absent: all are kept. */
  enabled?(level: LogLevel): boolean;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A logger writing one line per entry to stderr, dropping entries below `level`. */
export function createStderrLogger(name: string, level: LogLevel = "info"): Logger {
  const write = (entryLevel: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    if (ORDER[entryLevel] < ORDER[level]) return;
    const extra = fields && Object.keys(fields).length > 0 ? " " + safeJson(fields) : "";
    // Userinfo of a URL (`http://user:PASS@host`) never reaches the log, whoever passed it.
    process.stderr.write(redactUserinfo(`[${name}] ${entryLevel}: ${message}${extra}`) + "\n");
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    enabled: (entryLevel) => ORDER[entryLevel] >= ORDER[level],
  };
}

/** A logger that discards everything (tests, embedding). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, enabled: () => false };

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return "[unserializable]";
  }
}

/** An error as a log field: its class and message, never its stack (local paths, argument values). */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
