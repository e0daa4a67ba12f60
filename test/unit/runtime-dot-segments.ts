/**
 * Issue 10, item 5: `.` and `..` (also percent-encoded) as path parameter values are refused
 * before anything is sent, and no URL whose path the URL parser would normalise away from its
 * template leaves the server. A recording upstream on 127.0.0.1 proves nothing arrives.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pathKept } from "../../runtime/src/upstream/request.js";
import { hasDotSegment } from "../../runtime/src/upstream/serialize.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { ParameterBinding, ToolDefinition } from "../../runtime/src/api/types.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

let upstream: Upstream;
test.before(async () => {
  upstream = await startUpstream(() => ({ status: 204 }));
});
test.after(async () => upstream.close());

const param = (name: string, style: ParameterBinding["style"] = "simple"): ParameterBinding => ({
  argument: name,
  name,
  in: "path",
  style,
  explode: false,
  required: true,
});
function tool(name: string, path: string, params: ParameterBinding[]): ToolDefinition {
  return {
    name,
    description: name,
    inputSchema: { type: "object", properties: Object.fromEntries(params.map((p) => [p.argument, {}])) },
    http: { method: "delete", path, parameters: params, response: { accept: [] } },
  };
}
const tools = [
  tool("deleteObject", "/buckets/{bucket}/objects/{key}", [param("bucket"), param("key")]),
  tool("deleteLabel", "/items/{id}", [param("id", "label")]),
  tool("deleteMatrix", "/items/{id}", [param("id", "matrix")]),
  // A template the spec author wrote with a dot segment: refused by the check after building.
  tool("literalDots", "/a/%2e%2e/{id}", [param("id")]),
];

async function call(name: string, args: Record<string, unknown>) {
  const server = new McpServer({
    ...apiFeatures,
    info: { name: "dots", version: "1.0.0" },
    tools,
    upstream: { baseUrl: upstream.baseUrl },
  });
  const response = (await server.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: args },
  })) as unknown as {
    result: { isError?: boolean; content: Array<{ text: string }> };
  };
  return response.result;
}

const DOTS = [
  ".",
  "..",
  "%2e",
  "%2E",
  "%2e%2e",
  "%2E%2e",
  ".%2e",
  "%2e.",
  "%252e%252e",
  "../x",
  "x/..",
  "..\\x",
  "a/./b",
];

test("dot-segment values are an isError result and nothing reaches the upstream", async () => {
  const before = upstream.received.length;
  for (const key of DOTS) {
    const result = await call("deleteObject", { bucket: "b", key });
    assert.ok(result.isError, `key ${JSON.stringify(key)} was accepted`);
    assert.match(result.content[0]!.text, /path parameter 'key' must not be '\.' or '\.\.'/);
    const inBucket = await call("deleteObject", { bucket: key, key: "k" });
    assert.ok(inBucket.isError, `bucket ${JSON.stringify(key)} was accepted`);
  }
  for (const id of ["", ".", ["..", "a"]]) {
    assert.ok((await call("deleteLabel", { id })).isError, `label ${JSON.stringify(id)} was accepted`);
  }
  assert.ok((await call("deleteMatrix", { id: ".." })).isError);
  assert.is(upstream.received.length, before, "no request arrived");
});

test("ordinary values with dots still go out unchanged", async () => {
  const before = upstream.received.length;
  for (const key of ["...", "a..b", ".hidden", "v1.0", "%2e%2e%2e", "file.tar.gz"]) {
    const result = await call("deleteObject", { bucket: "b", key });
    assert.not.ok(result.isError, `${key}: ${result.content[0]!.text}`);
  }
  assert.is(upstream.received.length, before + 6);
  assert.is(upstream.received.at(-1)!.url, "/api/v1/buckets/b/objects/file.tar.gz");
  assert.is(upstream.received.at(-5)!.url, "/api/v1/buckets/b/objects/a..b");
});

test("a path the URL parser would change is never sent, whatever produced it", async () => {
  const before = upstream.received.length;
  const result = await call("literalDots", { id: "1" });
  assert.ok(result.isError);
  assert.match(result.content[0]!.text, /would be changed by URL normalisation/);
  assert.is(upstream.received.length, before);
});

test("pathKept and hasDotSegment", () => {
  const base = "http://127.0.0.1:1/api/v1";
  assert.ok(pathKept(`${base}/a/b`, base, "/a/b"));
  assert.ok(pathKept(`${base}/a%20b/c`, base, "/a%20b/c"));
  assert.ok(pathKept(`${base}/café/a b/%C3%A9`, base, "/café/a b/%C3%A9"), "raw characters the parser percent-encodes");
  assert.ok(pathKept("http://h/ünï/x", "http://h/ünï", "/x"));
  assert.ok(
    pathKept("http://h/x/../api/p", "http://h/x/../api", "/p"),
    "dots in the operator's base URL are the operator's",
  );
  assert.not.ok(pathKept(`${base}/a/..`, base, "/a/.."));
  assert.not.ok(pathKept(`${base}/a/.`, base, "/a/."));
  assert.not.ok(pathKept(`${base}/../../etc`, base, "/../../etc"));
  assert.not.ok(pathKept(`${base}/a\\b`, base, "/a\\b"));
  assert.not.ok(pathKept(`${base}/%2E%2e/x`, base, "/%2E%2e/x"));
  for (const dots of DOTS) assert.ok(hasDotSegment(dots), dots);
  for (const fine of ["...", "a..b", ".a", "%2e%2e%2e", ""]) assert.not.ok(hasDotSegment(fine), fine);
});

test.run();
