/**
 * Worker thread of `TypeScriptWorker`: loads ts-morph at once, then waits for the input, prints the
 * project's TypeScript and posts it.
 */
import { parentPort } from "node:worker_threads";
import { loadTsMorph } from "./ts-morph.js";
import { printTypeScript, type TypeScriptInput } from "./typescript-files.js";

loadTsMorph();

parentPort!.once("message", (input: TypeScriptInput) => {
  parentPort!.postMessage(printTypeScript(input));
  parentPort!.close();
});
