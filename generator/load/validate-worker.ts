/** Worker thread of `validateInBackground`: parses the JSON text it is given, validates it, posts the findings. */
import { parentPort, workerData } from "node:worker_threads";
import { validationFindings } from "./validate.js";

parentPort!.postMessage(await validationFindings(JSON.parse(workerData as string) as Record<string, unknown>));
