/**
 * Issue 10, item 9: a query credential the upstream repeats in its next link never ends up in a
 * cursor (cursors are encrypted, and credentials and userinfo are taken out of stored next URLs);
 * following the cursor sends the credential exactly once.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { decodeCursor, encodeCursor, withoutCredentials } from "../../runtime/src/features/pagination/cursor-paging.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { SecuritySchemeDefinition, ToolDefinition } from "../../runtime/src/api/types.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

const SECRET = "SECRET-k3y-42";
const PASSWORD = "base-PASS-9";
let upstream: Upstream;
/** How the upstream repeats the key in its next link: under its own name, or under another. */
let echoName = "api_key";

test.before(async () => {
  upstream = await startUpstream((r) => {
    const url = new URL(r.url, "http://x");
    const page = Number(url.searchParams.get("page") ?? 1);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (page < 3)
      headers.link = `<${upstream.baseUrl}/items?page=${page + 1}&${echoName}=${SECRET}&sort=a%2Cb>; rel="next"`;
    return { status: 200, headers, body: JSON.stringify([{ id: page }]) };
  });
});
test.after(async () => upstream.close());

const scheme: SecuritySchemeDefinition = {
  key: "key",
  type: "apiKey",
  in: "query",
  name: "api_key",
  env: { token: "API_KEY" },
};
const tool: ToolDefinition = {
  name: "listItems",
  description: "List items",
  inputSchema: { type: "object", properties: { cursor: { type: "string" } } },
  http: {
    method: "get",
    path: "/items",
    parameters: [],
    security: [{ key: [] }],
    response: { accept: ["application/json"], wrapKey: "result" },
    pagination: { style: "link", cursorArgument: "cursor", itemsPath: [] },
  },
};

function server(baseUrl = upstream.baseUrl): McpServer {
  return new McpServer({
    ...apiFeatures,
    info: { name: "cursors", version: "1.0.0", securitySchemes: [scheme] },
    tools: [tool],
    upstream: { baseUrl },
    env: { API_KEY: SECRET, MCP_CURSOR_SECRET: "cursor-secret" },
  });
}

type Result = { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };
async function call(s: McpServer, args: Record<string, unknown>): Promise<Result> {
  return (
    (await s.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "listItems", arguments: args },
    })) as unknown as { result: Result }
  ).result;
}

/** Every form in which the secret could be read back out of a string. */
function leaks(text: string, secret: string): boolean {
  const forms = [
    secret,
    Buffer.from(secret).toString("base64"),
    Buffer.from(secret).toString("base64url"),
    Buffer.from(secret).toString("hex"),
    encodeURIComponent(secret),
  ];
  const decoded = Buffer.from(text.replace(/[^A-Za-z0-9_-]/g, ""), "base64url").toString("latin1");
  return forms.some((form) => text.includes(form) || decoded.includes(form));
}

for (const name of ["api_key", "key"]) {
  test(`a next link repeating the key as ${name}=…: the cursor does not hold it, following it sends api_key once`, async () => {
    echoName = name;
    const s = server();
    const first = await call(s, {});
    assert.not.ok(first.isError, first.content[0]!.text);
    assert.is(new URL(upstream.received.at(-1)!.url, "http://x").searchParams.getAll("api_key").length, 1);
    const cursor = first.structuredContent!.nextCursor as string;
    assert.type(cursor, "string");
    assert.not.ok(leaks(cursor, SECRET), `cursor ${cursor} leaks the key`);
    assert.not.ok(leaks(JSON.stringify(first), SECRET), "the result leaks the key");
    const second = await call(s, { cursor });
    assert.not.ok(second.isError, second.content[0]!.text);
    const sent = new URL(upstream.received.at(-1)!.url, "http://x");
    assert.is(sent.searchParams.get("page"), "2");
    assert.equal(sent.searchParams.getAll("api_key"), [SECRET], "the credential is sent exactly once");
    assert.is(sent.searchParams.get("key"), null);
    assert.match(upstream.received.at(-1)!.url, /sort=a%2Cb/, "other query pairs keep their encoding");
  });
}

test("userinfo of the base URL is not stored in a cursor and is used again when following it", async () => {
  echoName = "api_key";
  const s = server(upstream.baseUrl.replace("http://", `http://user:${PASSWORD}@`));
  const first = await call(s, {});
  const cursor = first.structuredContent!.nextCursor as string;
  assert.not.ok(leaks(cursor, PASSWORD));
  const payload = decodeCursor(cursor, Buffer.from("cursor-secret"));
  assert.ok(payload && typeof payload.v === "string");
  assert.not.ok(String(payload!.v).includes(PASSWORD), String(payload!.v));
  assert.not.ok(String(payload!.v).includes(SECRET), String(payload!.v));
  await call(s, { cursor });
  assert.is(
    upstream.received.at(-1)!.headers.authorization,
    `Basic ${Buffer.from(`user:${PASSWORD}`).toString("base64")}`,
  );
});

test("cursors are encrypted: nothing of the payload is readable, and altered cursors are refused", () => {
  const key = Buffer.from("k");
  const cursor = encodeCursor({ t: "listItems", v: "http://h/items?page=2&note=visible" }, key);
  assert.not.ok(Buffer.from(cursor, "base64url").toString("latin1").includes("visible"));
  assert.equal(decodeCursor(cursor, key), { t: "listItems", v: "http://h/items?page=2&note=visible" });
  assert.is(decodeCursor(cursor, Buffer.from("other")), undefined);
  const flipped = cursor[20] === "A" ? "B" : "A";
  assert.is(decodeCursor(cursor.slice(0, 20) + flipped + cursor.slice(21), key), undefined);
  assert.is(decodeCursor(cursor + ".x", key), undefined);
  assert.is(decodeCursor("", key), undefined);
});

test("withoutCredentials drops userinfo and credential pairs by name or value, keeps the rest", () => {
  assert.is(withoutCredentials("http://u:p@h/x?a=1&api_key=S&b=%2C", ["api_key=S"]), "http://h/x?a=1&b=%2C");
  assert.is(withoutCredentials("http://h/x?k=S", ["api_key=S"]), "http://h/x");
  assert.is(withoutCredentials("http://h/x?a=1", []), "http://h/x?a=1");
});

test.run();
