/**
 * Resource-server mode end to end: a local authorization server (its own keys, JWKS and metadata,
 * tokens minted by the test) and the MCP server's HTTP transport checking them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey as JoseKey } from "jose";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { generate } from "../../generator/pipeline/generate.js";
import { oauth, oauthToolScopes } from "../../runtime/src/features/oauth/index.js";
import { silentLogger } from "../../runtime/src/protocol/logger.js";
import { ResourceServer } from "../../runtime/src/features/oauth/oauth-resource.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp, type HttpHandle } from "../../runtime/src/transport/http.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { sseEvents } from "../support/sse-events.js";
import { legacySseEndpoints, apiFeatures } from "../support/factories.js";
import { httpSessions } from "../../runtime/src/features/sessions/index.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";

const spec = fileURLToPath(new URL("../../../specs/fixtures/auth-schemes.yaml", import.meta.url));
let as: Server;
let issuer = "";
let signingKey: JoseKey;
let otherKey: JoseKey;
let upstream: Upstream;
let http: HttpHandle;
let mcp: McpServer;
const introspected: string[] = [];
const AUDIENCE = "http://127.0.0.1/mcp-under-test";

test.before(async () => {
  const pair = await generateKeyPair("RS256");
  signingKey = pair.privateKey;
  otherKey = (await generateKeyPair("RS256")).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  as = createServer((req, res) => {
    const json = (body: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.url === "/.well-known/oauth-authorization-server")
      return json({ issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: `${issuer}/token` });
    if (req.url === "/jwks") return json({ keys: [jwk] });
    if (req.url === "/introspect") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c));
      req.on("end", () => {
        introspected.push(`${req.headers.authorization} ${body}`);
        const token = new URLSearchParams(body).get("token");
        json(
          token === "good-opaque"
            ? { active: true, iss: issuer, aud: AUDIENCE, scope: "read:pets", sub: "u1" }
            : { active: false },
        );
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => as.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
  const plan = (await generate({ spec })).plan;
  upstream = await startUpstream((r) => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ auth: r.headers.authorization ?? null }),
  }));
  mcp = new McpServer({
    ...apiFeatures,
    info: { name: "auth-zoo", version: "1.0.0", securitySchemes: plan.securitySchemes },
    tools: plan.tools.map(toolDefinition),
    upstream: { baseUrl: upstream.baseUrl },
    env: { PETSTORE_AUTH: "upstream-token", HEADER_KEY: "k" },
    toolScopes: oauthToolScopes(plan.securitySchemes),
  });
  http = await startHttp(mcp, {
    host: "127.0.0.1",
    port: 0,
    oauth: new ResourceServer({ issuer, audience: AUDIENCE, scopes: ["read:pets"] }),
  });
});

test.after(async () => {
  await http.close();
  await upstream.close();
  as.closeAllConnections();
  await new Promise<void>((resolve) => as.close(() => resolve()));
});

async function token(
  claims: Record<string, unknown>,
  options: { key?: JoseKey; issuer?: string; audience?: string; expires?: string; subject?: string } = {},
): Promise<string> {
  return new SignJWT({ scope: "read:pets", ...claims })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(options.issuer ?? issuer)
    .setAudience(options.audience ?? AUDIENCE)
    .setSubject(options.subject ?? "user-1")
    .setIssuedAt()
    .setExpirationTime(options.expires ?? "5m")
    .sign(options.key ?? signingKey);
}

async function post(body: unknown, bearer?: string, url = http.url): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
  });
}
const list = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
const callTool = (name: string) => ({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: {} } });

test("feature oauth plugs the guard and the per-tool scopes: those of an operation's first OAuth security alternative", async () => {
  const schemes = [
    { key: "petstore_auth", type: "oauth2" as const, env: {} },
    { key: "api_key", type: "apiKey" as const, in: "header" as const, name: "X-Key", env: {} },
  ];
  const plugs = await oauth.plugs({
    flags: { "oauth-issuer": "https://issuer.example" },
    env: {},
    info: { name: "s", version: "1", securitySchemes: schemes },
    http: true,
    origin: "http://127.0.0.1:1",
    logger: silentLogger,
  });
  assert.ok(plugs.httpGuard);
  const tool = (security: Record<string, string[]>[]) =>
    ({ http: { security } }) as unknown as Parameters<NonNullable<typeof plugs.toolScopes>>[0];
  const scopes = plugs.toolScopes!;
  assert.equal(scopes(tool([{ api_key: [] }, { petstore_auth: ["read:pets", "read:pets", "write:pets"] }])), [
    "read:pets",
    "write:pets",
  ]);
  assert.equal(scopes(tool([{ api_key: ["ignored"] }])), []);
  assert.equal(scopes(tool([])), []);
});

test("Protected Resource Metadata is served at both well-known paths", async () => {
  for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
    const response = await fetch(new URL(path, http.url));
    assert.is(response.status, 200);
    assert.equal(await response.json(), {
      resource: AUDIENCE,
      authorization_servers: [issuer],
      bearer_methods_supported: ["header"],
      scopes_supported: ["read:pets"],
    });
  }
});

test("no token: 401 with resource_metadata and scope in WWW-Authenticate", async () => {
  const response = await post(list);
  assert.is(response.status, 401);
  assert.is(
    response.headers.get("www-authenticate"),
    `Bearer resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", http.url)}", scope="read:pets"`,
  );
});

test("a valid token is accepted; the MCP token never reaches the upstream", async () => {
  const good = await token({});
  const listed = await post(list, good);
  assert.is(listed.status, 200);
  const called = await post(callTool("oauthRead"), good);
  assert.is(called.status, 200);
  const result = ((await called.json()) as { result: { structuredContent: { auth: string } } }).result;
  assert.equal(result.structuredContent, { auth: "Bearer upstream-token" });
  assert.not.ok(upstream.received.some((r) => String(r.headers.authorization).includes(good)));
});

test("wrong audience, wrong issuer, expired or foreign-signed tokens: 401 invalid_token", async () => {
  const cases = {
    audience: await token({}, { audience: "http://elsewhere/mcp" }),
    issuer: await token({}, { issuer: "http://127.0.0.1:1/other" }),
    expired: await token({}, { expires: "-1m" }),
    signature: await token({}, { key: otherKey }),
    garbage: "not.a.jwt",
  };
  for (const [name, bad] of Object.entries(cases)) {
    const response = await post(list, bad);
    assert.is(response.status, 401, name);
    assert.match(response.headers.get("www-authenticate") ?? "", /error="invalid_token"/, name);
  }
});

test("missing scope: 403 insufficient_scope on the tool; the list hides tools the token cannot call", async () => {
  const weak = await token({ scope: "other" });
  const response = await post(callTool("oauthRead"), weak);
  assert.is(response.status, 403);
  assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer error="insufficient_scope", scope="read:pets"/);
  const allowed = await post(callTool("usesDefault"), weak);
  assert.is(allowed.status, 200, "tools without OAuth requirements need no scope");
  const names = (
    (await (await post(list, weak)).json()) as { result: { tools: Array<{ name: string }> } }
  ).result.tools.map((t) => t.name);
  assert.not.ok(names.includes("oauthRead"));
  assert.ok(names.includes("usesDefault"));
});

test("--legacy-sse in resource-server mode: both endpoints need a valid token, sessions belong to their subject, tools need their scopes", async () => {
  const server = await startHttp(mcp, {
    host: "127.0.0.1",
    port: 0,
    endpoints: [legacySseEndpoints],
    oauth: new ResourceServer({ issuer, audience: AUDIENCE, scopes: ["read:pets"] }),
  });
  const base = `http://127.0.0.1:${server.port}`;
  const controller = new AbortController();
  try {
    const good = await token({});
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
    const anonymous = await fetch(`${base}/sse`, { headers: { accept: "text/event-stream" } });
    assert.is(anonymous.status, 401);
    assert.match(anonymous.headers.get("www-authenticate") ?? "", /^Bearer resource_metadata="/);
    await anonymous.arrayBuffer();
    const forged = await fetch(`${base}/sse`, { headers: bearer(await token({}, { key: otherKey })) });
    assert.is(forged.status, 401);
    await forged.arrayBuffer();

    const stream = await fetch(`${base}/sse`, {
      headers: { accept: "text/event-stream", ...bearer(good) },
      signal: controller.signal,
    });
    assert.is(stream.status, 200);
    const nextEvent = sseEvents(stream);
    const endpoint = /data: (\S+)/.exec(await nextEvent())![1]!;
    const send = (body: unknown, headers: Record<string, string>) =>
      fetch(`${base}${endpoint}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };

    const noToken = await send(init, {});
    assert.is(noToken.status, 401);
    await noToken.arrayBuffer();
    const otherSubject = await send(init, bearer(await token({}, { subject: "user-2" })));
    assert.is(otherSubject.status, 403, "a session belongs to the subject that opened it");
    await otherSubject.arrayBuffer();
    const weak = await send(callTool("oauthRead"), bearer(await token({ scope: "other" })));
    assert.is(weak.status, 403);
    assert.match(weak.headers.get("www-authenticate") ?? "", /insufficient_scope/);
    await weak.arrayBuffer();

    const accepted = await send(init, bearer(good));
    assert.is(accepted.status, 202);
    await accepted.arrayBuffer();
    assert.is(JSON.parse(/data: (.*)/.exec(await nextEvent())![1]!).id, 1);
    const called = await send(callTool("oauthRead"), bearer(good));
    assert.is(called.status, 202);
    await called.arrayBuffer();
    const reply = JSON.parse(/data: (.*)/.exec(await nextEvent())![1]!) as {
      id: number;
      result: { structuredContent: unknown };
    };
    assert.is(reply.id, 2);
    assert.equal(reply.result.structuredContent, { auth: "Bearer upstream-token" });
  } finally {
    controller.abort();
    await server.close();
  }
});

test("--sessions in resource-server mode: a session belongs to the token's subject; another subject's token gets 404 for it (use and DELETE)", async () => {
  // Issue 30, finding 4: Bob's valid token with Alice's Mcp-Session-Id listed tools and deleted her session.
  const server = await startHttp(mcp, {
    host: "127.0.0.1",
    port: 0,
    sessions: httpSessions(new MemoryStateStore()),
    oauth: new ResourceServer({ issuer, audience: AUDIENCE, scopes: ["read:pets"] }),
  });
  try {
    const alice = await token({}, { subject: "alice" });
    const bob = await token({}, { subject: "bob" });
    const send = (bearer: string, session: string, method = "POST") =>
      fetch(server.url, {
        method,
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          authorization: `Bearer ${bearer}`,
          "mcp-session-id": session,
          "mcp-protocol-version": "2025-06-18",
        },
        ...(method === "POST" ? { body: JSON.stringify(list) } : {}),
      });
    const init = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      alice,
      server.url,
    );
    assert.is(init.status, 200);
    await init.arrayBuffer();
    const session = init.headers.get("mcp-session-id")!;
    assert.ok(session);
    const stolen = await send(bob, session);
    assert.is(stolen.status, 404);
    await stolen.arrayBuffer();
    const deleted = await send(bob, session, "DELETE");
    assert.is(deleted.status, 404);
    await deleted.arrayBuffer();
    const own = await send(alice, session);
    assert.is(own.status, 200, "the session survived, and still serves its owner");
    assert.ok(((await own.json()) as { result: { tools: unknown[] } }).result.tools.length > 0);
    assert.is((await send(alice, session, "DELETE")).status, 204);
  } finally {
    await server.close();
  }
});

test("introspection mode (RFC 7662)", async () => {
  const server = await startHttp(mcp, {
    host: "127.0.0.1",
    port: 0,
    oauth: new ResourceServer({
      issuer,
      audience: AUDIENCE,
      introspectionUrl: `${issuer}/introspect`,
      introspectionClient: { id: "rs", secret: "rs-secret" },
    }),
  });
  try {
    assert.is((await post(list, "good-opaque", server.url)).status, 200);
    assert.is((await post(list, "revoked", server.url)).status, 401);
    assert.is(
      introspected[0],
      `Basic ${Buffer.from("rs:rs-secret").toString("base64")} token=good-opaque&token_type_hint=access_token`,
    );
  } finally {
    await server.close();
  }
});

test.run();
