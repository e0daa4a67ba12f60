import { suite } from "uvu";
import { UPSTREAM_CLIENTS } from "../support/upstream-clients.js";
import * as assert from "uvu/assert";
import { textResult } from "../../runtime/src/api/tool-outcome.js";
import { callUpstream } from "../../runtime/src/upstream/upstream.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { startUpstream } from "../support/runtime-fixture.js";

const tool = (method: "get" | "post"): ToolDefinition => ({
  name: `t_${method}`,
  description: "d",
  inputSchema: { type: "object", properties: {} },
  http: { method, path: "/flaky", parameters: [], response: { accept: ["application/json"] } },
});

// Every test runs once per upstream client (got, fetch): the same behaviour is asked of both.
for (const { name: clientName, client } of UPSTREAM_CLIENTS) {
  const test = suite(`${clientName} client`);

  test("idempotent methods are retried on 503 (bounded); POST is not", async () => {
    let count = 0;
    let down = false;
    const upstream = await startUpstream(() =>
      down || ++count % 2 === 1
        ? { status: 503, body: "busy" }
        : { status: 200, headers: { "content-type": "application/json" }, body: '{"ok":true}' },
    );
    try {
      const call = {
        upstream: { client, baseUrl: upstream.baseUrl },
        userAgent: "t",
        validator: new SchemaValidator(),
      };
      const ok = await callUpstream(tool("get"), {}, call);
      assert.not.ok(ok.isError, JSON.stringify(ok));
      assert.is(upstream.received.length, 2);
      count = 0;
      const post = await callUpstream(tool("post"), {}, call);
      assert.is(post.isError, true);
      assert.match((post.content[0] as { text: string }).text, /HTTP 503/);
      assert.is(upstream.received.length, 3);
      down = true;
      const exhausted = await callUpstream(
        tool("get"),
        {},
        { ...call, upstream: { client, baseUrl: upstream.baseUrl, retries: 1 } },
      );
      assert.equal(exhausted.isError, textResult("x", true).isError);
      assert.is(upstream.received.length, 5, "one retry, then the 503 is the result");
    } finally {
      await upstream.close();
    }
  });

  test.run();
}
