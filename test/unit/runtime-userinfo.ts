/**
 * Issue 10, item 10: userinfo in `--base-url` (`http://user:PASS@host`) is used for the request but
 * never shown: not in error results, not in resource URIs, not in stderr logs.
 */
import { createServer, type AddressInfo } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { main } from "../../runtime/src/cli/main.js";
import { redactUserinfo } from "../../runtime/src/protocol/redact.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { HttpHandle } from "../../runtime/src/transport/http.js";
import { info, sampleTools, startUpstream, type Reply, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

const SECRET = "PASS-s3cret";
let upstream: Upstream;
let reply: Reply = { status: 200, headers: { "content-type": "application/json" }, body: '{"id":1}' };
test.before(async () => {
  upstream = await startUpstream(() => reply);
});
test.after(async () => upstream.close());

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs `body` with process.stderr.write captured; returns what was written. */
async function captureStderr(body: () => Promise<void>): Promise<string> {
  const original = process.stderr.write.bind(process.stderr);
  let text = "";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  }) as typeof process.stderr.write;
  try {
    await body();
  } finally {
    process.stderr.write = original;
  }
  return text;
}

type Result = { isError?: boolean; content: Array<{ text?: string; resource?: { uri: string } }> };
async function rpc(url: string, name: string, args: Record<string, unknown>): Promise<Result> {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
  };
  const res = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  return ((await res.json()) as { result: Result }).result;
}

test("an unreachable upstream: the error result and the stderr log show ***@, never the password", async () => {
  const port = await closedPort();
  let result: Result | undefined;
  const stderr = await captureStderr(async () => {
    const handle = (await main(info, sampleTools(), [
      "--http",
      "--port",
      "0",
      "--base-url",
      `http://user:${SECRET}@127.0.0.1:${port}/api`,
    ])) as HttpHandle;
    try {
      result = await rpc(handle.url, "createPet", { name: "Rex" });
    } finally {
      await handle.close();
    }
  });
  assert.ok(result!.isError);
  const text = JSON.stringify(result);
  assert.match(text, /Upstream request failed for POST http:\/\/\*\*\*@127\.0\.0\.1:\d+\/api\/pets/);
  assert.not.ok(text.includes(SECRET), text);
  assert.match(stderr, /upstream POST http:\/\/\*\*\*@127\.0\.0\.1:\d+\/api\/pets failed/);
  assert.not.ok(stderr.includes(SECRET), stderr);
});

test("an invalid base URL is reported on stderr without its password", async () => {
  const stderr = await captureStderr(async () => {
    const handle = await main(info, sampleTools(), [
      "--http",
      "--port",
      "0",
      "--base-url",
      `ftp://user:${SECRET}@example.invalid/x`,
    ]);
    assert.is(handle, undefined);
  });
  process.exitCode = 0;
  assert.match(stderr, /invalid base URL 'ftp:\/\/\*\*\*@example\.invalid\/x'/);
  assert.not.ok(stderr.includes(SECRET));
});

test("the upstream still gets the credentials; results (errors, binary resource URIs) do not show them", async () => {
  const base = upstream.baseUrl.replace("http://", `http://user:${SECRET}@`);
  const server = new McpServer({ ...apiFeatures, info, tools: sampleTools(), upstream: { baseUrl: base, retries: 0 } });
  const call = async (name: string, args: Record<string, unknown>) =>
    (
      (await server.handle({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name, arguments: args },
      })) as unknown as { result: Result }
    ).result;
  reply = { status: 500, headers: { "content-type": "text/plain" }, body: "boom" };
  const failed = await call("getPet", { petId: 1 });
  assert.ok(failed.isError);
  assert.not.ok(JSON.stringify(failed).includes(SECRET));
  assert.is(
    upstream.received.at(-1)!.headers.authorization,
    `Basic ${Buffer.from(`user:${SECRET}`).toString("base64")}`,
  );
  reply = { status: 200, headers: { "content-type": "application/octet-stream" }, body: "\u0001\u0002" };
  const binary = await call("getPet", { petId: 1 });
  const uri = binary.content.find((block) => block.resource)?.resource?.uri ?? "";
  assert.match(uri, /^http:\/\/\*\*\*@127\.0\.0\.1:\d+\/api\/v1\/pets\/1$/);
  assert.not.ok(JSON.stringify(binary).includes(SECRET));
});

test("redactUserinfo", () => {
  assert.is(
    redactUserinfo("GET http://u:p@h:1/x?y=1 and https://a@b.c"),
    "GET http://***@h:1/x?y=1 and https://***@b.c",
  );
  assert.is(redactUserinfo("http://u:p@ss@h/x"), "http://***@h/x");
  assert.is(redactUserinfo('{"url":"http://u:p@h/"}'), '{"url":"http://***@h/"}');
  assert.is(redactUserinfo("mail me at a@b.c, see http://h/x@y"), "mail me at a@b.c, see http://h/x@y");
});

test.run();
