/**
 * The in-memory state store (the default) keeps the shared store's semantics: expiry, create-if-
 * absent, compare-and-set, asynchronous pub/sub; and store URLs other than redis:// are refused.
 * The Redis store and the instances sharing it: test/e2e/state-redis.ts.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";
import { openState } from "../../runtime/src/features/redis/index.js";
import { SessionStore, sessionOwner } from "../../runtime/src/features/sessions/session-store.js";
import { SealedStateStore } from "../../runtime/src/features/redis/state-seal.js";

const SECRET = "a-secret-of-at-least-32-characters-0123";

/** A memory store that shows what was written to it, as Redis MONITOR would. */
class Recorded extends MemoryStateStore {
  readonly written = new Map<string, string>();
  readonly published: string[] = [];
  override async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.written.set(key, value);
    await super.set(key, value, ttlMs);
  }
  override async publish(channel: string, message: string): Promise<void> {
    this.published.push(message);
    await super.publish(channel, message);
  }
}

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
  for (const url of ["http://127.0.0.1:6379", "memcached://x", "nonsense"]) {
    try {
      await openState(url, {});
      assert.unreachable(`${url} accepted`);
    } catch (error) {
      assert.match((error as Error).message, /unsupported state store URL scheme/);
    }
  }
});

test("SealedStateStore: values and messages encrypted, key names hashed; tampered, moved or foreign records read as absent and are reported", async () => {
  // Issue 30, finding 6 and "Done when": shared state encrypted at rest, validated when read, keys derived.
  const inner = new Recorded();
  const invalid: string[] = [];
  const sealed = new SealedStateStore(inner, SECRET, (what) => invalid.push(what));
  const sessionId = "0123456789abcdef0123456789abcdef";
  await sealed.set(`session:${sessionId}`, '{"result":"a visible answer"}', 10_000);
  assert.is(await sealed.get(`session:${sessionId}`), '{"result":"a visible answer"}');
  const [[name, stored]] = [...inner.written] as [[string, string]];
  assert.match(name, /^session:[A-Za-z0-9_-]{43}$/);
  assert.not.match(name, sessionId);
  assert.not.match(stored, /visible|result/);
  assert.not.match(Buffer.from(stored, "base64").toString("latin1"), /visible/);

  // Tampered: one byte of the ciphertext flipped.
  const bytes = Buffer.from(stored, "base64");
  bytes[bytes.length - 1]! ^= 1;
  await inner.set(name, bytes.toString("base64"), 10_000);
  assert.is(await sealed.get(`session:${sessionId}`), undefined);
  // Written in the clear by someone without the secret.
  await inner.set(name, '{"version":"2025-06-18"}', 10_000);
  assert.is(await sealed.get(`session:${sessionId}`), undefined);
  // A valid record moved under another key.
  await sealed.set("task:one", "first", 10_000);
  const firstName = [...inner.written.keys()].find((key) => key.startsWith("task:"))!;
  await sealed.set("task:two", "second", 10_000);
  const secondName = [...inner.written.keys()].find((key) => key.startsWith("task:") && key !== firstName)!;
  await inner.set(secondName, inner.written.get(firstName)!, 10_000);
  assert.is(await sealed.get("task:two"), undefined);
  // Another secret reads nothing.
  assert.is(await new SealedStateStore(inner, `${SECRET}-other`).get("task:one"), undefined);
  assert.equal(invalid, ["a stored session record", "a stored session record", "a stored task record"]);

  // Compare-and-set on the plain values.
  assert.not.ok(await sealed.replace("task:one", "wrong", "x"));
  assert.ok(await sealed.replace("task:one", "first", "third"));
  assert.is(await sealed.get("task:one"), "third");

  // Messages: sealed on the wire; a forged one is dropped.
  const heard: string[] = [];
  await sealed.subscribe("broadcast", (message) => heard.push(message));
  await sealed.publish("broadcast", '{"type":"cancel","secretish":"payload"}');
  await inner.publish("broadcast", '{"type":"cancel","forged":true}');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(heard, ['{"type":"cancel","secretish":"payload"}']);
  assert.not.match(inner.published[0]!, /payload/);
  assert.is(invalid.at(-1), "a message on channel:broadcast");
  assert.throws(() => new SealedStateStore(inner, "short"), /at least 32 characters/);
});

test("the redis feature refuses a Redis URL without MCP_STATE_SECRET (or with a short one) before connecting", async () => {
  for (const secret of [undefined, "", "too-short"]) {
    const started = Date.now();
    try {
      await openState("redis://127.0.0.1:1/0", secret === undefined ? {} : { secret });
      assert.unreachable("opened without a secret");
    } catch (error) {
      assert.match((error as Error).message, /needs MCP_STATE_SECRET \(at least 32 characters/);
    }
    assert.ok(Date.now() - started < 1_000, "refused before any connection attempt");
  }
});

test("SessionStore: records are checked when read; a session with an owner is found (and deleted) only by that owner", async () => {
  const store = new MemoryStateStore();
  const sessions = new SessionStore(store);
  const alice = sessionOwner("https://issuer.example", "alice");
  const id = await sessions.create({ version: "2025-06-18", clientCapabilities: {}, owner: alice });
  assert.is(await sessions.get(id), undefined, "no token: not the owner");
  assert.is(await sessions.get(id, sessionOwner("https://issuer.example", "bob")), undefined);
  assert.is(
    await sessions.get(id, sessionOwner("https://other.example", "alice")),
    undefined,
    "same subject, other issuer",
  );
  assert.not.ok(await sessions.delete(id, sessionOwner("https://issuer.example", "bob")));
  assert.is((await sessions.get(id, alice))!.owner, alice);
  // Records with a field out of its range are not served.
  for (const bad of [
    { version: "2025-06-18", clientCapabilities: {}, logLevel: "loud", at: Date.now() },
    { version: "2099-01-01", clientCapabilities: {}, at: Date.now() },
    { version: "2025-06-18", clientCapabilities: {}, owner: 7, at: Date.now() },
    { version: "2025-06-18", clientCapabilities: {} },
  ]) {
    await store.set(`session:${id}`, JSON.stringify(bad), 10_000);
    assert.is(await sessions.get(id, (bad as { owner?: string }).owner), undefined, JSON.stringify(bad));
  }
});

test.run();
