/**
 * Inbound rate limits shared through a real Redis (redis-server from Debian, on a free loopback
 * port): two instances of one server, each with its own Redis connection, share one subject's
 * bucket (a burst split across both never passes the limit), another subject's calls pass on both,
 * and with Redis stopped the limit fails open (calls pass, one warning logged).
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs redis-server (scripts/setup-scale.js installs it with apt-get).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import type { McpServer } from "../../runtime/src/server/server.js";
import type { StateStore } from "../../runtime/src/state/state.js";
import { openState } from "../../runtime/src/features/redis/index.js";
import { RETRY_AFTER_META } from "../../runtime/src/features/rate-limit/admission.js";
import type { Logger } from "../../runtime/src/protocol/logger.js";
import { info, sampleTools, startJsonUpstream, type Upstream } from "../support/runtime-fixture.js";
import { scaleBinaries, startRedis, type RedisHandle } from "../support/redis-fixture.js";
import { rateLimitedServer } from "../support/factories.js";

const STATE_SECRET = "state-secret-for-the-rate-limit-tests-0123456789";
let redis: RedisHandle;
let upstream: Upstream;
const instances: Array<{ server: McpServer; store: StateStore; warnings: string[] }> = [];

test.before(async () => {
  const { redis: binary } = await scaleBinaries();
  redis = await startRedis(binary);
  upstream = await startJsonUpstream();
  for (let i = 0; i < 2; i++) {
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, error() {}, warn: (message) => warnings.push(message) };
    const store = await openState(redis.url, { prefix: "mcp:rate-test:", secret: STATE_SECRET });
    const server = await rateLimitedServer(
      { "tool-rate-limit": ["10/min"] },
      { info, tools: sampleTools(), upstream: { baseUrl: upstream.baseUrl }, state: store, logger },
    );
    instances.push({ server, store, warnings });
  }
});

test.after(async () => {
  for (const { store } of instances) await store.close();
  await upstream?.close();
  await redis?.stop();
});

let nextId = 1;
function call(instance: number, scope: string): Promise<JsonRpcResponse | undefined> {
  return instances[instance]!.server.handle(
    { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "getPet", arguments: { petId: 1 } } },
    { scope, headers: {} },
  );
}
const refused = (answer: JsonRpcResponse | undefined) =>
  answer !== undefined && "result" in answer && (answer.result._meta as any)?.[RETRY_AFTER_META] !== undefined;

test("two instances share one subject's limit; another subject passes on both", async () => {
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => call(i % 2, "http:10.9.0.1")));
  const passed = answers.filter((answer) => !refused(answer));
  assert.is(passed.length, 10, "10 per minute across both instances");
  const other = await Promise.all(Array.from({ length: 6 }, (_, i) => call(i % 2, "http:10.9.0.2")));
  assert.ok(
    other.every((answer) => !refused(answer)),
    "another subject's calls pass",
  );
});

test("Redis stopped: the limit fails open, and says so once", async () => {
  await redis.stop();
  const answers = await Promise.all(Array.from({ length: 5 }, () => call(0, "http:10.9.0.1")));
  assert.ok(
    answers.every((answer) => answer && "result" in answer && !refused(answer)),
    JSON.stringify(answers[0]),
  );
  const warned = instances[0]!.warnings.filter((w) => w.startsWith("rate limits: not applied"));
  assert.is(warned.length, 1, instances[0]!.warnings.join("\n"));
});

test.run();
