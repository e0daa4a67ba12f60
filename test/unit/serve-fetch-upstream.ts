/**
 * `serveFetch`'s upstream choice: the platform's fetch by default (feature `fetch`), got when a
 * target's runtime runs it (`upstream: "got"`, the Bun entry), as the upstream sees it: fetch marks
 * its requests with `Sec-Fetch-Mode`, got does not.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { serveFetch } from "../../runtime/src/features/fetch/index.js";
import { info, sampleTools, startUpstream } from "../support/runtime-fixture.js";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const CALL = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "getPet", arguments: { petId: 42 } } };

test('upstream: "got" sends the upstream call through got; the default through the platform fetch', async () => {
  const upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"id":42,"name":"Rex"}',
  }));
  try {
    const seen: Array<string | string[] | undefined> = [];
    for (const choice of ["got", undefined] as const) {
      const serve = serveFetch(info, sampleTools(), {
        env: { API_BASE_URL: upstream.baseUrl },
        ...(choice ? { upstream: choice } : {}),
      });
      const res = await serve(
        new Request("https://mcp.example.com/mcp", { method: "POST", headers: HEADERS, body: JSON.stringify(CALL) }),
      );
      const body = (await res.json()) as { result: { structuredContent: unknown } };
      assert.equal(body.result.structuredContent, { id: 42, name: "Rex" });
      seen.push(upstream.received.at(-1)!.headers["sec-fetch-mode"]);
    }
    assert.equal(seen, [undefined, "cors"]);
  } finally {
    await upstream.close();
  }
});

test.run();
