/**
 * Worker thread of `ValidationWorker`: compiles the OpenAPI 3.0 validator at once (the version of
 * most big specs; others compile on demand), then waits for the document's JSON text, validates it
 * and posts the findings.
 */
import { parentPort } from "node:worker_threads";
import { openApiValidator } from "./openapi-schema.js";
import { validationFindings } from "./validate.js";

openApiValidator("3.0");

parentPort!.once("message", async (json: string) => {
  parentPort!.postMessage(await validationFindings(JSON.parse(json) as Record<string, unknown>));
  parentPort!.close();
});
