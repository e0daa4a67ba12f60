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

targetTests(test, { target: "lambda", artifacts: ["serverless.yml", "dist/lambda.js"], differences: {} });

test.run();
