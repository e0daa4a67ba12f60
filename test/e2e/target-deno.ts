/**
 * The Deno target on the real Deno (pinned in tools/runtimes): petstore generated with
 * `--target deno` and built with its own `npm run build`, served by `npm run dev:deno`
 * (`Deno.serve` at http://127.0.0.1:$PORT/mcp, API_BASE_URL from the environment) to SDK 1.x and
 * 2.x clients against a local upstream, scored by `mcp-gen check`, and the conformance suite's
 * server scenarios on the conformance project compared with Node's on the same project.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs the pinned runtimes (scripts/setup-runtimes.js) and conformance suite (scripts/setup-conformance.js).
 */
import { test } from "uvu";
import { targetTests } from "../support/target-e2e.js";

targetTests(test, {
  target: "deno",
  artifacts: ["deno.json", "dist/deno.js"],
  differences: {},
  conformanceWith: ["tasks"],
});

test.run();
