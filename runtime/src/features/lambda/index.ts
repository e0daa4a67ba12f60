/**
 * Feature `lambda`: the server as an AWS Lambda function (`--target lambda`). The entry wraps
 * {@link serveFetch}'s handler in the adapters of lambda-handler.ts (API Gateway HTTP API and function
 * URL events to Web requests and back) and plugs this feature, which keeps got for upstream calls:
 * Lambda runs Node.js, where got is the server's client, so the platform `fetch` the fetch feature
 * plugs is replaced.
 */
import type { Feature } from "../../cli/features.js";
import { gotClient } from "../../upstream/got-client.js";

export { bufferedHandler, streamingHandler, type LambdaStreaming } from "./lambda-handler.js";
export type { LambdaHttpEvent, LambdaHttpResult } from "./lambda-event.js";

/** The feature as `serveFetch`'s features list takes it (after `fetch`, so its client wins). */
export const lambda: Feature = {
  name: "lambda",
  plugs: () => ({ upstreamClient: gotClient }),
};
