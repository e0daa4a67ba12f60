/**
 * Code mode: `execute_code` runs the body of an async JavaScript function, written by the model,
 * in QuickJS compiled to WebAssembly (quickjs-emscripten), inside a worker thread started for that
 * run only. Inside, `api.<toolName>(args)` calls an operation through the host (`CodeHost.call`,
 * the same path as `call_operation`) and `console.log` lines are captured. The sandbox has no file
 * system, network, environment, process, timers or credentials: only JSON text crosses the boundary.
 *
 * Limits (all enforced here, reported as a `CodeRunResult` error, never a crash): wall time (the
 * worker is terminated at the deadline, so even a tight loop cannot hold the server), QuickJS memory,
 * number of `api` calls per run, and size of the returned value (and of the captured logs).
 * Nothing of QuickJS is loaded until the first run: this module imports only Node built-ins; the
 * first run compiles the engine's WebAssembly once for all later runs, and each worker imports the rest.
 */
import { createRequire } from "node:module";
// node:worker_threads and node:fs/promises are imported on the first run, not at start: a server
// that never runs code does not load them (they are most of what this module cost at start-up).

/** The WebAssembly API used here (the ES2023 lib and @types/node do not declare WebAssembly). */
declare namespace WebAssembly {
  class Module {}
  function compile(bytes: Uint8Array): Promise<Module>;
}

let compiled: Promise<WebAssembly.Module | undefined> | undefined;

/**
 * QuickJS's WebAssembly module, compiled once on the first run and handed to every run's worker
 * (a compiled module crosses threads without recompiling). Undefined if that fails: the worker then
 * loads the engine itself.
 */
function engineModule(): Promise<WebAssembly.Module | undefined> {
  return (compiled ??= import("node:fs/promises")
    .then(({ readFile }) =>
      readFile(createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm")),
    )
    .then((bytes) => WebAssembly.compile(bytes))
    .catch(() => undefined));
}

/** What the sandbox may do outside itself: call the server's operations by tool name. */
export interface CodeHost {
  toolNames: readonly string[];
  call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<{ ok: true; value: unknown } | { ok: false; error: { message: string; status?: number; body?: string } }>;
}

/** Limits of one run. */
export interface CodeLimits {
  /** Wall time of the whole run, `api` calls included (milliseconds). */
  timeoutMs: number;
  /** The sandbox's whole WebAssembly memory, engine and stack included (bytes; at least the engine's 16 MiB start). */
  memoryBytes: number;
  /** `api` calls per run; the call over the limit ends the run. */
  maxCalls: number;
  /** UTF-8 bytes of the returned value as JSON; the captured logs have the same budget (truncated, not an error). */
  maxResultBytes: number;
}

/** Defaults: 30 s, 64 MiB, 50 calls, 100,000 bytes (the runtime's cap for a tool result's text). */
export const DEFAULT_CODE_LIMITS: CodeLimits = Object.freeze({
  timeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  maxCalls: 50,
  maxResultBytes: 100_000,
});

/** Longest `code` accepted (characters): a script is short; a megabyte of it is not a script. */
export const MAX_CODE_CHARS = 100_000;

/** Why a run failed. */
export type CodeErrorKind =
  | "timeout"
  | "memory"
  | "calls"
  | "result-size"
  | "code-size"
  | "exception"
  | "syntax"
  | "aborted";

/** One `api` call made by a run. */
export interface CodeCall {
  name: string;
  ok: boolean;
  ms: number;
  /** The call was still running when the run ended, and was cancelled (it may have reached the upstream). */
  unfinished?: true;
}

/** The outcome of `executeCode`. */
export type CodeRunResult =
  | { ok: true; result: unknown; logs: string[]; calls: CodeCall[] }
  | { ok: false; error: { kind: CodeErrorKind; message: string }; logs: string[]; calls: CodeCall[] };

/** Cap for the error message and body excerpt handed to the script (characters each). */
const MAX_BODY_EXCERPT_CHARS = 2_000;

/**
 * `text` cut to at most `maxBytes` bytes of UTF-8, with a note saying so: an error message or log
 * line obeys the result-size limit like the returned value does.
 */
export function clipText(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 bytes of UTF-8: short texts need no counting.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  const note = ` … [cut at ${maxBytes} bytes]`;
  const kept = Buffer.from(text.slice(0, maxBytes), "utf8")
    .subarray(0, Math.max(0, maxBytes - Buffer.byteLength(note)))
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return kept + note;
}

/** The `execute_code` tool definition (name, description, input schema `{ code: string }`). */
export const EXECUTE_CODE_TOOL = Object.freeze({
  name: "execute_code" as const,
  description:
    "Run JavaScript that calls this API's operations and return a value. `code` is the body of an async function: " +
    "use `await api.<operationName>(args)` (bracket notation for names that are not identifiers), where args is the " +
    "operation's input object; it resolves to the operation's structured result or throws an Error with `status` " +
    "and `body` (an excerpt). Find operations with search_operations; describe_operation gives each one's " +
    "TypeScript signature (a method of `interface Api`, i.e. `api.<name>(args)`). `return` the value you want back " +
    "(JSON); `console.log` lines are returned as logs. " +
    "The sandbox has no fetch, timers, file system, process or credentials. Limits per run (defaults): " +
    `${MAX_CODE_CHARS} characters of code, ` +
    `${DEFAULT_CODE_LIMITS.timeoutMs / 1000} s, ${DEFAULT_CODE_LIMITS.memoryBytes / 1024 / 1024} MB of memory, ` +
    `${DEFAULT_CODE_LIMITS.maxCalls} api calls, ${DEFAULT_CODE_LIMITS.maxResultBytes} bytes of result: filter and ` +
    "summarise inside the code instead of returning whole responses.",
  inputSchema: Object.freeze({
    type: "object",
    properties: {
      code: {
        type: "string",
        maxLength: MAX_CODE_CHARS,
        description:
          'Body of an async JavaScript function, e.g. `const repo = await api.reposGet({ owner: "o", repo: "r" }); return repo.stargazers_count;`',
      },
    },
    required: ["code"],
    additionalProperties: false,
  }),
});

/** Longest wait for a sandbox to start (worker thread and QuickJS), before the code's own time limit begins. */
export const SANDBOX_START_MS = 30_000;

/** Data the worker starts with (no functions, no secrets). */
export interface WorkerInput {
  /** QuickJS compiled once by the host (see engineModule); absent when that failed. */
  wasmModule?: unknown;
  code: string;
  toolNames: readonly string[];
  limits: CodeLimits;
}

/** Messages from the worker. */
export type FromWorker =
  | { type: "started" }
  | { type: "call"; id: number; name: string; args: string }
  | { type: "log"; line: string }
  | { type: "done"; ok: true; json: string }
  | { type: "done"; ok: false; kind: CodeErrorKind; message: string };

/** A reply to a call: JSON of the value, or of `{ message, status?, body? }` when `ok` is false. */
export interface ToWorker {
  id: number;
  ok: boolean;
  json: string;
}

/**
 * Runs `code` (an async function body) in a fresh QuickJS sandbox with `host` as its only way out.
 * Never rejects: every failure, limit or abort is a `{ ok: false }` result with the logs and calls so far.
 */
export function executeCode(
  code: string,
  host: CodeHost,
  limits: CodeLimits,
  signal: AbortSignal,
): Promise<CodeRunResult> {
  return Promise.all([engineModule(), import("node:worker_threads")]).then(([wasmModule, { Worker }]) =>
    run(code, host, limits, signal, wasmModule, Worker),
  );
}

/** One run in a fresh worker (see executeCode). */
function run(
  code: string,
  host: CodeHost,
  limits: CodeLimits,
  signal: AbortSignal,
  wasmModule: WebAssembly.Module | undefined,
  Worker: typeof import("node:worker_threads").Worker,
): Promise<CodeRunResult> {
  return new Promise<CodeRunResult>((resolve) => {
    if (signal.aborted)
      return resolve({
        ok: false,
        error: { kind: "aborted", message: "the run was cancelled before it started" },
        logs: [],
        calls: [],
      });
    if (code.length > MAX_CODE_CHARS)
      return resolve({
        ok: false,
        error: {
          kind: "code-size",
          message: `the code is ${code.length} characters, over the limit of ${MAX_CODE_CHARS}`,
        },
        logs: [],
        calls: [],
      });
    new SandboxRun(host, limits, signal, resolve).start(code, wasmModule, Worker);
  });
}

/**
 * One run's state on the host side: the worker, its timer, the logs and calls so far. It ends once,
 * with the code's result or the first failure, limit or abort. The host trusts nothing the sandbox
 * thread says: messages and logs are bounded here too.
 */
class SandboxRun {
  private readonly logs: string[] = [];
  private readonly calls: CodeCall[] = [];
  private readonly inFlight = new AbortController();
  private readonly known: ReadonlySet<string>;
  private settled = false;
  private logBytes = 0;
  /** Calls not answered yet, with their start times. */
  private readonly running = new Map<CodeCall, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private worker: import("node:worker_threads").Worker | undefined;
  private readonly onAbort = (): void => this.fail("aborted", "the run was cancelled");

  constructor(
    private readonly host: CodeHost,
    private readonly limits: CodeLimits,
    private readonly signal: AbortSignal,
    private readonly resolve: (result: CodeRunResult) => void,
  ) {
    this.known = new Set(host.toolNames);
  }

  /** Starts the worker on `code`, with the limits' timers and the caller's signal. */
  start(code: string, wasmModule: WebAssembly.Module | undefined, Worker: typeof import("node:worker_threads").Worker) {
    const input: WorkerInput = {
      ...(wasmModule ? { wasmModule } : {}),
      code,
      toolNames: [...this.host.toolNames],
      limits: { ...this.limits },
    };
    // Empty environment: the thread that runs model code never holds the server's credentials.
    // Its stdout/stderr are piped here and drained, so nothing it prints reaches the stdio transport.
    const worker = new Worker(new URL("./code-mode-worker.js", import.meta.url), {
      workerData: input,
      env: {},
      stdout: true,
      stderr: true,
    });
    this.worker = worker;
    worker.stdout.resume();
    worker.stderr.resume();
    // The wall-time limit counts from the moment the sandbox starts the code: starting a worker and
    // QuickJS takes tens of milliseconds on an idle machine and seconds on a loaded one, which is not
    // the model's code's time. A sandbox that does not start at all is bounded separately.
    this.timer = setTimeout(
      () => this.fail("timeout", `the sandbox did not start within ${SANDBOX_START_MS} ms`),
      SANDBOX_START_MS,
    );
    this.signal.addEventListener("abort", this.onAbort, { once: true });
    worker.on("message", (message: FromWorker) => this.receive(message));
    worker.on("error", (error) => this.fail("exception", `the sandbox failed: ${error.message}`));
    worker.on("exit", (code) => this.fail("exception", `the sandbox stopped unexpectedly (exit code ${code})`));
  }

  /** One message of the worker: started, a log line, an api call, or the end. */
  private receive(message: FromWorker): void {
    if (this.settled) return;
    if (message.type === "started") {
      clearTimeout(this.timer);
      this.timer = setTimeout(
        () => this.fail("timeout", `the code ran longer than the limit of ${this.limits.timeoutMs} ms`),
        this.limits.timeoutMs,
      );
    } else if (message.type === "log") this.log(message.line);
    else if (message.type === "call") this.call(message);
    else if (message.ok) this.done(message.json);
    else this.fail(message.kind, message.message);
  }

  /** Keeps a log line while the logs are within the result limit. */
  private log(line: string): void {
    const limit = this.limits.maxResultBytes;
    if (this.logBytes > limit) return;
    this.logBytes += Buffer.byteLength(line, "utf8");
    this.logs.push(this.logBytes > limit ? "[further log lines dropped: over the log limit]" : line);
  }

  /** Makes an api call for the sandbox (within the calls limit) and posts its reply. */
  private call(message: { id: number; name: string; args: string }): void {
    if (this.calls.length >= this.limits.maxCalls)
      return this.fail("calls", `the code made more than ${this.limits.maxCalls} api calls`);
    // Listed from its start, so a call still running when the run ends is not left out.
    const entry: CodeCall = { name: message.name, ok: false, ms: 0, unfinished: true };
    this.calls.push(entry);
    this.running.set(entry, performance.now());
    void callHost(message, this.host, this.known, this.inFlight.signal).then(({ reply, call }) => {
      if (this.settled) return;
      this.running.delete(entry);
      delete entry.unfinished;
      Object.assign(entry, call);
      this.worker!.postMessage(reply);
    });
  }

  /** The code returned: its JSON value, checked again against the result limit. */
  private done(json: string): void {
    const bytes = Buffer.byteLength(json, "utf8");
    if (bytes > this.limits.maxResultBytes)
      return this.fail(
        "result-size",
        `the returned value is ${bytes} bytes of JSON, over the limit of ${this.limits.maxResultBytes}`,
      );
    const result = parseJson(json);
    if (!result.ok) return this.fail("exception", "the sandbox returned invalid JSON");
    this.end({ ok: true, result: result.value, logs: this.logs, calls: this.calls });
  }

  /** Ends the run with an error of `kind`. */
  private fail(kind: CodeErrorKind, message: string): void {
    const error = { kind, message: clipText(message, this.limits.maxResultBytes) };
    this.end({ ok: false, error, logs: this.logs, calls: this.calls });
  }

  /** Ends the run once: stops the timer, the listener, the calls in flight and the worker. */
  private end(result: CodeRunResult): void {
    if (this.settled) return;
    this.settled = true;
    // Calls still running are cancelled below; they are listed, as they may have reached the upstream.
    for (const [call, begin] of this.running) call.ms = Math.round(performance.now() - begin);
    clearTimeout(this.timer);
    this.signal.removeEventListener("abort", this.onAbort);
    this.inFlight.abort();
    void this.worker?.terminate();
    this.resolve(result);
  }
}

/** Makes one call for the sandbox; never rejects (a host failure is a failed call). */
async function callHost(
  message: { id: number; name: string; args: string },
  host: CodeHost,
  known: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<{ reply: ToWorker; call: CodeCall }> {
  const begin = performance.now();
  const failed = (error: { message: string; status?: number; body?: string }): { reply: ToWorker; call: CodeCall } => ({
    reply: { id: message.id, ok: false, json: JSON.stringify(error) },
    call: { name: message.name, ok: false, ms: Math.round(performance.now() - begin) },
  });
  if (!known.has(message.name)) return failed({ message: `unknown operation '${message.name}'` });
  const parsed = parseJson(message.args);
  const args = parsed.ok ? parsed.value : undefined;
  if (args === undefined || args === null || typeof args !== "object" || Array.isArray(args))
    return failed({ message: `api.${message.name}(args): args must be an object` });
  try {
    const outcome = await host.call(message.name, args as Record<string, unknown>, signal);
    if (!outcome.ok) {
      const { message: text, status, body } = outcome.error;
      return failed({
        message: text.slice(0, MAX_BODY_EXCERPT_CHARS),
        ...(status !== undefined ? { status } : {}),
        ...(body !== undefined ? { body: body.slice(0, MAX_BODY_EXCERPT_CHARS) } : {}),
      });
    }
    const json = JSON.stringify(outcome.value);
    return {
      reply: { id: message.id, ok: true, json: json === undefined ? "null" : json },
      call: { name: message.name, ok: true, ms: Math.round(performance.now() - begin) },
    };
  } catch (error) {
    return failed({ message: error instanceof Error ? error.message : String(error) });
  }
}

/** JSON.parse without throwing. `__proto__` keys become own data properties (JSON.parse never sets prototypes). */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
