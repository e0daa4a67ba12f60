/**
 * Worker thread of `EmitWorker`: loads ts-morph at once, then waits for the input, makes the
 * worker's files (worker-files.ts) and posts them.
 */
import { parentPort } from "node:worker_threads";
import { loadTsMorph } from "./ts-morph.js";
import { workerOutput, type WorkerInput } from "./worker-files.js";

loadTsMorph();

parentPort!.once("message", (input: WorkerInput) => {
  parentPort!.postMessage(workerOutput(input));
  parentPort!.close();
});
