/**
 * Makes the emit worker's files (worker-files.ts: the project's TypeScript, the operation
 * declarations, the search index) in a worker thread that starts loading ts-morph at once (it
 * bundles the TypeScript compiler: a CPU-second or so on a busy machine), so that the load overlaps
 * the load/ir/plan stages and the printing and indexing overlap the emit of the other files and
 * their formatting on the main thread (which a big API keeps busy throughout). `run` never rejects:
 * a failed worker falls back to making them in this thread.
 */
import { Worker } from "node:worker_threads";
import { distUrl } from "../package-root.js";
import { workerOutput, type WorkerInput, type WorkerOutput } from "./worker-files.js";

/** The worker thread of one generation. */
export class EmitWorker {
  private readonly worker = new Worker(distUrl("generator/emit/emit-worker-thread.js"));
  private used = false;

  constructor() {
    // A generation that fails before `run` must not be kept alive by the thread.
    this.worker.unref();
  }

  /** The worker's output for `input`. */
  run(input: WorkerInput): Promise<WorkerOutput> {
    this.used = true;
    return new Promise<WorkerOutput>((resolve) => {
      let done = false;
      const finish = (value: WorkerOutput | undefined) => {
        if (done) return;
        done = true;
        void this.worker.terminate();
        resolve(value ?? workerOutput(input));
      };
      this.worker.once("message", (value: WorkerOutput) => finish(value));
      this.worker.once("error", () => finish(undefined));
      this.worker.once("exit", () => finish(undefined));
      this.worker.postMessage(input);
    });
  }

  /** Ends the thread if it was never given anything to do. */
  stop(): void {
    if (!this.used) void this.worker.terminate();
  }
}
