/**
 * Worker thread of `EmitWorker`: loads ts-morph at once, then answers each job (validation, the
 * worker's files) in the order they come.
 */
import { parentPort } from "node:worker_threads";
import { validationFindings } from "../../load/validate.js";
import type { WorkerReply, WorkerRequest } from "./emit-worker.js";
import { loadTsMorph } from "../typescript/ts-morph.js";
import { formattedWorkerOutput } from "./worker-files.js";
import { warmFormatter } from "../format.js";

loadTsMorph();
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
