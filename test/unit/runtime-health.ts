/**
 * Health endpoints of the HTTP transport: `/healthz` (alive) and `/readyz` (ready: the state store
 * reachable when there is one, not draining), public (no token, no user header, any Host), and
 * `main`'s wiring of the state store into readiness. Redis itself: test/e2e/health-redis.ts.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp } from "../../runtime/src/transport/http.js";
import { serveHealth } from "../../runtime/src/transport/http-health.js";
import { main } from "../../runtime/src/cli/main.js";
import type { Feature } from "../../runtime/src/cli/features.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";
import { info, sampleTools } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

const server = () =>
  new McpServer({
    ...apiFeatures,
    info,
    tools: sampleTools(),
    upstream: { baseUrl: "http://127.0.0.1:9", timeoutMs: 1000 },
  });

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

test("/healthz and /readyz answer without the user header or an allowed Host (the MCP endpoint refuses both); /readyz says why it is not ready", async () => {
  let reason: string | undefined;
  const options = {
    host: "127.0.0.1",
    port: 0,
    userHeader: "X-User",
    allowedHosts: ["mcp.example.com"],
    notReady: () => reason,
  };
  const handle = await startHttp(server(), options);
  const origin = `http://127.0.0.1:${handle.port}`;
  try {
    assert.equal(await get(`${origin}/healthz`), { status: 200, body: { status: "ok" } });
    assert.equal(await get(`${origin}/readyz`), { status: 200, body: { status: "ready" } });
    const head = await fetch(`${origin}/readyz`, { method: "HEAD" });
    assert.is(head.status, 200);
    reason = "the state store is unreachable";
    assert.equal(await get(`${origin}/readyz`), {
      status: 503,
      body: { status: "not ready", reason: "the state store is unreachable" },
    });
    assert.is((await get(`${origin}/healthz`)).status, 200, "alive while not ready");
    const post = await fetch(`${origin}/healthz`, { method: "POST" });
    assert.is(post.status, 405);
    // fetch sends Host 127.0.0.1:<port>, which is not allowed: the MCP endpoint refuses it.
    assert.is((await fetch(`${origin}/mcp`, { method: "POST" })).status, 403);
  } finally {
    await handle.close();
  }
});

test("draining (what SIGTERM starts): /readyz answers 503 'draining', /healthz still 200", async () => {
  // The transport stops listening when it drains (new probes are refused); a probe that reached it
  // before gets this answer. The drain of a real process under SIGTERM: test/e2e/health-redis.ts.
  let draining = false;
  const http = createServer((req, res) =>
    serveHealth(req, res, (req.url ?? "/").split("?")[0]!, { draining: () => draining }),
  );
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  try {
    assert.is((await get(`${origin}/readyz`)).status, 200);
    draining = true;
    assert.equal(await get(`${origin}/readyz`), { status: 503, body: { status: "draining" } });
    assert.equal(await get(`${origin}/healthz`), { status: 200, body: { status: "ok" } });
  } finally {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

test("main: /readyz follows the state store a feature opened (503 while it is unavailable)", async () => {
  let up = true;
  const store = Object.assign(new MemoryStateStore(), { available: () => up });
  const shared: Feature = { name: "redis", plugs: () => ({ state: store }) };
  const handle = await main(info, sampleTools(), ["--http", "--host", "127.0.0.1", "--port", "0"], {
    features: [shared],
  });
  assert.ok(handle && "port" in handle, "started");
  const origin = `http://127.0.0.1:${(handle as { port: number }).port}`;
  try {
    assert.is((await get(`${origin}/readyz`)).status, 200);
    up = false;
    const down = await get(`${origin}/readyz`);
    assert.is(down.status, 503);
    assert.match(down.body.reason, "state store");
    assert.is((await get(`${origin}/healthz`)).status, 200);
  } finally {
    await handle!.close();
  }
});

test.run();
