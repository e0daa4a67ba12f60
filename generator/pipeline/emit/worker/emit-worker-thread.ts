/**
 * Worker thread of `EmitWorker`: warms the formatter at once, then answers each job (validation,
 * the worker's files) in the order they come. ts-morph is loaded only by a project that needs it
 * (feature `custom`, typescript-files.ts), when it prints.
 */
import { parentPort } from "node:worker_threads";
import { validationFindings } from "../../load/validate.js";
import type { WorkerReply, WorkerRequest } from "./emit-worker.js";
import { formattedWorkerOutput } from "./worker-files.js";
import { warmFormatter } from "../format.js";

// Ready before the plan is (the thread formats its TypeScript files, formattedWorkerOutput).
const formatter = warmFormatter();

parentPort!.on("message", (request: WorkerRequest) => {
  if (request.kind === "validate") {
    void validationFindings(JSON.parse(request.document) as Record<string, unknown>).then((findings) =>
      reply({ kind: "validate", findings }),
    );
  } else {
    void formatter.then(() => formattedWorkerOutput(request.input)).then((output) => reply({ kind: "emit", output }));
  }
});

function reply(message: WorkerReply): void {
  parentPort!.postMessage(message);
}
