import { test } from "uvu";
import * as assert from "uvu/assert";
import { ResultLinks, resultOwner } from "../../runtime/src/server/result-links.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";
import { SealedStateStore } from "../../runtime/src/features/redis/state-seal.js";

const body = JSON.stringify([{ id: 1, body: "the complete body" }]);

test("a link is read back unchanged by its owner only; another session or subject is refused", async () => {
  const links = new ResultLinks(undefined);
  const owner = resultOwner({ subject: "alice", scope: "session:1" });
  const uri = (await links.save(owner, body, "application/json"))!;
  assert.match(uri, /^result:\/\/[A-Za-z0-9_-]{24}$/);
  assert.equal(await links.read(owner, uri), { uri, mimeType: "application/json", text: body });
  assert.is(await links.read(resultOwner({ subject: "alice", scope: "session:2" }), uri), undefined);
  assert.is(await links.read(resultOwner({ subject: "bob", scope: "session:1" }), uri), undefined);
  assert.is(await links.read(owner, "result://AAAAAAAAAAAAAAAAAAAAAAAA"), undefined);
  assert.is(await links.read(owner, "result://../../x"), undefined);
});

test("links expire, and a caller's oldest links go when its count or size allowance is full", async () => {
  const short = new ResultLinks(undefined, { ttlMs: 30, maxChars: 100, maxCount: 2 });
  const owner = resultOwner({ scope: "stdio" });
  const first = (await short.save(owner, "a".repeat(40), "text/plain"))!;
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.is(await short.read(owner, first), undefined, "expired");

  const bounded = new ResultLinks(undefined, { ttlMs: 60_000, maxChars: 100, maxCount: 2 });
  const one = (await bounded.save(owner, "1".repeat(40), "text/plain"))!;
  const two = (await bounded.save(owner, "2".repeat(40), "text/plain"))!;
  const three = (await bounded.save(owner, "3".repeat(40), "text/plain"))!;
  assert.is(await bounded.read(owner, one), undefined, "the oldest went for the count");
  assert.ok(await bounded.read(owner, two));
  const big = (await bounded.save(owner, "4".repeat(90), "text/plain"))!;
  assert.is(await bounded.read(owner, two), undefined, "older ones went for the size");
  assert.is(await bounded.read(owner, three), undefined);
  assert.ok(await bounded.read(owner, big));
  assert.is(await bounded.save(owner, "5".repeat(101), "text/plain"), undefined, "larger than the allowance");
});

test("across instances through the shared store, sealed: another instance reads it, the store never sees it in clear", async () => {
  const inner = new MemoryStateStore();
  const shared = new SealedStateStore(inner, "s".repeat(32));
  const owner = resultOwner({ subject: "alice", scope: "session:1" });
  const uri = (await new ResultLinks(shared).save(owner, body, "application/json"))!;
  const other = new ResultLinks(shared);
  assert.equal(await other.read(owner, uri), { uri, mimeType: "application/json", text: body });
  assert.is(await other.read(resultOwner({ subject: "mallory", scope: "session:1" }), uri), undefined);
  const raw = (inner as unknown as { values: Map<string, { value: string }> }).values;
  assert.ok(raw.size > 0);
  for (const [key, { value }] of raw) assert.not.ok(key.includes(uri.slice(9)) || value.includes("complete body"));
});

test.run();
