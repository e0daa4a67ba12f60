/**
 * Worker thread of `ValidationWorker`: loads the validator at once, then waits for the document's
 * JSON text, validates it and posts the findings.
 */
import { parentPort } from "node:worker_threads";
import { loadSchemaValidator, validationFindings } from "./validate.js";

loadSchemaValidator();

parentPort!.once("message", async (json: string) => {
  parentPort!.postMessage(await validationFindings(JSON.parse(json) as Record<string, unknown>));
  parentPort!.close();
});
