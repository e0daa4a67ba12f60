/**
 * Worker thread of `DeclarationsWorker`: loads ts-morph at once, then waits for the tools, prints
 * their declarations and posts them.
 */
import { parentPort } from "node:worker_threads";
import { loadTsMorph, operationDeclarations, type DeclarationSource } from "./declarations.js";

loadTsMorph();

parentPort!.once("message", (tools: DeclarationSource[]) => {
  parentPort!.postMessage(operationDeclarations(tools));
  parentPort!.close();
});
