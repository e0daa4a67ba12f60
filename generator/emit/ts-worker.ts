/**
 * Prints the project's TypeScript (typescript-files.ts) in a worker thread that starts loading
 * ts-morph at once (it bundles the TypeScript compiler: a CPU-second or so on a busy machine), so
 * that the load overlaps the load/ir/plan stages and the printing overlaps the emit of the data
 * files and their formatting on the main thread. `print` never rejects: a failed worker falls back
 * to printing in this thread.
 */
import { Worker } from "node:worker_threads";
import { distUrl } from "../package-root.js";
import { printTypeScript, type PrintedTypeScript, type TypeScriptInput } from "./typescript-files.js";

/** The worker thread of one generation. */
export class TypeScriptWorker {
  private readonly worker = new Worker(distUrl("generator/emit/ts-worker-thread.js"));
  private used = false;

  constructor() {
    // A generation that fails before `print` must not be kept alive by the thread.
    this.worker.unref();
  }

  /** The project's TypeScript files and operation declarations for `input`. */
  print(input: TypeScriptInput): Promise<PrintedTypeScript> {
    this.used = true;
    return new Promise<PrintedTypeScript>((resolve) => {
      let done = false;
      const finish = (value: PrintedTypeScript | undefined) => {
        if (done) return;
        done = true;
        void this.worker.terminate();
        resolve(value ?? printTypeScript(input));
      };
      this.worker.once("message", (value: PrintedTypeScript) => finish(value));
      this.worker.once("error", () => finish(undefined));
      this.worker.once("exit", () => finish(undefined));
      this.worker.postMessage(input);
    });
  }

  /** Ends the thread if it was never given anything to print. */
  stop(): void {
    if (!this.used) void this.worker.terminate();
  }
}
