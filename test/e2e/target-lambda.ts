/**
 * The AWS Lambda target on serverless-offline (Serverless Framework v3, pinned in tools/runtimes),
 * which runs the handler as Lambda's Node.js runtime does behind an API Gateway HTTP API (payload
 * 2.0): petstore generated with `--target lambda` and built with its own `npm run build`, served by
 * `npm run dev:lambda` at http://127.0.0.1:$PORT/mcp (API_BASE_URL from the environment, through
 * serverless.yml) to SDK 1.x and 2.x clients against a local upstream, scored by `mcp-gen check`,
 * and the conformance suite's server scenarios compared with Node's on the same project.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs the pinned runtimes (scripts/setup-runtimes.js) and conformance suite (scripts/setup-conformance.js).
 */
import { test } from "uvu";
import { targetTests } from "../support/target-e2e.js";

/** Why the client's answer to a server request never reaches the call that asked (revision 2025-11-25 clients). */
const ONE_REQUEST_PER_INSTANCE =
  "Lambda runs one request per instance at a time: while a call waits for the client's answer to its " +
  "sampling or elicitation request, that answer (another POST) starts another instance, which knows " +
  "nothing of the call, and the buffered answer cannot carry the request to the client before the call ends";
/** Why the 2026-07-28 subscriptions/listen stream fails. */
const NO_OPEN_STREAM =
  "subscriptions/listen is a stream that stays open; an API Gateway integration answers once, when the " +
  "invocation ends (a function URL in RESPONSE_STREAM mode streams, which serverless-offline does not emulate)";

/** Why a legacy client's earlier requests may not count (revision 2025-11-25 clients). */
const PER_INSTANCE_MEMORY =
  "what a 2025-11-25 client said in an earlier request (its capabilities in initialize, its log level in " +
  "logging/setLevel) lives in the memory of the instance that received it; a later request served by " +
  "another instance (Lambda starts one per concurrent request) does not see it";

targetTests(test, {
  target: "lambda",
  artifacts: ["serverless.yml", "dist/lambda.js"],
  // Tasks outlive their request, which Lambda does not allow (MG207): the conformance project has none.
  differences: {
    "tools-call-sampling": ONE_REQUEST_PER_INSTANCE,
    "elicitation-sep1034-general": ONE_REQUEST_PER_INSTANCE,
    "elicitation-sep1330-general": ONE_REQUEST_PER_INSTANCE,
    "sep-2575-server-sends-subscription-ack": NO_OPEN_STREAM,
    "sep-2575-server-tags-subscription-id": NO_OPEN_STREAM,
    "sep-2575-server-honors-notification-filter": NO_OPEN_STREAM,
  },
  mayDiffer: {
    "scenario-timeout": `tools-call-elicitation may wait for its answer until the suite gives up: ${ONE_REQUEST_PER_INSTANCE}`,
    "tools-call-elicitation": `${ONE_REQUEST_PER_INSTANCE} (it fails on its own check or by timeout)`,
    "tools-call-with-logging": PER_INSTANCE_MEMORY,
  },
});

test.run();
