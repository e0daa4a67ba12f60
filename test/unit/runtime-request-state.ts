import { test } from "uvu";
import * as assert from "uvu/assert";
import { StateSealer } from "../../runtime/src/features/input-requests/state-sealer.js";

const binding = { method: "tools/call", target: "deletePet" };

test("a sealed state opens with the same binding and key", () => {
  const sealer = new StateSealer("secret");
  assert.equal(sealer.open(binding, sealer.seal(binding, { n: 1 })), { n: 1 });
  assert.equal(new StateSealer("secret").open(binding, sealer.seal(binding, "x")), "x", "shared secret: any instance");
});

test("tampered, foreign, expired or malformed states are -32602", () => {
  let now = 1_000;
  const sealer = new StateSealer("secret", 100, () => now);
  const token = sealer.seal(binding, { confirm: false });
  const [body, mac] = token.split(".");
  const forged = Buffer.from(
    JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), d: { confirm: true } }),
  ).toString("base64url");
  const cases: unknown[] = [`${forged}.${mac}`, `${body}.${mac}x`, "nodot", 42, `${body}.`];
  for (const bad of cases)
    assert.throws(
      () => sealer.open(binding, bad),
      (e: { code?: number }) => e.code === -32602,
      String(bad),
    );
  assert.throws(() => sealer.open({ method: "tools/call", target: "other" }, token), /another request/);
  assert.throws(() => new StateSealer("other").open(binding, token), /integrity/);
  now = 2_000;
  assert.throws(() => sealer.open(binding, token), /expired/);
  // A state the server kept itself (a task's next round) outlives the expiry, but nothing else.
  assert.equal(sealer.open(binding, token, true), { confirm: false });
  assert.throws(() => sealer.open(binding, `${forged}.${mac}`, true), /integrity/);
});

test.run();
