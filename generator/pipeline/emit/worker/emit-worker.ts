/**
 * The pipeline's worker thread. It starts loading ts-morph at once (it bundles the TypeScript
 * compiler), then does two jobs the main thread would otherwise do, in the order they come:
 * - validation of the loaded document (load/validate.ts), sent as the JSON text the pipeline
 *   writes anyway (data/openapi.json) right after the load stage: the thread has little else to do
 *   until the plan is ready, while the main thread is busy throughout;
 * - the emit worker's files (worker-files.ts: the project's TypeScript, the operation
 *   declarations, the search index), whose printing and indexing overlap the emit of the other
 *   files and their formatting on the main thread.
 * What the thread cannot answer (it failed, or was stopped) is done in this thread instead, so a
 * job's promise rejects only when that fails too.
 */
import { Worker } from "node:worker_threads";
import type { Diagnostic } from "../../../shared/diagnostics.js";
import { distUrl } from "../../../shared/package-root.js";
import { formattedWorkerOutput, type WorkerInput, type WorkerOutput } from "./worker-files.js";

/** A job for the thread. */
export type WorkerRequest = { kind: "validate"; document: string } | { kind: "emit"; input: WorkerInput };
/** The thread's answer to a job. */
export type WorkerReply = { kind: "validate"; findings: Diagnostic[] } | { kind: "emit"; output: WorkerOutput };

type Kind = WorkerRequest["kind"];

/** The worker thread of one generation. */
export class EmitWorker {
  private readonly worker = new Worker(distUrl("generator/pipeline/emit/worker/emit-worker-thread.js"));
  /** Each asked job's settle function: the reply, or undefined for "do it here". */
  private readonly pending = new Map<Kind, (reply: WorkerReply | undefined) => void>();
  private emitting = false;
  /** The thread failed or was stopped: a job asked from now on is done in this thread at once. */
  private ended = false;
  /** Settles when the thread has exited (stopped, or failed). */
  readonly exited: Promise<void>;

  constructor() {
    // A generation that fails before its last job must not be kept alive by the thread.
    this.worker.unref();
    this.worker.on("message", (reply: WorkerReply) => this.settle(reply.kind, reply));
    const failed = () => {
      this.ended = true;
      for (const kind of [...this.pending.keys()]) this.settle(kind, undefined);
    };
    this.worker.once("error", failed);
    this.exited = new Promise((resolve) =>
      this.worker.once("exit", () => {
        failed();
        resolve();
      }),
    );
  }

  /** Validation findings of the document whose JSON text is `document`; `here` validates in this thread. */
  validate(document: string, here: () => Promise<Diagnostic[]>): Promise<Diagnostic[]> {
    return this.ask({ kind: "validate", document }, (reply) => (reply?.kind === "validate" ? reply.findings : here()));
  }

  /** The worker's files for `input`, formatted. The thread ends once it has answered every job. */
  run(input: WorkerInput): Promise<WorkerOutput> {
    this.emitting = true;
    return this.ask({ kind: "emit", input }, (reply) =>
      reply?.kind === "emit" ? reply.output : formattedWorkerOutput(input),
    );
  }

  /** Ends the thread; a job it has not answered is done in this thread. */
  stop(): void {
    void this.worker.terminate();
  }

  /** One job of each kind per generation (a second of the same kind would take the first's place). */
  private ask<T>(request: WorkerRequest, answer: (reply: WorkerReply | undefined) => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const settle = (reply: WorkerReply | undefined) => {
        try {
          resolve(answer(reply));
        } catch (error) {
          reject(error);
        }
      };
      // A message to an ended thread is never answered (nor does its exit come again).
      if (this.ended) return settle(undefined);
      this.pending.set(request.kind, settle);
      this.worker.postMessage(request);
    });
  }

  private settle(kind: Kind, reply: WorkerReply | undefined): void {
    const settle = this.pending.get(kind);
    if (!settle) return;
    this.pending.delete(kind);
    if (this.emitting && this.pending.size === 0) void this.worker.terminate();
    settle(reply);
  }
}
