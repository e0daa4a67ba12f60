/**
 * Runs `sampleArguments` in a worker thread with a memory cap: json-schema-faker can build huge
 * values on some recursive schemas (an oas-examples spec ran the runner out of its 4 GB heap), and
 * synchronous faking cannot be interrupted in the runner's own thread. A draw that runs out of
 * memory or time ends the worker; the call is then reported as unsampleable and a new worker
 * serves the next one.
 */
import { Worker, isMainThread, parentPort } from "node:worker_threads";
import { sampleArguments, type Sample } from "./sample.js";

/** Memory of the sampling worker's heap, in MB, and the time one tool's draws may take. */
const WORKER_HEAP_MB = 512;
const DRAW_TIMEOUT_MS = 20_000;

type Job = { id: number; inputSchema: object; seed: string };

let worker: Worker | undefined;
let nextId = 0;

/**
 * The seeded sample of `sampleArguments`, drawn in a capped worker (see the module comment);
 * `timeoutMs` bounds one tool's draws (default 20 s).
 */
export async function sampleInWorker(inputSchema: object, seed: string, timeoutMs = DRAW_TIMEOUT_MS): Promise<Sample> {
  if (!worker) {
    worker = new Worker(new URL(import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    // An idle worker must not keep the process alive (the pending draw's timer does while it runs).
    worker.unref();
  }
  const current = worker;
  const id = nextId++;
  return new Promise<Sample>((resolve) => {
    const finish = (sample: Sample, restart: boolean): void => {
      clearTimeout(timer);
      current.off("message", onMessage);
      current.off("exit", onExit);
      current.off("error", onError);
      if (restart) {
        if (worker === current) worker = undefined;
        void current.terminate();
      }
      resolve(sample);
    };
    const onMessage = (message: { id: number; sample: Sample }): void => {
      if (message.id === id) finish(message.sample, false);
    };
    const onError = (error: Error): void =>
      finish({ ok: false, problems: [`faker failed: ${error.message.slice(0, 200)}`] }, true);
    const onExit = (): void => finish({ ok: false, problems: ["faker ran out of memory"] }, true);
    const timer = setTimeout(
      () => finish({ ok: false, problems: [`faker took more than ${timeoutMs} ms`] }, true),
      timeoutMs,
    );
    current.on("message", onMessage);
    current.once("exit", onExit);
    current.once("error", onError);
    current.postMessage({ id, inputSchema, seed } satisfies Job);
  });
}

/** Ends the worker (the runner calls it when done, so the process can exit). */
export async function stopSampler(): Promise<void> {
  const current = worker;
  worker = undefined;
  await current?.terminate();
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on("message", (job: Job) => {
    void sampleArguments(job.inputSchema, job.seed).then((sample) => port.postMessage({ id: job.id, sample }));
  });
}
