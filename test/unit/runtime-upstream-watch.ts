/**
 * The upstream request watch (the slot feature `otel` uses): every watched request is ended once,
 * with its status and attempts when a response came, with its failure class when none did. Every
 * upstream is local (127.0.0.1).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { callUpstream } from "../../runtime/src/upstream/upstream.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import type { UpstreamRequestEnd, UpstreamTrace } from "../../runtime/src/upstream/trace.js";
import { startJsonUpstream } from "../support/runtime-fixture.js";

const tool: ToolDefinition = {
  name: "getPet",
  description: "d",
  inputSchema: { type: "object", properties: {} },
  http: { method: "get", path: "/pet", parameters: [], response: { accept: ["application/json"] } },
};

/** A trace that records how each request it watched ended. */
function recordingTrace(): { trace: UpstreamTrace; ends: UpstreamRequestEnd[] } {
  const ends: UpstreamRequestEnd[] = [];
  return { trace: { start: () => ({ headers: { traceparent: "t" }, end: (outcome) => ends.push(outcome) }) }, ends };
}

test("a watched request that got its response is ended with the status and one attempt", async () => {
  const upstream = await startJsonUpstream('{"id":1}');
  try {
    const { trace, ends } = recordingTrace();
    const call = { upstream: { baseUrl: upstream.baseUrl }, userAgent: "t", validator: new SchemaValidator(), trace };
    const result = await callUpstream(tool, {}, call);
    assert.not.ok(result.isError);
    assert.equal(ends, [{ status: 200, attempts: 1 }]);
    assert.is(upstream.received[0]?.headers.traceparent, "t");
  } finally {
    await upstream.close();
  }
});

test("a watched request that got no response is ended with its failure class, and the call is an error", async () => {
  const upstream = await startJsonUpstream();
  await upstream.close(); // nothing listens on its port any more
  const { trace, ends } = recordingTrace();
  const call = {
    upstream: { baseUrl: upstream.baseUrl, retries: 0 },
    userAgent: "t",
    validator: new SchemaValidator(),
    trace,
  };
  const result = await callUpstream(tool, {}, call);
  assert.ok(result.isError);
  assert.equal(ends, [{ attempts: 1, error: "ECONNREFUSED" }]);
});

test.run();
