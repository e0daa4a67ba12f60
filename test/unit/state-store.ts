/**
 * The in-memory state store (the default) keeps the shared store's semantics: expiry, create-if-
 * absent, compare-and-set, asynchronous pub/sub; and store URLs other than redis:// are refused.
 * The Redis store and the instances sharing it: test/e2e/state-redis.ts.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { MemoryStateStore } from "../../runtime/src/state/state.js";
import type { FeaturePlugs } from "../../runtime/src/cli/features.js";
import { redis } from "../../runtime/src/features/redis/index.js";
import { SessionStore } from "../../runtime/src/transport/sessions.js";

test("MemoryStateStore: values expire, create only when absent, replace only while unchanged, delete reports existence", async () => {
  let now = 1_000;
  const store = new MemoryStateStore(() => now);
  assert.not.ok(store.shared);
  assert.ok(store.available());
  await store.set("a", "1", 100);
  assert.is(await store.get("a"), "1");
  assert.not.ok(await store.create("a", "2", 100));
  assert.not.ok(await store.replace("a", "x", "3"));
  assert.ok(await store.replace("a", "1", "3"));
  assert.is(await store.get("a"), "3");
  now += 100;
  assert.is(await store.get("a"), undefined, "expired");
  assert.ok(await store.create("a", "4", 50));
  assert.ok(await store.delete("a"));
  assert.not.ok(await store.delete("a"));
});

test("MemoryStateStore: published messages reach every subscriber of the channel, after the publisher returns", async () => {
  const store = new MemoryStateStore();
  const heard: string[] = [];
  await store.subscribe("c", (message) => heard.push(`1:${message}`));
  await store.subscribe("c", (message) => heard.push(`2:${message}`));
  await store.subscribe("other", (message) => heard.push(`x:${message}`));
  const published = store.publish("c", "hello");
  assert.equal(heard, [], "never called from inside publish");
  await published;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(heard, ["1:hello", "2:hello"]);
  await store.close();
});

test("SessionStore over the memory store: create, read, save the log level, delete", async () => {
  const sessions = new SessionStore(new MemoryStateStore());
  const id = await sessions.create({ version: "2025-06-18", clientCapabilities: { elicitation: {} } });
  assert.match(id, /^[0-9a-f]{32}$/);
  const session = (await sessions.get(id))!;
  assert.equal(session, { version: "2025-06-18", clientCapabilities: { elicitation: {} } });
  session.logLevel = "warning";
  await sessions.save(id, session);
  assert.is((await sessions.get(id))!.logLevel, "warning");
  assert.ok(await sessions.delete(id));
  assert.is(await sessions.get(id), undefined);
});

test("the redis feature opens redis:// and rediss:// stores only; other schemes are refused", async () => {
  const { openState } = redis.plugs({
    flags: {},
    env: {},
    info: { name: "t", version: "1" },
    http: true,
  }) as FeaturePlugs;
  for (const url of ["http://127.0.0.1:6379", "memcached://x", "nonsense"]) {
    try {
      await openState!(url, {});
      assert.unreachable(`${url} accepted`);
    } catch (error) {
      assert.match((error as Error).message, /unsupported state store URL scheme/);
    }
  }
});

test.run();
