#!/usr/bin/env node
// The long fuzz run (issue 10): 100,000 JSON-RPC messages (half over stdio, half over HTTP) against
// the generated petstore server, 1,000 hostile search and code-mode calls against its code surface
// (issue 30), and 400 mutated hostile specs through the generator. Seeded: FUZZ_SEED=<n> picks
// another run; FUZZ_MESSAGES / FUZZ_CODE / FUZZ_SPECS change the sizes. Run after `npm run build`.
import { spawnSync } from "node:child_process";

const env = {
  ...process.env,
  FUZZ_MESSAGES: process.env.FUZZ_MESSAGES ?? "100000",
  FUZZ_CODE: process.env.FUZZ_CODE ?? "1000",
  FUZZ_SPECS: process.env.FUZZ_SPECS ?? "400",
};
const result = spawnSync(process.execPath, ["node_modules/uvu/bin.js", "dist/test/e2e", "^fuzz-.*\\.js$"], {
  stdio: "inherit",
  env,
});
process.exit(result.status ?? 1);
