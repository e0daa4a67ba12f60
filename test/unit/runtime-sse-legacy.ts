import { test } from "uvu";
import * as assert from "uvu/assert";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp } from "../../runtime/src/transport/http.js";
import { info, sampleTools } from "../support/runtime-fixture.js";
import { sseEvents } from "../support/sse-events.js";
import { legacySseEndpoints, apiFeatures } from "../support/factories.js";

test("--legacy-sse: endpoint event, 202 + reply on the stream, unknown session 404, GET-only stream", async () => {
  const http = await startHttp(
    new McpServer({ ...apiFeatures, info, tools: sampleTools(), upstream: { baseUrl: "http://127.0.0.1:1" } }),
    { host: "127.0.0.1", port: 0, endpoints: [legacySseEndpoints] },
  );
  const base = `http://127.0.0.1:${http.port}`;
  const controller = new AbortController();
  try {
    const stream = await fetch(`${base}/sse`, { headers: { accept: "text/event-stream" }, signal: controller.signal });
    assert.is(stream.status, 200);
    const nextEvent = sseEvents(stream);
    const endpoint = /data: (\S+)/.exec(await nextEvent())![1]!;
    assert.match(endpoint, /^\/messages\?sessionId=[0-9a-f]{32}$/);
    const posted = await fetch(`${base}${endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    assert.is(posted.status, 202);
    await posted.arrayBuffer();
    assert.equal(JSON.parse(/data: (.*)/.exec(await nextEvent())![1]!), { jsonrpc: "2.0", id: 1, result: {} });
    const unknown = await fetch(`${base}/messages?sessionId=nope`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.is(unknown.status, 404);
    await unknown.arrayBuffer();
    const get = await fetch(`${base}/messages`);
    assert.is(get.status, 405);
    await get.arrayBuffer();
    const evil = await fetch(`${base}/sse`, { headers: { origin: "http://evil.example.com" } });
    assert.is(evil.status, 403);
    await evil.arrayBuffer();
  } finally {
    controller.abort();
    await http.close();
  }
});

test.run();
