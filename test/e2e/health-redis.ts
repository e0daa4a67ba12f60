/**
 * Health with a real Redis and a real SIGTERM: `/readyz` answers 503 while the shared state store
 * is unreachable (Redis stopped) and 200 again once it is back, while `/healthz` stays 200; a server
 * process draining after SIGTERM is not ready (its listener closed, or 503 "draining") while the
 * call in flight still completes; and a token-vault record put back in Redis after sign-out does
 * not open.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs redis-server (scripts/setup-scale.js installs it with apt-get).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { main } from "../../runtime/src/cli/main.js";
import { openState, redis as redisFeature } from "../../runtime/src/features/redis/index.js";
import { sessions } from "../../runtime/src/features/sessions/index.js";
import { state } from "../../runtime/src/features/state/index.js";
import { RecordSeal } from "../../runtime/src/features/user-oauth/seal.js";
import { TokenVault } from "../../runtime/src/features/user-oauth/vault.js";
import { info, sampleTools, startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { scaleBinaries, startRedis, waitFor, type RedisHandle } from "../support/redis-fixture.js";

const STATE_SECRET = "state-secret-for-the-health-tests-0123456789";
let redis: RedisHandle;
let upstream: Upstream;

test.before(async () => {
  redis = await startRedis((await scaleBinaries()).redis);
  upstream = await startUpstream((r) =>
    r.url.includes("/slow") ? { status: 200, body: "{}", delayMs: 1_500 } : { status: 404 },
  );
});
test.after(async () => {
  await upstream.close();
  await redis.stop();
});

const status = (url: string) =>
  fetch(url).then(
    (response) => response.status,
    () => 0, // refused: nobody listens
  );

test("Redis stopped: /readyz 503 naming the state store, /healthz 200; Redis back: /readyz 200", async () => {
  const saved = process.env.MCP_STATE_SECRET;
  process.env.MCP_STATE_SECRET = STATE_SECRET;
  const handle = await main(
    info,
    sampleTools(),
    ["--http", "--host", "127.0.0.1", "--port", "0", "--state", redis.url, "--base-url", upstream.baseUrl],
    { features: [redisFeature, sessions, state] },
  );
  assert.ok(handle && "port" in handle, "started");
  const origin = `http://127.0.0.1:${(handle as { port: number }).port}`;
  try {
    assert.is(await status(`${origin}/readyz`), 200);
    await redis.stop();
    await waitFor(async () => (await status(`${origin}/readyz`)) === 503, 10_000);
    const body = (await (await fetch(`${origin}/readyz`)).json()) as { reason: string };
    assert.match(body.reason, "state store is unreachable");
    assert.is(await status(`${origin}/healthz`), 200, "alive while Redis is down");
    await redis.start();
    await waitFor(async () => (await status(`${origin}/readyz`)) === 200, 15_000);
  } finally {
    await handle!.close();
    if (saved === undefined) delete process.env.MCP_STATE_SECRET;
    else process.env.MCP_STATE_SECRET = saved;
  }
});

test("SIGTERM: the draining process is not ready (refused or 503) while its call in flight completes, then exits 0", async () => {
  const script = fileURLToPath(new URL("../support/health-server.js", import.meta.url));
  const child = spawn(
    process.execPath,
    [
      script,
      "--http",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--base-url",
      upstream.baseUrl,
      "--shutdown-grace",
      "5000",
    ],
    { env: { ...process.env, MCP_STATE_URL: "" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+\/mcp/.test(stderr), 10_000);
    const origin = /listening on (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(stderr)![1]!;
    assert.is(await status(`${origin}/readyz`), 200);
    const call = fetch(`${origin}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "slow", arguments: {} },
      }),
    });
    await waitFor(() => upstream.received.some((r) => r.url.includes("/slow")), 5_000);
    child.kill("SIGTERM");
    await waitFor(() => stderr.includes("shutting down"), 5_000);
    const ready = await status(`${origin}/readyz`);
    assert.ok(ready === 503 || ready === 0, `not ready while draining (got ${ready})`);
    const answered = await call;
    assert.is(answered.status, 200, "the call in flight completed");
    assert.is(await exited, 0);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
});

test("the token vault on Redis: a record put back after sign-out does not open", async () => {
  const store = await openState(redis.url, { prefix: "mcp:health-vault:", secret: STATE_SECRET });
  try {
    const vault = new TokenVault(store, new RecordSeal("a-vault-secret-of-at-least-32-characters!"));
    await vault.put("alice", "upstream", { access: "alice-token", scopes: [], expiresAt: Date.now() + 60_000 });
    const name = "user-oauth:vault:alice:upstream";
    const saved = (await store.get(name))!;
    assert.ok(saved, "the record is in Redis");
    assert.is((await vault.get("alice", "upstream"))?.access, "alice-token");
    await vault.signOut("alice", ["upstream"]);
    await store.set(name, saved, 60_000);
    assert.is(await vault.get("alice", "upstream"), undefined);
  } finally {
    await store.close();
  }
});

test.run();
