/**
 * Upstream credentials end to end from a spec: the auth fixture is planned by the generator, its
 * tool definitions are served by the runtime with an injected environment, and a local upstream
 * records exactly what arrives.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import { UPSTREAM_CLIENTS } from "../support/upstream-clients.js";
import type { UpstreamClient } from "../../runtime/src/upstream/client-slot.js";
import * as assert from "uvu/assert";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { generate } from "../../generator/pipeline/generate.js";
import type { JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import type { Logger } from "../../runtime/src/protocol/logger.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { ServerInfo, ToolDefinition } from "../../runtime/src/api/types.js";
import { startUpstream, type Recorded, type Reply, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";
import { requestEncodings } from "../../runtime/src/features/encodings/index.js";

const spec = fileURLToPath(new URL("../../../specs/fixtures/auth-schemes.yaml", import.meta.url));
let tools: ToolDefinition[];
let info: ServerInfo;
let upstream: Upstream;
let reply: (r: Recorded) => Reply = () => ({
  status: 200,
  headers: { "content-type": "application/json" },
  body: "{}",
});
const logLines: string[] = [];
const capture: Logger = {
  debug: (m, f) => logLines.push(m + JSON.stringify(f ?? {})),
  info: (m, f) => logLines.push(m + JSON.stringify(f ?? {})),
  warn: (m, f) => logLines.push(m + JSON.stringify(f ?? {})),
  error: (m, f) => logLines.push(m + JSON.stringify(f ?? {})),
};

test.before(async () => {
  const result = await generate({ spec });
  tools = result.plan.tools.map(toolDefinition);
  info = { name: "auth-zoo", version: "1.0.0", securitySchemes: result.plan.securitySchemes };
  upstream = await startUpstream((r) => reply(r));
});
test.after(async () => upstream.close());

function server(env: Record<string, string>, base = upstream.baseUrl, client?: UpstreamClient): McpServer {
  return new McpServer({ ...apiFeatures, info, tools, upstream: { baseUrl: base, client }, env, logger: capture });
}

async function call(s: McpServer, name: string): Promise<{ isError?: boolean; content: Array<{ text: string }> }> {
  const response = (await s.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: {} },
  })) as JsonRpcResponse & { result: never };
  return response.result;
}

function last(): Recorded {
  return upstream.received[upstream.received.length - 1]!;
}

test("the plan names credential variables after the scheme keys and keeps per-operation requirements", () => {
  assert.equal(
    info.securitySchemes!.map((s) => [s.key, s.env]),
    [
      ["headerKey", { token: "HEADER_KEY" }],
      ["queryKey", { token: "QUERY_KEY" }],
      ["cookieKey", { token: "COOKIE_KEY" }],
      ["bearerAuth", { token: "BEARER_AUTH" }],
      ["basicAuth", { username: "BASIC_AUTH_USERNAME", password: "BASIC_AUTH_PASSWORD" }],
      [
        "petstore_auth",
        {
          token: "PETSTORE_AUTH",
          clientId: "PETSTORE_AUTH_CLIENT_ID",
          clientSecret: "PETSTORE_AUTH_CLIENT_SECRET",
          scopes: "PETSTORE_AUTH_SCOPES",
        },
      ],
    ],
  );
  const byName = new Map(tools.map((t) => [t.name, t.http.security]));
  assert.equal(byName.get("usesDefault"), [{ headerKey: [] }], "document-level security is the default");
  assert.is(byName.get("isPublic"), undefined, "security: [] sends nothing");
  assert.equal(byName.get("queryAndCookie"), [{ queryKey: [], cookieKey: [] }]);
});

test("apiKey in a header, and nothing for security: []", async () => {
  const s = server({ HEADER_KEY: "k-123" });
  assert.not.ok((await call(s, "usesDefault")).isError);
  assert.is(last().headers["x-api-key"], "k-123");
  assert.not.ok((await call(s, "isPublic")).isError);
  assert.is(last().headers["x-api-key"], undefined);
});

test("AND: query key and cookie key together", async () => {
  const s = server({ QUERY_KEY: "q&1", COOKIE_KEY: "c 2" });
  assert.not.ok((await call(s, "queryAndCookie")).isError);
  assert.is(last().url, "/api/v1/both?api_key=q%261");
  assert.is(last().headers.cookie, "session=c%202");
});

test("OR: bearer when set, else basic; nothing set means an error naming the variables and no request", async () => {
  assert.not.ok((await call(server({ BEARER_AUTH: "tok" }), "bearerOrBasic")).isError);
  assert.is(last().headers.authorization, "Bearer tok");
  assert.not.ok(
    (await call(server({ BASIC_AUTH_USERNAME: "ann", BASIC_AUTH_PASSWORD: "pw" }), "bearerOrBasic")).isError,
  );
  assert.is(last().headers.authorization, `Basic ${Buffer.from("ann:pw").toString("base64")}`);
  const before = upstream.received.length;
  const missing = await call(server({ BASIC_AUTH_USERNAME: "ann" }), "bearerOrBasic");
  assert.ok(missing.isError);
  assert.match(missing.content[0]!.text, /set BEARER_AUTH, or set BASIC_AUTH_PASSWORD\./);
  assert.is(upstream.received.length, before, "a half-authenticated request is never sent");
});

test("an optional requirement ({}) calls anonymously when no credential is set", async () => {
  assert.not.ok((await call(server({}), "optionalAuth")).isError);
  assert.is(last().headers.authorization, undefined);
});

test("anonymous access listed first ([{}, bearer]) still sends a credential that is set", async () => {
  const optional = tools.find((t) => t.name === "optionalAuth")!;
  const reversed: ToolDefinition = {
    ...optional,
    http: { ...optional.http, security: [{}, { bearerAuth: [] as string[] }] },
  };
  const s = new McpServer({
    ...apiFeatures,
    info,
    tools: [reversed],
    upstream: { baseUrl: upstream.baseUrl },
    env: { BEARER_AUTH: "tok" },
  });
  assert.not.ok((await call(s, "optionalAuth")).isError);
  assert.is(last().headers.authorization, "Bearer tok");
  const anonymous = new McpServer({
    ...apiFeatures,
    info,
    tools: [reversed],
    upstream: { baseUrl: upstream.baseUrl },
    env: {},
  });
  assert.not.ok((await call(anonymous, "optionalAuth")).isError);
  assert.is(last().headers.authorization, undefined);
});

test("an argument in the place and name of an apiKey credential goes out once, the credential's", async () => {
  const both = tools.find((t) => t.name === "queryAndCookie")!;
  const withArguments: ToolDefinition = {
    ...both,
    inputSchema: { type: "object", properties: { api_key: { type: "string" }, session: { type: "string" } } },
    http: {
      ...both.http,
      parameters: [
        { argument: "api_key", name: "api_key", in: "query", style: "form", explode: true, required: false },
        { argument: "session", name: "session", in: "cookie", style: "form", explode: true, required: false },
      ],
    },
  };
  const s = new McpServer({
    ...apiFeatures,
    info,
    tools: [withArguments],
    // A cookie parameter is serialised by feature encodings.
    upstream: { baseUrl: upstream.baseUrl, encodings: requestEncodings() },
    env: { QUERY_KEY: "secret", COOKIE_KEY: "cookie" },
  });
  const response = (await s.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "queryAndCookie", arguments: { api_key: "model-value", session: "model-session" } },
  })) as JsonRpcResponse & { result: { isError?: boolean } };
  assert.not.ok(response.result.isError);
  assert.is(last().url, "/api/v1/both?api_key=secret");
  assert.is(last().headers.cookie, "session=cookie");
});

// The token request goes through the server's upstream client: got on Node, fetch where got cannot run (Workers).
for (const { name, client } of UPSTREAM_CLIENTS)
  test(`${name} client: OAuth 2 client credentials: token fetched through it once, cached, refreshed once on 401`, async () => {
    const sent: string[] = [];
    const watched: UpstreamClient = {
      send(request, limits) {
        sent.push(`${request.method} ${new URL(request.url).pathname}`);
        return client.send(request, limits);
      },
      failure: (error) => client.failure(error),
    };
    const tokenRequests: string[] = [];
    let issued = 0;
    const tokenServer: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c));
      req.on("end", () => {
        tokenRequests.push(`${req.headers.authorization} ${body}`);
        issued++;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: `at-${issued}`, expires_in: 3600, token_type: "Bearer" }));
      });
    });
    await new Promise<void>((resolve) => tokenServer.listen(0, "127.0.0.1", resolve));
    const port = (tokenServer.address() as AddressInfo).port;
    const schemes = info.securitySchemes!.map((s) =>
      s.key === "petstore_auth" ? { ...s, tokenUrl: `http://127.0.0.1:${port}/token` } : s,
    );
    const s = new McpServer({
      ...apiFeatures,
      info: { ...info, securitySchemes: schemes },
      tools,
      upstream: { baseUrl: upstream.baseUrl, client: watched },
      env: { PETSTORE_AUTH_CLIENT_ID: "cid", PETSTORE_AUTH_CLIENT_SECRET: "shh-secret" },
      logger: capture,
    });
    try {
      assert.not.ok((await call(s, "oauthRead")).isError);
      assert.not.ok((await call(s, "oauthRead")).isError);
      assert.is(last().headers.authorization, "Bearer at-1");
      assert.is(tokenRequests.length, 1, "the token is cached");
      assert.is(
        tokenRequests[0],
        `Basic ${Buffer.from("cid:shh-secret").toString("base64")} grant_type=client_credentials&scope=read%3Apets`,
      );
      reply = (r): Reply =>
        r.headers.authorization === "Bearer at-1"
          ? { status: 401, body: "expired" }
          : { status: 200, headers: { "content-type": "application/json" }, body: "{}" };
      assert.not.ok((await call(s, "oauthRead")).isError);
      assert.is(last().headers.authorization, "Bearer at-2");
      assert.is(tokenRequests.length, 2, "refreshed exactly once");
      assert.equal(
        sent.filter((line) => line.endsWith("/token")),
        ["POST /token", "POST /token"],
        "both token requests went through the upstream client",
      );
    } finally {
      reply = () => ({ status: 200, headers: { "content-type": "application/json" }, body: "{}" });
      tokenServer.closeAllConnections();
      await new Promise<void>((resolve) => tokenServer.close(() => resolve()));
    }
  });

// Redirects are followed by the upstream client: each of got and fetch must strip the credentials.
for (const { name, client } of UPSTREAM_CLIENTS) {
  test(`${name} client: a redirect to another origin drops the credentials; the same origin keeps them`, async () => {
    const other = await startUpstream(() => ({
      status: 200,
      headers: { "content-type": "application/json" },
      body: "{}",
    }));
    try {
      reply = (r): Reply =>
        r.url.includes("/default")
          ? { status: 302, headers: { location: `${other.baseUrl}/landed?x=1` } }
          : { status: 200, headers: { "content-type": "application/json" }, body: "{}" };
      assert.not.ok((await call(server({ HEADER_KEY: "k-123" }, upstream.baseUrl, client), "usesDefault")).isError);
      assert.is(other.received.length, 1);
      assert.is(other.received[0]!.headers["x-api-key"], undefined);
      reply = (r): Reply =>
        r.url.includes("/both")
          ? { status: 302, headers: { location: `${other.baseUrl}/landed?api_key=q1&keep=1` } }
          : { status: 200, body: "{}" };
      await call(server({ QUERY_KEY: "q1", COOKIE_KEY: "c1" }, upstream.baseUrl, client), "queryAndCookie");
      assert.is(other.received[1]!.url, "/api/v1/landed?keep=1");
      assert.is(other.received[1]!.headers.cookie, undefined);
      reply = (r): Reply =>
        r.url.includes("/default")
          ? { status: 302, headers: { location: `${upstream.baseUrl}/moved` } }
          : { status: 200, headers: { "content-type": "application/json" }, body: "{}" };
      await call(server({ HEADER_KEY: "k-123" }, upstream.baseUrl, client), "usesDefault");
      assert.is(last().url, "/api/v1/moved");
      assert.is(last().headers["x-api-key"], "k-123");
    } finally {
      reply = () => ({ status: 200, headers: { "content-type": "application/json" }, body: "{}" });
      await other.close();
    }
  });
}

test("no credential value ever reaches the logs or a result", async () => {
  reply = () => ({ status: 500, body: "boom" });
  const result = await call(server({ QUERY_KEY: "q-secret-1", COOKIE_KEY: "c-secret-2" }), "queryAndCookie");
  reply = () => ({ status: 200, headers: { "content-type": "application/json" }, body: "{}" });
  assert.ok(result.isError);
  const everything = logLines.join("\n") + JSON.stringify(result);
  for (const secret of ["q-secret-1", "c-secret-2", "k-123", "shh-secret", "at-1", "at-2", "tok"])
    assert.not.ok(everything.includes(secret), secret);
});

test.run();
