/**
 * Passthrough rules over real HTTP: what a shared server forwards from the MCP request to the
 * upstream, proved by a local upstream that records every header it receives.
 */
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { generate } from "../../generator/pipeline/generate.js";
import { parsePassthroughRule, type PassthroughRule } from "../../runtime/src/features/auth/passthrough.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp, type HttpHandle } from "../../runtime/src/transport/http.js";
import type { ServerInfo, ToolDefinition } from "../../runtime/src/api/types.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { upstreamCredentials } from "../../runtime/src/features/auth/index.js";
import { apiFeatures } from "../support/factories.js";

const spec = fileURLToPath(new URL("../../../specs/fixtures/auth-schemes.yaml", import.meta.url));
let tools: ToolDefinition[];
let info: ServerInfo;
let upstream: Upstream;

test.before(async () => {
  const plan = (await generate({ spec })).plan;
  tools = plan.tools.map(toolDefinition);
  info = { name: "auth-zoo", version: "1.0.0", securitySchemes: plan.securitySchemes };
  upstream = await startUpstream(() => ({ status: 200, headers: { "content-type": "application/json" }, body: "{}" }));
});
test.after(async () => upstream.close());

/** Starts an HTTP server with the rules and env, runs `body`, closes it. */
async function withServer(
  passthrough: PassthroughRule[],
  env: Record<string, string>,
  body: (http: HttpHandle) => Promise<void>,
): Promise<void> {
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools,
    upstream: { baseUrl: upstream.baseUrl },
    env,
    credentials: upstreamCredentials(passthrough),
  });
  const http = await startHttp(server, { host: "127.0.0.1", port: 0 });
  try {
    await body(http);
  } finally {
    await http.close();
  }
}

/** One tools/call over HTTP with the given request headers; returns the tool result. */
async function call(
  http: HttpHandle,
  name: string,
  headers: Record<string, string>,
): Promise<{ isError?: boolean; content: Array<{ text: string }> }> {
  const response = await fetch(http.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
  });
  assert.is(response.status, 200);
  return ((await response.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } }).result;
}

const last = () => upstream.received[upstream.received.length - 1]!;
const mcpHeaders = {
  authorization: "Bearer mcp-session-token",
  cookie: "sid=mcp-cookie",
  "mcp-session-id": "abc",
  "x-upstream-token": "user-42",
};

test("without rules nothing from the MCP request reaches the upstream", async () => {
  await withServer([], { BEARER_AUTH: "env-token" }, async (http) => {
    assert.not.ok((await call(http, "bearerOrBasic", mcpHeaders)).isError);
    assert.is(last().headers.authorization, "Bearer env-token", "the environment's credential, never the MCP token");
    assert.is(last().headers.cookie, undefined);
    assert.is(last().headers["mcp-session-id"], undefined);
    assert.is(last().headers["x-upstream-token"], undefined);
  });
  await withServer([], {}, async (http) => {
    const before = upstream.received.length;
    const result = await call(http, "bearerOrBasic", mcpHeaders);
    assert.ok(result.isError, "no rule and no env: an error, not the client's Authorization");
    assert.match(result.content[0]!.text, /set BEARER_AUTH/);
    assert.is(upstream.received.length, before);
  });
});

test("a rule maps an incoming header to a scheme and wins over the environment", async () => {
  await withServer(
    [parsePassthroughRule("X-Upstream-Token=bearerAuth")],
    { BEARER_AUTH: "env-token" },
    async (http) => {
      await call(http, "bearerOrBasic", mcpHeaders);
      assert.is(last().headers.authorization, "Bearer user-42");
      assert.is(last().headers["x-upstream-token"], undefined, "the carrier header itself is not forwarded");
      await call(http, "bearerOrBasic", {});
      assert.is(last().headers.authorization, "Bearer env-token", "without the header, the environment applies");
    },
  );
});

test("apiKey and basic schemes take their value from the mapped header", async () => {
  const rules = [parsePassthroughRule("X-Key=headerKey"), parsePassthroughRule("X-Basic=basicAuth")];
  await withServer(rules, {}, async (http) => {
    await call(http, "usesDefault", { "x-key": "k-user" });
    assert.is(last().headers["x-api-key"], "k-user");
    await call(http, "bearerOrBasic", { "x-basic": `Basic ${Buffer.from("ann:pw").toString("base64")}` });
    assert.is(last().headers.authorization, `Basic ${Buffer.from("ann:pw").toString("base64")}`);
  });
});

test("the MCP Authorization header is forwarded only when a rule names it", async () => {
  await withServer([parsePassthroughRule("Authorization=bearerAuth")], {}, async (http) => {
    await call(http, "bearerOrBasic", { authorization: "Bearer passed-on" });
    assert.is(last().headers.authorization, "Bearer passed-on");
  });
});

test("rules for connection, cookie or MCP headers, or unknown schemes, are refused at start", () => {
  for (const [rule, message] of [
    ["Cookie=headerKey", /can never be forwarded/],
    ["Mcp-Session-Id=headerKey", /can never be forwarded/],
    ["Connection=headerKey", /can never be forwarded/],
    ["X-Token=nope", /not a security scheme/],
  ] as const) {
    assert.throws(
      () =>
        new McpServer({
          ...apiFeatures,
          info,
          tools,
          upstream: {},
          credentials: upstreamCredentials([parsePassthroughRule(rule)]),
        }),
      message,
      rule,
    );
  }
  assert.throws(() => parsePassthroughRule("X-Token"), /expected <Header>=<scheme>/);
});

test.run();
