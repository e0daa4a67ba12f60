/**
 * Worker thread of code mode: runs one `execute_code` script in QuickJS (WebAssembly) and exits.
 *
 * The worker owns nothing secret: it is started with an empty environment and sees only the script,
 * the tool names and the limits. `api.<tool>(args)` posts a message to the host thread, which makes
 * the real call (credentials are added there) and posts back the JSON result. A fresh worker and a
 * fresh WebAssembly module per run mean no state survives between runs, and the host can always
 * stop a run with `worker.terminate()`, whatever the script does.
 */
import { parentPort, workerData } from "node:worker_threads";
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSSyncVariant,
} from "quickjs-emscripten-core";
import {
  clipText,
  type CodeErrorKind,
  type CodeLimits,
  type FromWorker,
  type ToWorker,
  type WorkerInput,
} from "./code-mode.js";

/** Stack the QuickJS interpreter may use; deep recursion becomes a catchable RangeError well before the WebAssembly stack ends. */
const MAX_STACK_BYTES = 256 * 1024;
/** WebAssembly page size, and the pages the QuickJS build starts with (16 MiB: its stack and heap base). */
const WASM_PAGE_BYTES = 65_536;
const ENGINE_INITIAL_PAGES = 256;

/**
 * Runs inside the sandbox before the script. It receives the two host functions and the tool names,
 * installs `api` and `console`, and returns `compile` and `run`. JSON functions are captured first,
 * so a script that replaces `JSON` cannot change what crosses the boundary: only JSON text does.
 */
const PRELUDE = `(function (hostCall, hostLog, namesJson) {
  "use strict";
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const format = (value) => {
    if (typeof value === "string") return value;
    try {
      const text = stringify(value);
      return text === undefined ? String(value) : text;
    } catch (error) {
      return String(value);
    }
  };
  const log = (...values) => { hostLog(values.map(format).join(" ")); };
  const api = {};
  for (const name of parse(namesJson)) {
    api[name] = (args) => {
      if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {
        return Promise.reject(new TypeError("api." + name + "(args): args must be an object"));
      }
      return hostCall(name, args === undefined ? "{}" : stringify(args)).then(
        (text) => parse(text),
        (text) => {
          const failure = parse(text);
          const error = new Error(failure.message);
          if (failure.status !== undefined) error.status = failure.status;
          if (failure.body !== undefined) error.body = failure.body;
          throw error;
        },
      );
    };
  }
  Object.freeze(api);
  globalThis.api = api;
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });
  const AsyncFunction = (async function () {}).constructor;
  return {
    compile: (code) => new AsyncFunction(code),
    run: async (fn) => {
      const value = await fn();
      const text = stringify(value);
      return text === undefined ? "null" : text;
    },
  };
})`;

/** The one WebAssembly API used here (the ES2023 lib and @types/node do not declare WebAssembly). */
declare namespace WebAssembly {
  class Module {}
  class Memory {
    constructor(descriptor: { initial: number; maximum: number });
    readonly buffer: ArrayBuffer;
  }
}

const input = workerData as WorkerInput;
const port = parentPort!;

function post(message: FromWorker): void {
  port.postMessage(message);
}

function finish(message: FromWorker): void {
  post(message);
  // The host terminates the worker on `done`; nothing is disposed here because the whole thread goes.
}

void main().catch((error: unknown) => {
  finish({
    type: "done",
    ok: false,
    kind: "exception",
    message: `sandbox failure: ${error instanceof Error ? error.message : String(error)}`,
  });
});

async function main(): Promise<void> {
  const [{ newQuickJSWASMModuleFromVariant, newVariant }, variant] = await Promise.all([
    import("quickjs-emscripten-core"),
    import("@jitl/quickjs-wasmfile-release-sync"),
  ]);
  // The package's types describe its CommonJS build (default nested once more); ESM import yields the variant itself.
  const loaded = variant.default as unknown as QuickJSSyncVariant | { default: QuickJSSyncVariant };
  const base = "default" in loaded ? loaded.default : loaded;
  // QuickJS's own memory limit counts allocations, not their sizes, in this build (measured: twenty 4 MB
  // strings fit under a 16 MB limit), so the hard limit is the WebAssembly memory itself: it cannot grow
  // past `memoryBytes`, and an allocation beyond it fails inside QuickJS as "out of memory".
  const pages = Math.max(ENGINE_INITIAL_PAGES, Math.ceil(input.limits.memoryBytes / WASM_PAGE_BYTES));
  const wasmMemory = new WebAssembly.Memory({ initial: ENGINE_INITIAL_PAGES, maximum: pages });
  const wasmModule = input.wasmModule as WebAssembly.Module | undefined;
  const quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(base, { wasmMemory, ...(wasmModule ? { wasmModule } : {}) }),
  );
  const runtime = quickjs.newRuntime();
  const sandbox = new Sandbox(runtime, runtime.newContext(), input.limits, Date.now() + input.limits.timeoutMs);
  // The host's wall-time limit starts now, with the sandbox's own deadline.
  post({ type: "started" });
  sandbox.start(input.code, input.toolNames);
}

/** One script run: the QuickJS runtime, the pending `api` calls and the pump that drives promises. */
class Sandbox {
  private readonly pending = new Map<number, QuickJSDeferredPromise>();
  private nextId = 1;
  private promise: QuickJSHandle | undefined;
  private done = false;
  private logBytes = 0;

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly context: QuickJSContext,
    private readonly limits: CodeLimits,
    private readonly deadline: number,
  ) {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    // Stops CPU-bound code at the deadline; the host also terminates the thread then.
    runtime.setInterruptHandler(() => Date.now() > this.deadline);
    port.on("message", (message: ToWorker) => this.settle(message));
  }

  /** Installs the prelude, compiles the script as an async function body and starts it. */
  start(code: string, toolNames: readonly string[]): void {
    const ctx = this.context;
    const prelude = ctx.evalCode(PRELUDE, "prelude.js", { type: "global" });
    if (prelude.error) return this.fail(prelude.error);
    const hostCall = ctx.newFunction("hostCall", (name, args) => this.call(ctx.getString(name), ctx.getString(args)));
    const hostLog = ctx.newFunction("hostLog", (line) => this.log(ctx.getString(line)));
    const names = ctx.newString(JSON.stringify(toolNames));
    const tools = ctx.callFunction(prelude.value, ctx.undefined, hostCall, hostLog, names);
    if (tools.error) return this.fail(tools.error);
    const compile = ctx.getProp(tools.value, "compile");
    const fn = ctx.callFunction(compile, ctx.undefined, ctx.newString(code));
    if (fn.error) return this.fail(fn.error, true);
    const run = ctx.callFunction(ctx.getProp(tools.value, "run"), ctx.undefined, fn.value);
    if (run.error) return this.fail(run.error);
    this.promise = run.value;
    this.pump();
  }

  /** `console.log`: forwards lines until the log budget (the result-size limit) is spent, then one marker. */
  private log(line: string): void {
    if (this.logBytes > this.limits.maxResultBytes) return;
    this.logBytes += Buffer.byteLength(line, "utf8");
    post({
      type: "log",
      line: this.logBytes > this.limits.maxResultBytes ? "[further log lines dropped: over the log limit]" : line,
    });
  }

  /** `api.<name>(args)`: asks the host thread, answers with a promise the host's reply settles. */
  private call(name: string, args: string): QuickJSHandle {
    const deferred = this.context.newPromise();
    const id = this.nextId++;
    this.pending.set(id, deferred);
    post({ type: "call", id, name, args });
    return deferred.handle;
  }

  /** The host's reply to a call: resolve or reject the script's promise, then run what it unblocks. */
  private settle(message: ToWorker): void {
    const deferred = this.pending.get(message.id);
    if (!deferred || this.done) return;
    this.pending.delete(message.id);
    const value = this.context.newString(message.json);
    try {
      if (message.ok) deferred.resolve(value);
      else deferred.reject(value);
    } catch (error) {
      // Settling can fail only when the runtime itself is out of memory or interrupted.
      return this.finishWith(this.kindOfHostError(error), error instanceof Error ? error.message : String(error));
    } finally {
      value.dispose();
    }
    this.pump();
  }

  /** Runs queued promise jobs, then reports the script's outcome once its promise has settled. */
  private pump(): void {
    if (this.done || !this.promise) return;
    const jobs = this.runtime.executePendingJobs();
    if (jobs.error) return this.fail(jobs.error);
    const state = this.context.getPromiseState(this.promise);
    if (state.type === "fulfilled") {
      const text = this.context.getString(state.value);
      state.value.dispose();
      return this.succeed(text);
    }
    if (state.type === "rejected") return this.fail(state.error);
    // Pending with nothing in flight: the script awaits something that can never settle.
    if (this.pending.size === 0 && !this.runtime.hasPendingJob()) {
      this.finishWith("exception", "the code awaits a promise that never settles (there are no timers in the sandbox)");
    }
  }

  private succeed(json: string): void {
    const bytes = Buffer.byteLength(json, "utf8");
    if (bytes > this.limits.maxResultBytes) {
      return this.finishWith(
        "result-size",
        `the returned value is ${bytes} bytes of JSON, over the limit of ${this.limits.maxResultBytes}; return less (select fields, slice arrays)`,
      );
    }
    this.done = true;
    finish({ type: "done", ok: true, json });
  }

  /** Reports a QuickJS exception, classified: interrupted → timeout, out of memory → memory. */
  private fail(errorHandle: QuickJSHandle, compiling = false): void {
    const error = describe(this.context, errorHandle);
    errorHandle.dispose();
    let kind: CodeErrorKind = "exception";
    if (error.name === "InternalError" && /interrupted/i.test(error.message)) kind = "timeout";
    else if (/out of memory/i.test(error.message) || error.message === "null") kind = "memory";
    else if (compiling && error.name === "SyntaxError") kind = "syntax";
    const message =
      kind === "timeout"
        ? `the code ran longer than the limit of ${this.limits.timeoutMs} ms`
        : kind === "memory"
          ? `the code used more than the memory limit of ${this.limits.memoryBytes} bytes`
          : `${error.name}: ${error.message}`;
    this.finishWith(kind, message);
  }

  private kindOfHostError(error: unknown): CodeErrorKind {
    const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
    if (/interrupted/i.test(text)) return "timeout";
    if (/out of memory/i.test(text)) return "memory";
    return "exception";
  }

  private finishWith(kind: CodeErrorKind, message: string): void {
    if (this.done) return;
    this.done = true;
    // A thrown value may be as large as the sandbox's memory: it obeys the result-size limit.
    finish({ type: "done", ok: false, kind, message: clipText(message, this.limits.maxResultBytes) });
  }
}

/** Name and message of a thrown QuickJS value (an Error or anything else). */
function describe(context: QuickJSContext, handle: QuickJSHandle): { name: string; message: string } {
  try {
    const dumped: unknown = context.dump(handle);
    if (dumped !== null && typeof dumped === "object") {
      const record = dumped as { name?: unknown; message?: unknown };
      return {
        name: typeof record.name === "string" ? record.name : "Error",
        message: typeof record.message === "string" ? record.message : JSON.stringify(dumped),
      };
    }
    return { name: "Error", message: `uncaught ${String(dumped)}` };
  } catch {
    return { name: "Error", message: "an exception that could not be read" };
  }
}
