/**
 * A server process for test/e2e/health-redis.ts: the runtime's `main` with the sample tools and the
 * features `redis`, `state` and `sessions`, started with the arguments it is given (as a generated
 * server's entry point starts). No tests here.
 */
import { main } from "../../runtime/src/cli/main.js";
import { redis } from "../../runtime/src/features/redis/index.js";
import { sessions } from "../../runtime/src/features/sessions/index.js";
import { state } from "../../runtime/src/features/state/index.js";
import { pathToFileURL } from "node:url";
import { info, sampleTools } from "./runtime-fixture.js";

// Only when run as a program: a test runner loading every file of the folder must not start it.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  await main(info, sampleTools(), process.argv.slice(2), { features: [redis, sessions, state] });
