/**
 * Per-user sign-in (feature user-oauth) against a small authorization server that checks what a
 * real one checks (client, exact redirect URI, PKCE S256, one-time codes, refresh and revocation)
 * and an API that says whose token it got; the "browser" follows the redirects by hand and keeps
 * its cookies. The attacks of the threat model each have a test here.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { StateStore } from "../../runtime/src/state/state.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";
import { upstreamCredentials } from "../../runtime/src/features/auth/index.js";
import { userOauth } from "../../runtime/src/features/user-oauth/index.js";
import { FLOW_TTL_MS, MAX_FLOWS_PER_USER, SignInFlows } from "../../runtime/src/features/user-oauth/flows.js";
import { RecordSeal } from "../../runtime/src/features/user-oauth/seal.js";
import { TokenVault } from "../../runtime/src/features/user-oauth/vault.js";
import { userOf } from "../../runtime/src/features/user-oauth/users.js";
import { BrowserUserCheck } from "../../runtime/src/features/user-oauth/browser-confirm.js";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { oauth } from "../../runtime/src/features/oauth/index.js";
import { auth } from "../../runtime/src/features/auth/index.js";
import { clientRequests } from "../../runtime/src/features/client-requests/index.js";
import { legacyClientRequests } from "../../runtime/src/features/client-requests/client-requests.js";
import { inputRequests } from "../../runtime/src/features/input-requests/index.js";
import { requestHelpers } from "../../runtime/src/features/input-requests/request-helpers.js";
import { main } from "../../runtime/src/cli/main.js";
import { freePort } from "../support/sign-in-fixture.js";
import type { Logger } from "../../runtime/src/protocol/logger.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";
import { signInApi } from "../support/sign-in-fixture.js";
import { silentLogger } from "../../runtime/src/protocol/logger.js";

const CLIENT_ID = "the-app";
const CLIENT_SECRET = "the-app-secret-0123456789";
const b64sha = (text: string) => createHash("sha256").update(text).digest("base64url");

/** The authorization server and API: one process, as far as the test is concerned. */
interface Upstream {
  origin: string;
  /** Who signs in at the authorization endpoint (the "browser" sets it). */
  grants: string[];
  authorizeRequests: URLSearchParams[];
  tokenRequests: URLSearchParams[];
  /** RFC 7009 revocation requests (`POST /revoke`). */
  revocations: URLSearchParams[];
  /** access token → account; revoked tokens are absent. */
  access: Map<string, { sub: string; expires: number }>;
  refresh: Map<string, string>;
  seenBySub: Map<string, Set<string>>;
  accessTtlSeconds: number;
  registeredRedirect: string;
  revoke(sub: string): void;
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const codes = new Map<string, { sub: string; challenge: string; redirect: string; scope: string }>();
  const up: Upstream = {
    origin: "",
    grants: [],
    authorizeRequests: [],
    tokenRequests: [],
    revocations: [],
    access: new Map(),
    refresh: new Map(),
    seenBySub: new Map(),
    accessTtlSeconds: 3600,
    registeredRedirect: "",
    revoke(sub) {
      for (const [token, owner] of up.access) if (owner.sub === sub) up.access.delete(token);
      for (const [token, owner] of up.refresh) if (owner === sub) up.refresh.delete(token);
    },
    close: async () => {},
  };
  const issue = (sub: string, scope: string) => {
    const access = randomBytes(16).toString("hex");
    const refresh = randomBytes(16).toString("hex");
    up.access.set(access, { sub, expires: Date.now() + up.accessTtlSeconds * 1000 });
    up.refresh.set(refresh, sub);
    return {
      access_token: access,
      refresh_token: refresh,
      expires_in: up.accessTtlSeconds,
      scope,
      token_type: "Bearer",
    };
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (url.pathname === "/authorize") {
        const q = url.searchParams;
        up.authorizeRequests.push(q);
        if (q.get("client_id") !== CLIENT_ID || q.get("redirect_uri") !== up.registeredRedirect)
          return json(400, { error: "invalid_request" });
        if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge"))
          return json(400, { error: "invalid_request", error_description: "PKCE required" });
        const code = randomBytes(12).toString("hex");
        const sub = String(req.headers["x-signs-in-as"] ?? "nobody");
        codes.set(code, {
          sub,
          challenge: q.get("code_challenge")!,
          redirect: q.get("redirect_uri")!,
          scope: q.get("scope") ?? "",
        });
        const back = new URL(q.get("redirect_uri")!);
        back.searchParams.set("code", code);
        back.searchParams.set("state", q.get("state") ?? "");
        return res.writeHead(302, { location: back.href }).end();
      }
      if (url.pathname === "/token" && req.method === "POST") {
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        up.tokenRequests.push(form);
        const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;
        if (req.headers.authorization !== basic) return json(401, { error: "invalid_client" });
        up.grants.push(form.get("grant_type") ?? "");
        if (form.get("grant_type") === "authorization_code") {
          const grant = codes.get(form.get("code") ?? "");
          codes.delete(form.get("code") ?? "");
          if (
            !grant ||
            grant.redirect !== form.get("redirect_uri") ||
            b64sha(form.get("code_verifier") ?? "") !== grant.challenge
          )
            return json(400, { error: "invalid_grant" });
          return json(200, issue(grant.sub, grant.scope));
        }
        if (form.get("grant_type") === "refresh_token") {
          const sub = up.refresh.get(form.get("refresh_token") ?? "");
          if (!sub) return json(400, { error: "invalid_grant" });
          up.refresh.delete(form.get("refresh_token")!);
          return json(200, issue(sub, "pets:read"));
        }
        return json(400, { error: "unsupported_grant_type" });
      }
      if (url.pathname === "/.well-known/openid-configuration")
        return json(200, {
          issuer: up.origin,
          authorization_endpoint: `${up.origin}/authorize`,
          token_endpoint: `${up.origin}/token`,
          revocation_endpoint: `${up.origin}/revoke`,
        });
      if (url.pathname === "/revoke" && req.method === "POST") {
        // RFC 7009: revoking a refresh token ends its grant's access tokens too.
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;
        if (req.headers.authorization !== basic) return json(401, { error: "invalid_client" });
        up.revocations.push(form);
        const token = form.get("token") ?? "";
        const sub = up.refresh.get(token) ?? up.access.get(token)?.sub;
        up.access.delete(token);
        if (up.refresh.delete(token) && sub) up.revoke(sub);
        return res.writeHead(200).end();
      }
      if (url.pathname === "/me") {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
        const owner = up.access.get(token);
        if (!owner || owner.expires <= Date.now()) return res.writeHead(401).end();
        const seen = up.seenBySub.get(owner.sub) ?? new Set();
        seen.add(token);
        up.seenBySub.set(owner.sub, seen);
        return json(200, { sub: owner.sub });
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  up.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  up.close = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return up;
}

/** An MCP server with the feature, its sign-in pages on their own listener, and what it logged. */
interface Setup {
  server: McpServer;
  pages: string;
  logged: string[];
  close(): Promise<void>;
}

async function startServer(
  up: Upstream,
  state: StateStore = new MemoryStateStore(),
  env: Record<string, string> = {},
  more: (tools: ToolDefinition[]) => void = () => {},
  flags: Record<string, string | boolean> = { "trust-user-header": "X-User" },
  /** `openIdConnect`: the scheme's endpoints come from the upstream's discovery document (which offers revocation). */
  kind: "authorizationCode" | "openIdConnect" = "authorizationCode",
): Promise<Setup> {
  const pagesServer = createServer();
  await new Promise<void>((resolve) => pagesServer.listen(0, "127.0.0.1", resolve));
  const pages = `http://127.0.0.1:${(pagesServer.address() as AddressInfo).port}`;
  up.registeredRedirect = `${pages}/oauth/upstream/callback`;
  const { info, tools } = signInApi(up.origin);
  more(tools);
  if (kind === "openIdConnect")
    info.securitySchemes![0] = {
      ...info.securitySchemes![0]!,
      type: "openIdConnect",
      authorizationCode: undefined,
      openIdConnectUrl: `${up.origin}/.well-known/openid-configuration`,
    };
  else
    info.securitySchemes![0]!.authorizationCode = {
      authorizationUrl: `${up.origin}/authorize`,
      tokenUrl: `${up.origin}/token`,
    };
  const logged: string[] = [];
  const record = (message: string, fields?: Record<string, unknown>) =>
    logged.push(`${message} ${JSON.stringify(fields ?? {})}`);
  const logger: Logger = { debug: record, info: record, warn: record, error: record };
  const plugs = await userOauth.plugs({
    logger: silentLogger,
    flags,
    env: { UPSTREAM_CLIENT_ID: CLIENT_ID, UPSTREAM_CLIENT_SECRET: CLIENT_SECRET, MCP_SIGN_IN_WAIT_MS: "3000", ...env },
    info,
    http: true,
    origin: pages,
  });
  const server = new McpServer({
    info,
    tools,
    upstream: { baseUrl: up.origin, timeoutMs: 5000 },
    credentials: upstreamCredentials(),
    userSignIn: plugs.userSignIn!,
    clientRequests: legacyClientRequests,
    requestTools: requestHelpers,
    state,
    logger,
  });
  const endpoints = plugs.httpEndpoints!(server, undefined as never, logger);
  pagesServer.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const pathname = (req.url ?? "/").split("?")[0]!;
    if (!endpoints.owns(pathname)) return void res.writeHead(404).end();
    void endpoints.handle(req, res, pathname, undefined, () => {});
  });
  return {
    server,
    pages,
    logged,
    close: () => new Promise((resolve) => (pagesServer.closeAllConnections(), pagesServer.close(() => resolve()))),
  };
}

/** A browser: follows redirects by hand, keeps cookies, sends the gateway's user header and who signs in at the AS. */
class Browser {
  private readonly cookies = new Map<string, string>();
  /** Every response's status and Location, in order. */
  readonly visits: Array<{ url: string; status: number; location: string | null; body: string }> = [];
  constructor(
    /** The gateway's user header (a test may change it between requests). */
    public user: string | undefined,
    private readonly signsInAs: string = user ?? "nobody",
  ) {}

  async open(url: string, maxHops = 5): Promise<{ status: number; body: string; url: string }> {
    let at = url;
    for (let hop = 0; hop <= maxHops; hop++) {
      const response = await fetch(at, {
        redirect: "manual",
        headers: {
          ...(this.user ? { "x-user": this.user } : {}),
          "x-signs-in-as": this.signsInAs,
          cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const at2 = pair!.indexOf("=");
        this.cookies.set(pair!.slice(0, at2), pair!.slice(at2 + 1));
      }
      const body = await response.text();
      const location = response.headers.get("location");
      this.visits.push({ url: at, status: response.status, location, body });
      if (response.status < 300 || response.status >= 400 || !location || hop === maxHops)
        return { status: response.status, body, url: at };
      at = new URL(location, at).href;
    }
    throw new Error("too many redirects");
  }
}

const LEGACY = (id: number, name = "getMe") => ({
  jsonrpc: "2.0" as const,
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});
function resultOf(r: JsonRpcResponse | undefined): Record<string, any> {
  assert.ok(r && "result" in r, JSON.stringify(r));
  return (r as { result: Record<string, any> }).result;
}
const urlIn = (text: string) => /(http:\/\/\S+\/oauth\/upstream\/start\?flow=[\w-]+)/.exec(text)?.[1];
const as = (user: string) => ({ headers: { "x-user": user } });

let up: Upstream;
test.before(async () => {
  up = await startUpstream();
});
test.after(async () => {
  await up.close();
});

test("a client without URL elicitation gets isError with the sign-in URL; after signing in the retry reaches the upstream with the user's token", async () => {
  const setup = await startServer(up);
  try {
    const first = resultOf(await setup.server.handle(LEGACY(1), as("alice")));
    assert.ok(first.isError);
    assert.match(first.content[0].text, "retry");
    const url = urlIn(first.content[0].text)!;
    assert.ok(url.startsWith(`${setup.pages}/oauth/upstream/start?flow=`), first.content[0].text);
    const page = await new Browser("alice").open(url);
    assert.is(page.status, 200, page.body);
    assert.match(page.body, "You are signed in");
    const second = resultOf(await setup.server.handle(LEGACY(2), as("alice")));
    assert.not.ok(second.isError, JSON.stringify(second));
    assert.is(JSON.parse(second.content[0].text).sub, "alice");
  } finally {
    await setup.close();
  }
});

test("legacy client with URL elicitation: elicitation/create (mode url) during the call, which goes on once signed in; a wait that runs out gives -32042", async () => {
  const setup = await startServer(up, new MemoryStateStore(), { MCP_SIGN_IN_WAIT_MS: "5000" });
  try {
    await setup.server.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: { url: {} } } },
    });
    const sent: Array<Record<string, any>> = [];
    const ctx = { ...as("bob"), notify: (m: unknown) => void sent.push(m as Record<string, any>) };
    const pending = setup.server.handle(LEGACY(2), ctx);
    for (let i = 0; i < 100 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.is(sent[0]?.method, "elicitation/create");
    assert.is(sent[0]!.params.mode, "url");
    assert.type(sent[0]!.params.elicitationId, "string");
    await setup.server.handle({ jsonrpc: "2.0", id: sent[0]!.id, result: { action: "accept" } }, ctx);
    await new Browser("bob").open(sent[0]!.params.url);
    const done = resultOf(await pending);
    assert.is(JSON.parse(done.content[0].text).sub, "bob");
  } finally {
    await setup.close();
  }
  const quick = await startServer(up, new MemoryStateStore(), { MCP_SIGN_IN_WAIT_MS: "50" });
  try {
    await quick.server.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: { url: {} } } },
    });
    const sent: Array<Record<string, any>> = [];
    const ctx = { ...as("carol"), notify: (m: unknown) => void sent.push(m as Record<string, any>) };
    const pending = quick.server.handle(LEGACY(2), ctx);
    for (let i = 0; i < 100 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await quick.server.handle({ jsonrpc: "2.0", id: sent[0]!.id, result: { action: "accept" } }, ctx);
    const answer = (await pending) as {
      error?: { code: number; data: { elicitations: Array<{ mode: string; url: string }> } };
    };
    assert.is(answer.error?.code, -32042, JSON.stringify(answer));
    assert.is(answer.error!.data.elicitations[0]!.mode, "url");
    assert.ok(urlIn(answer.error!.data.elicitations[0]!.url));
  } finally {
    await quick.close();
  }
});

test("modern client: input_required with a URL elicitation; the retry with the answer and state goes on once signed in", async () => {
  const setup = await startServer(up);
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } },
  };
  try {
    const call = (extra: Record<string, unknown> = {}) =>
      setup.server.handle(
        {
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "getMe", arguments: {}, _meta: meta, ...extra },
        },
        as("dave"),
      );
    const first = resultOf(await call());
    assert.is(first.resultType, "input_required");
    const request = first.inputRequests.sign_in;
    assert.is(request.method, "elicitation/create");
    assert.is(request.params.mode, "url");
    await new Browser("dave").open(request.params.url);
    const second = resultOf(
      await call({ requestState: first.requestState, inputResponses: { sign_in: { action: "accept" } } }),
    );
    assert.is(second.resultType, "complete");
    assert.is(JSON.parse(second.content[0].text).sub, "dave");
  } finally {
    await setup.close();
  }
});

/** Signs `user` in through the isError path; returns the setup's URL used. */
async function signIn(setup: Setup, user: string, browser = new Browser(user)): Promise<void> {
  const first = resultOf(await setup.server.handle(LEGACY(1), as(user)));
  const page = await browser.open(urlIn(first.content[0].text)!);
  assert.match(page.body, "You are signed in");
}

test("refresh before expiry, once more on a 401; a revoked grant asks the user to sign in again; sign-out drops the tokens", async () => {
  const setup = await startServer(up);
  try {
    up.accessTtlSeconds = 30; // within the refresh margin: the next call refreshes first
    await signIn(setup, "erin");
    up.accessTtlSeconds = 3600;
    const refreshesBefore = up.grants.filter((g) => g === "refresh_token").length;
    const afterRefresh = resultOf(await setup.server.handle(LEGACY(2), as("erin")));
    assert.is(JSON.parse(afterRefresh.content[0].text).sub, "erin");
    assert.is(up.grants.filter((g) => g === "refresh_token").length, refreshesBefore + 1, "refreshed before use");

    // The upstream forgets the access token (but not the grant): a 401, one refresh, the call succeeds.
    for (const [token, owner] of up.access) if (owner.sub === "erin") up.access.delete(token);
    const after401 = resultOf(await setup.server.handle(LEGACY(3), as("erin")));
    assert.not.ok(after401.isError, JSON.stringify(after401));
    assert.is(up.grants.filter((g) => g === "refresh_token").length, refreshesBefore + 2, "refreshed on the 401");

    // Revoked at the upstream: the refresh fails with invalid_grant, the user is asked again.
    up.revoke("erin");
    const revoked = resultOf(await setup.server.handle(LEGACY(4), as("erin")));
    assert.ok(revoked.isError);
    assert.ok(urlIn(revoked.content[0].text), revoked.content[0].text);

    await new Browser("erin").open(urlIn(revoked.content[0].text)!);
    assert.not.ok(resultOf(await setup.server.handle(LEGACY(5), as("erin"))).isError);
    const out = await fetch(`${setup.pages}/oauth/upstream/sign-out`, {
      method: "POST",
      headers: { "x-user": "erin" },
    });
    assert.is(out.status, 200);
    const signedOut = resultOf(await setup.server.handle(LEGACY(6), as("erin")));
    assert.ok(urlIn(signedOut.content[0].text), "asked to sign in after signing out");
  } finally {
    await setup.close();
  }
});

test("attack: a vault record put back after sign-out (or after the operator dropped the user) does not open", async () => {
  const store = new MemoryStateStore();
  const secret = "operator-secret-0123456789";
  const setup = await startServer(up, store, { MCP_SIGN_IN_ADMIN_SECRET: secret });
  const post = (path: string, headers: Record<string, string>) =>
    fetch(`${setup.pages}/oauth/upstream/${path}`, { method: "POST", headers });
  try {
    for (const [who, end] of [
      ["hal", () => post("sign-out", { "x-user": "hal" })],
      ["ida", () => post("drop-user?user=ida", { "x-admin-secret": secret })],
    ] as const) {
      await signIn(setup, who);
      const name = `user-oauth:vault:${userOf({ kind: "header", header: "X-User" }, as(who))}:upstream`;
      const saved = await store.get(name);
      assert.ok(saved, "the record is where the vault keeps it");
      assert.is((await end()).status, 200);
      await store.set(name, saved!, 60_000);
      const after = resultOf(await setup.server.handle(LEGACY(2), as(who)));
      assert.ok(after.isError, `${who}: the old record gave tokens: ${JSON.stringify(after)}`);
      assert.ok(urlIn(after.content[0].text), `${who} is asked to sign in again`);
    }
  } finally {
    await setup.close();
  }
});

test("sign-out revokes the user's tokens upstream where the provider offers RFC 7009 revocation (revocation_endpoint)", async () => {
  const setup = await startServer(up, new MemoryStateStore(), {}, () => {}, undefined, "openIdConnect");
  try {
    await signIn(setup, "jon");
    const revokedBefore = up.revocations.length;
    const out = await fetch(`${setup.pages}/oauth/upstream/sign-out`, { method: "POST", headers: { "x-user": "jon" } });
    assert.is(out.status, 200);
    const sent = up.revocations.slice(revokedBefore);
    assert.ok(sent.length >= 1, "a revocation request was sent");
    assert.is(sent[0]!.get("token_type_hint"), "refresh_token");
    assert.not.ok([...up.refresh.values()].includes("jon"), "the grant is revoked upstream");
    assert.not.ok(
      [...up.access.values()].some((owner) => owner.sub === "jon"),
      "no access token of jon works",
    );
  } finally {
    await setup.close();
  }
});

test("incremental scopes: an operation needing more asks again, for the union", async () => {
  const setup = await startServer(up, new MemoryStateStore(), {}, (tools) =>
    tools.push({
      ...tools[0]!,
      name: "getMeWrite",
      http: { ...tools[0]!.http, security: [{ upstream: ["pets:write"] }] },
    }),
  );
  try {
    await signIn(setup, "kim");
    const more = resultOf(await setup.server.handle(LEGACY(2, "getMeWrite"), as("kim")));
    assert.ok(more.isError, "asked again");
    await new Browser("kim").open(urlIn(more.content[0].text)!);
    assert.equal(up.authorizeRequests.at(-1)!.get("scope")!.split(" ").sort(), ["pets:read", "pets:write"]);
    assert.not.ok(resultOf(await setup.server.handle(LEGACY(3, "getMeWrite"), as("kim"))).isError);
    assert.not.ok(resultOf(await setup.server.handle(LEGACY(4), as("kim"))).isError);
  } finally {
    await setup.close();
  }
});

test("the operator drops all of a user's tokens (POST /oauth/upstream/drop-user with the admin secret)", async () => {
  const secret = "operator-secret-0123456789";
  const setup = await startServer(up, new MemoryStateStore(), { MCP_SIGN_IN_ADMIN_SECRET: secret });
  try {
    await signIn(setup, "lou");
    await signIn(setup, "max");
    const drop = (headers: Record<string, string>) =>
      fetch(`${setup.pages}/oauth/upstream/drop-user?user=lou`, { method: "POST", headers });
    assert.is((await drop({})).status, 403);
    assert.is((await drop({ "x-admin-secret": "wrong" })).status, 403);
    assert.not.ok(resultOf(await setup.server.handle(LEGACY(2), as("lou"))).isError, "still signed in");
    assert.is((await drop({ "x-admin-secret": secret })).status, 200);
    assert.ok(urlIn(resultOf(await setup.server.handle(LEGACY(3), as("lou"))).content[0].text), "lou signs in again");
    assert.not.ok(resultOf(await setup.server.handle(LEGACY(4), as("max"))).isError, "max keeps his tokens");
  } finally {
    await setup.close();
  }
});

test("attack: the start URL is useless to another user, and to a second browser", async () => {
  const setup = await startServer(up);
  try {
    const first = resultOf(await setup.server.handle(LEGACY(1), as("frank")));
    const url = urlIn(first.content[0].text)!;
    const mallory = await new Browser("mallory").open(url);
    assert.is(mallory.status, 403, "another user (by the gateway's header) cannot start frank's flow");
    const frank = new Browser("frank");
    assert.is((await frank.open(url)).status, 200);
    const again = await new Browser("frank").open(url);
    assert.ok(again.status === 404 || again.status === 409, `used link: ${again.status}`);
  } finally {
    await setup.close();
  }
});

test("attack: a second browser opening a start link that one browser already opened (not yet signed in) is refused", async () => {
  const setup = await startServer(up);
  try {
    const first = resultOf(await setup.server.handle(LEGACY(1), as("nina")));
    const url = urlIn(first.content[0].text)!;
    const owner = new Browser("nina");
    const opened = await owner.open(url, 0);
    assert.is(opened.status, 302, "the first browser is sent to the upstream");
    const copy = new Browser("nina");
    const second = await copy.open(url);
    // 404: the start link is used up on its first opening; 409: the flow is bound to a browser already.
    assert.ok(second.status === 404 || second.status === 409, `${second.status} ${second.body}`);
    assert.is(copy.visits.length, 1, "the second browser is not redirected anywhere");
    // The first browser still completes its own sign-in.
    const page = await owner.open(new URL(owner.visits[0]!.location!).href);
    assert.match(page.body, "You are signed in");
  } finally {
    await setup.close();
  }
});

test("attack: two openings of one start link at once: exactly one browser is bound and sent on", async () => {
  const flows = new SignInFlows(new MemoryStateStore(), new RecordSeal());
  const made = await flows.create("u1", "upstream", []);
  const both = await Promise.all([flows.start(made.startId, undefined), flows.start(made.startId, undefined)]);
  assert.equal(
    both.map((step) => step.ok),
    [true, false],
  );
  // And its callback completes once, even when it arrives twice at once.
  const secret = both[0]!.ok ? both[0]!.browserSecret : "";
  const finished = await Promise.all([
    flows.finish(made.state, secret, undefined),
    flows.finish(made.state, secret, undefined),
  ]);
  assert.equal(
    finished.map((step) => step.ok),
    [true, false],
  );
});

test("browser check (resource-server mode): the callback refuses a flow whose browser user was not confirmed; the check's step needs the binding browser and happens once", async () => {
  const store = new MemoryStateStore();
  const flows = new SignInFlows(store, new RecordSeal(), Date.now, true);
  const made = await flows.create("u1", "upstream", []);
  const started = await flows.start(made.startId, undefined);
  assert.ok(started.ok && started.record.confirm, "the start makes the check's verifier and nonce");
  if (!started.ok) return;
  const unconfirmed = await flows.finish(made.state, started.browserSecret, undefined);
  assert.is(unconfirmed.ok, false, "no upstream callback before the check");
  assert.is((await flows.confirming(made.state, "another-browser")).ok, false, "the check needs the binding browser");
  const confirming = await flows.confirming(made.state, started.browserSecret);
  assert.ok(confirming.ok);
  if (!confirming.ok) return;
  assert.ok(await flows.confirmed(made.state, confirming.sealed, confirming.record));
  assert.is((await flows.confirming(made.state, started.browserSecret)).ok, false, "confirmed once");
  assert.ok((await flows.finish(made.state, started.browserSecret, undefined)).ok);
  // Without the check the callback needs no confirmation (the weaker, first-browser mode).
  const plain = new SignInFlows(new MemoryStateStore(), new RecordSeal());
  const other = await plain.create("u2", "upstream", []);
  const opened = await plain.start(other.startId, undefined);
  assert.ok(opened.ok && opened.record.confirm === undefined);
  if (opened.ok) assert.ok((await plain.finish(other.state, opened.browserSecret, undefined)).ok);
});

test("browser check: the issuer's ID token must be signed by its keys, for this client, from this issuer, with this sign-in's nonce", async () => {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const other = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  let claims: Record<string, unknown> = {};
  let key = privateKey;
  let withIdToken = true;
  const forms: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const json = (body: unknown) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (req.url === "/.well-known/openid-configuration")
        return json({
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
        });
      if (req.url === "/jwks") return json({ keys: [jwk] });
      forms.push(new URLSearchParams(Buffer.concat(chunks).toString()));
      const idToken = await new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(key);
      json({ access_token: "at", token_type: "Bearer", ...(withIdToken ? { id_token: idToken } : {}) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const check = new BrowserUserCheck(issuer, { id: "check-app", secret: "check-secret" }, 5000);
    const url = new URL(await check.authorizationUrl("https://mcp.example/oauth/upstream/confirm", "st", "ch", "n1"));
    assert.is(url.origin + url.pathname, `${issuer}/authorize`);
    for (const [name, value] of [
      ["scope", "openid"],
      ["nonce", "n1"],
      ["state", "st"],
      ["code_challenge", "ch"],
      ["code_challenge_method", "S256"],
      ["client_id", "check-app"],
      ["redirect_uri", "https://mcp.example/oauth/upstream/confirm"],
    ])
      assert.is(url.searchParams.get(name), value, name);
    const good = { iss: issuer, aud: "check-app", sub: "alice", nonce: "n1" };
    const userOfCode = () => check.userOf("code", "https://mcp.example/oauth/upstream/confirm", "verifier", "n1");
    const refusal = () =>
      userOfCode().then(
        () => "accepted",
        (error: Error) => error.message,
      );
    claims = good;
    assert.equal(await userOfCode(), { issuer, subject: "alice" });
    assert.is(forms.at(-1)!.get("code_verifier"), "verifier");
    claims = { ...good, nonce: "another" };
    assert.match(await refusal(), "nonce");
    claims = { ...good, aud: "another-app" };
    assert.match(await refusal(), "aud");
    claims = { ...good, iss: "https://another.example" };
    assert.match(await refusal(), "iss");
    claims = { ...good, sub: undefined };
    assert.match(await refusal(), "subject");
    claims = good;
    key = other.privateKey;
    assert.match(await refusal(), "signature");
    key = privateKey;
    withIdToken = false;
    assert.match(await refusal(), "no ID token");
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("browser check settings: MCP_SIGN_IN_OIDC_CLIENT_ID needs the resource-server mode", async () => {
  const { info } = signInApi("http://127.0.0.1:1");
  const env = { UPSTREAM_CLIENT_ID: CLIENT_ID, MCP_SIGN_IN_OIDC_CLIENT_ID: "check" };
  const refused = await Promise.resolve()
    .then(() =>
      userOauth.plugs({
        flags: { "trust-user-header": "X-User" },
        env,
        info,
        http: true,
        origin: "http://127.0.0.1:9",
        logger: silentLogger,
      }),
    )
    .then(
      () => "accepted",
      (error: Error) => error.message,
    );
  assert.match(refused, /MCP_SIGN_IN_OIDC_CLIENT_ID applies to the OAuth resource-server mode/);
  const plugs = await userOauth.plugs({
    flags: { "oauth-issuer": "https://issuer.example" },
    env,
    info,
    http: true,
    origin: "http://127.0.0.1:9",
    logger: silentLogger,
  });
  assert.ok(plugs.userSignIn, "accepted with --oauth-issuer");
});

test("attack (resource-server mode without the browser check): refused at start unless the operator names the risk, and then warned of", async () => {
  const { info } = signInApi("http://127.0.0.1:1");
  const env = { UPSTREAM_CLIENT_ID: CLIENT_ID };
  const context = { env, info, http: true, origin: "http://127.0.0.1:9", logger: silentLogger };
  const refused = await Promise.resolve()
    .then(() => userOauth.plugs({ ...context, flags: { "oauth-issuer": "https://issuer.example" } }))
    .then(
      () => "accepted",
      (error: Error) => error.message,
    );
  assert.match(refused, /MCP_SIGN_IN_OIDC_CLIENT_ID/);
  assert.match(refused, /--allow-forwarded-sign-in-links/);
  const warnings: string[] = [];
  const logger: Logger = { ...silent, warn: (message) => void warnings.push(message) };
  const plugs = await userOauth.plugs({
    ...context,
    logger,
    flags: { "oauth-issuer": "https://issuer.example", "allow-forwarded-sign-in-links": true },
  });
  assert.ok(plugs.userSignIn, "accepted when the operator names the risk");
  assert.match(warnings.join("\n"), /whoever opens a user's sign-in link/);
  assert.throws(
    () =>
      userOauth.plugs({
        ...context,
        flags: { "trust-user-header": "X-User", "allow-forwarded-sign-in-links": true },
      }),
    /--allow-forwarded-sign-in-links applies to --oauth-issuer without MCP_SIGN_IN_OIDC_CLIENT_ID/,
  );
});

test("<KEY>_AUTHORIZE_PARAMS adds parameters to the authorization request (Google: access_type=offline, prompt=consent) and never replaces the flow's own", async () => {
  const setup = await startServer(up, new MemoryStateStore(), {
    UPSTREAM_AUTHORIZE_PARAMS: "access_type=offline&prompt=consent&redirect_uri=https://evil.example/cb&state=x",
  });
  try {
    await signIn(setup, "olga");
    const authorize = up.authorizeRequests.at(-1)!;
    assert.is(authorize.get("access_type"), "offline");
    assert.is(authorize.get("prompt"), "consent");
    assert.is(authorize.get("redirect_uri"), `${setup.pages}/oauth/upstream/callback`);
    assert.is.not(authorize.get("state"), "x");
  } finally {
    await setup.close();
  }
});

test("attack: the callback completes only the flow it started, in the browser that started it, for its user", async () => {
  const setup = await startServer(up);
  try {
    // The victim's flow is started in the victim's browser; the attacker replays the callback URL
    // (code and state) from another browser: refused, and the code is not spent for anyone.
    const first = resultOf(await setup.server.handle(LEGACY(1), as("grace")));
    const victim = new Browser("grace");
    const startUrl = urlIn(first.content[0].text)!;
    const start = await fetch(startUrl, { redirect: "manual", headers: { "x-user": "grace" } });
    const authorize = start.headers.get("location")!;
    const toCallback = await fetch(authorize, { redirect: "manual", headers: { "x-signs-in-as": "grace" } });
    const callback = toCallback.headers.get("location")!;
    const stolen = await new Browser("grace").open(callback);
    assert.is(stolen.status, 403, "no browser binding cookie: refused");
    const otherUser = await new Browser("mallory").open(callback);
    assert.is(otherUser.status, 403);
    // A state that names no flow.
    // The flow started in a browser the gateway then says belongs to someone else.
    const switched = new Browser("grace");
    const second = resultOf(await setup.server.handle(LEGACY(3), as("grace")));
    const secondStart = await switched.open(urlIn(second.content[0].text)!, 0);
    assert.is(secondStart.status, 302);
    const secondCallback = (
      await fetch(switched.visits[0]!.location!, { redirect: "manual", headers: { "x-signs-in-as": "grace" } })
    ).headers.get("location")!;
    switched.user = "mallory";
    assert.is((await switched.open(secondCallback)).status, 403, "the callback's user must be the flow's");
    const forged = await victim.open(`${setup.pages}/oauth/upstream/callback?state=forged&code=x`);
    assert.is(forged.status, 400);
    assert.not.ok(up.seenBySub.has("grace"));
    const still = resultOf(await setup.server.handle(LEGACY(2), as("grace")));
    assert.ok(still.isError, "grace is not signed in by any of that");
  } finally {
    await setup.close();
  }
});

test("attack: exact redirect URI and PKCE S256 on every sign-in, whatever the start URL carries; no open redirect", async () => {
  const setup = await startServer(up);
  try {
    const first = resultOf(await setup.server.handle(LEGACY(1), as("heidi")));
    const url = `${urlIn(first.content[0].text)!}&redirect_uri=${encodeURIComponent("https://evil.example/cb")}&next=https://evil.example`;
    const browser = new Browser("heidi");
    const page = await browser.open(url);
    assert.is(page.status, 200, page.body);
    const authorize = up.authorizeRequests.at(-1)!;
    assert.is(authorize.get("redirect_uri"), `${setup.pages}/oauth/upstream/callback`);
    assert.is(authorize.get("code_challenge_method"), "S256");
    const token = up.tokenRequests.at(-1)!;
    assert.is(
      b64sha(token.get("code_verifier")!),
      authorize.get("code_challenge"),
      "the verifier matches the challenge",
    );
    assert.is(token.get("redirect_uri"), authorize.get("redirect_uri"));
    // Redirects went only to the authorization server and back to the callback.
    const targets = browser.visits.filter((v) => v.location).map((v) => new URL(v.location!, v.url).origin);
    assert.equal([...new Set(targets)].sort(), [up.origin, setup.pages].sort());
    const unknown = await fetch(`${setup.pages}/oauth/upstream/start?flow=nope&redirect_uri=https://evil.example`, {
      redirect: "manual",
      headers: { "x-user": "heidi" },
    });
    assert.is(unknown.status, 404);
    assert.is(unknown.headers.get("location"), null);
  } finally {
    await setup.close();
  }
});

test("attack: one user's tokens are never used for another; tokens never reach the log", async () => {
  const setup = await startServer(up);
  try {
    await signIn(setup, "ivan");
    const judy = resultOf(await setup.server.handle(LEGACY(2), as("judy")));
    assert.ok(judy.isError, "judy is asked to sign in, not served with ivan's token");
    await signIn(setup, "judy");
    for (const [who, expected] of [
      ["ivan", "ivan"],
      ["judy", "judy"],
    ] as const)
      assert.is(JSON.parse(resultOf(await setup.server.handle(LEGACY(3), as(who))).content[0].text).sub, expected);
    const ivanTokens = up.seenBySub.get("ivan")!;
    for (const token of up.seenBySub.get("judy")!) assert.not.ok(ivanTokens.has(token));
    const log = setup.logged.join("\n");
    for (const token of [...up.access.keys(), ...up.refresh.keys()])
      assert.not.ok(log.includes(token), "a token in the log");
    const noUser = resultOf(await setup.server.handle(LEGACY(4), { headers: {} }));
    assert.ok(noUser.isError);
    assert.match(noUser.content[0].text, "X-User");
  } finally {
    await setup.close();
  }
});

test("attack: pending flows expire, and each user has a bounded number", async () => {
  let now = 1_000_000;
  const store = new MemoryStateStore(() => now);
  const flows = new SignInFlows(store, new RecordSeal(), () => now);
  const old = await flows.create("u1", "upstream", []);
  now += FLOW_TTL_MS + 1;
  assert.is((await flows.start(old.startId, undefined)).ok, false, "expired");
  const made = [];
  for (let i = 0; i <= MAX_FLOWS_PER_USER; i++) made.push(await flows.create("u1", "upstream", []));
  const oldest = await flows.start(made[0]!.startId, undefined);
  assert.is(oldest.ok, false, "the oldest beyond the bound was dropped");
  assert.is((await flows.start(made.at(-1)!.startId, undefined)).ok, true);
  const other = await flows.create("u2", "upstream", []);
  assert.is((await flows.start(other.startId, undefined)).ok, true, "another user's flows are not dropped");
  // The flow's own age decides, whatever the store keeps (a store's TTL is not relied upon): a
  // flow opened in time but called back after its expiry is refused.
  const keeping = new SignInFlows(new MemoryStateStore(), new RecordSeal(), () => now);
  const late = await keeping.create("u3", "upstream", []);
  const opened = await keeping.start(late.startId, undefined);
  assert.ok(opened.ok);
  now += FLOW_TTL_MS;
  const callback = await keeping.finish(late.state, opened.ok ? opened.browserSecret : "", undefined);
  assert.is(callback.ok, false, "expired at the callback");
  const unopened = await keeping.create("u3", "upstream", []);
  now += FLOW_TTL_MS;
  assert.is((await keeping.start(unopened.startId, undefined)).ok, false, "expired at the start");
});

test("the vault: records are sealed and bound to their user (a record moved to another user's key does not open)", async () => {
  const store = new MemoryStateStore();
  const seal = new RecordSeal("a-vault-secret-of-at-least-32-characters!");
  const vault = new TokenVault(store, seal);
  await vault.put("alice", "upstream", { access: "alice-token", scopes: ["pets:read"] });
  const raw = await store.get("user-oauth:vault:alice:upstream");
  assert.ok(raw && !raw.includes("alice-token"), "encrypted at rest");
  await store.set("user-oauth:vault:bob:upstream", raw!, 60_000);
  assert.is(await vault.get("bob", "upstream"), undefined);
  assert.is((await vault.get("alice", "upstream"))?.access, "alice-token");
});

test("the vault: a record opens only in its user's current generation and before its own end", async () => {
  let now = 1_000_000;
  const store = new MemoryStateStore(() => now);
  const vault = new TokenVault(store, new RecordSeal("a-vault-secret-of-at-least-32-characters!"), () => now);
  await vault.put("alice", "upstream", { access: "a1", scopes: [], expiresAt: now + 60_000 });
  const name = "user-oauth:vault:alice:upstream";
  const saved = (await store.get(name))!;
  const generation = (await store.get("user-oauth:generation:alice"))!;
  await store.delete("user-oauth:generation:alice");
  assert.is(await vault.get("alice", "upstream"), undefined, "without its generation nothing opens");
  await store.set("user-oauth:generation:alice", generation, 60_000);
  assert.is((await vault.get("alice", "upstream"))?.access, "a1");
  await vault.signOut("alice", ["upstream"]);
  await store.set(name, saved, 60_000);
  assert.is(await vault.get("alice", "upstream"), undefined, "a record of the generation before sign-out");
  await vault.put("alice", "upstream", { access: "a2", scopes: [], expiresAt: now + 60_000 });
  const second = (await store.get(name))!;
  now += 61_000;
  await store.set(name, second, 60_000);
  assert.is(await vault.get("alice", "upstream"), undefined, "put back after its own end");
});

test("resource-server mode: the user is the MCP token's issuer and subject; the pages need no header", async () => {
  // Without the browser check (the operator named the risk): the first browser binds the link.
  const setup = await startServer(up, new MemoryStateStore(), {}, () => {}, {
    "oauth-issuer": "https://issuer.example",
    "allow-forwarded-sign-in-links": true,
  });
  try {
    const first = resultOf(await setup.server.handle(LEGACY(1), { subject: "sub-1" }));
    const page = await new Browser(undefined, "rs-user-1").open(urlIn(first.content[0].text)!);
    assert.match(page.body, "You are signed in");
    assert.is(
      JSON.parse(resultOf(await setup.server.handle(LEGACY(2), { subject: "sub-1" })).content[0].text).sub,
      "rs-user-1",
    );
    assert.ok(
      resultOf(await setup.server.handle(LEGACY(3), { subject: "sub-2" })).isError,
      "another subject is not signed in",
    );
    assert.ok(resultOf(await setup.server.handle(LEGACY(4), {})).isError, "no subject, no tokens");
  } finally {
    await setup.close();
  }
  const oauth = (issuer: string) => ({ kind: "oauth" as const, issuer });
  assert.is.not(
    userOf(oauth("https://a.example"), { subject: "x" }),
    userOf(oauth("https://b.example"), { subject: "x" }),
  );
  assert.is(
    userOf({ kind: "header", header: "X-User" }, { subject: "x" }),
    undefined,
    "a header source ignores the subject",
  );
});

test("over HTTP with the resource-server guard: the browser's pages pass without a bearer token, sign-out and the MCP endpoint do not", async () => {
  const port = await freePort();
  const { info, tools } = signInApi(up.origin);
  const saved = { ...process.env };
  Object.assign(process.env, { UPSTREAM_CLIENT_ID: CLIENT_ID, UPSTREAM_CLIENT_SECRET: CLIENT_SECRET });
  const handle = await main(
    info,
    tools,
    [
      "--http",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--oauth-issuer",
      "https://issuer.example",
      "--oauth-jwks",
      `${up.origin}/jwks`,
      "--allow-forwarded-sign-in-links",
    ],
    { features: [auth, oauth, userOauth, clientRequests, inputRequests] },
  );
  try {
    assert.ok(handle, "started");
    const origin = `http://127.0.0.1:${port}`;
    const start = await fetch(`${origin}/oauth/upstream/start?flow=unknown`, { redirect: "manual" });
    assert.is(start.status, 404, "the start page is served (and finds no such flow), not refused by the guard");
    const callback = await fetch(`${origin}/oauth/upstream/callback?state=unknown&code=x`, { redirect: "manual" });
    assert.is(callback.status, 400);
    const signOut = await fetch(`${origin}/oauth/upstream/sign-out`, { method: "POST" });
    assert.is(signOut.status, 401, "sign-out needs the MCP token");
    const mcp = await fetch(`${origin}/mcp`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    assert.is(mcp.status, 401);
  } finally {
    await handle?.close();
    process.env = saved;
  }
});

test("--trust-user-header: HTTP requests without the header are refused; with it they are served", async () => {
  const port = await freePort();
  const { info, tools } = signInApi(up.origin);
  const handle = await main(
    info,
    tools,
    ["--http", "--host", "127.0.0.1", "--port", String(port), "--trust-user-header", "X-User"],
    {
      features: [auth, userOauth, clientRequests, inputRequests],
    },
  );
  try {
    const ping = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {} },
        }),
      });
    assert.is((await ping({})).status, 401);
    assert.is((await ping({ "x-user": "  " })).status, 401);
    assert.is((await ping({ "x-user": "alice" })).status, 200);
  } finally {
    await handle?.close();
  }
});

test("--trust-user-header on a non-loopback bind: a warning at start-up; none on loopback", async () => {
  const { info, tools } = signInApi(up.origin);
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (lines.push(String(chunk)), true)) as typeof write;
  const start = async (host: string) => {
    lines.length = 0;
    // 192.0.2.1 (TEST-NET-1) is on no interface: the bind fails after the start-up checks, so nothing listens beyond loopback.
    const handle = await main(info, tools, ["--http", "--host", host, "--port", "0", "--trust-user-header", "X-User"], {
      features: [auth, userOauth, clientRequests, inputRequests],
    }).catch(() => undefined);
    await handle?.close();
    return lines.join("");
  };
  try {
    assert.match(await start("192.0.2.1"), /warn: --trust-user-header X-User: this server listens on 192\.0\.2\.1/);
    assert.not.match(await start("127.0.0.1"), /--trust-user-header X-User: this server listens/);
  } finally {
    process.stderr.write = write;
  }
});

test("a shared store without MCP_TOKEN_VAULT_SECRET is refused at start; an HTTP server must know who the user is", async () => {
  const { info } = signInApi("http://127.0.0.1:1");
  const env = { UPSTREAM_CLIENT_ID: CLIENT_ID };
  const plugs = await userOauth.plugs({
    logger: silentLogger,
    flags: { "trust-user-header": "X-User" },
    env,
    info,
    http: true,
    origin: "http://127.0.0.1:9",
  });
  const shared = Object.assign(new MemoryStateStore(), { shared: true });
  assert.throws(() => plugs.userSignIn!({ state: shared, logger: silent }), /MCP_TOKEN_VAULT_SECRET/);
  assert.throws(
    () => userOauth.plugs({ logger: silentLogger, flags: {}, env, info, http: true, origin: "http://127.0.0.1:9" }),
    /--trust-user-header|--oauth-issuer/,
  );
  // Without a client id nothing is signed in per user: the feature stays out of the way.
  assert.equal(
    await userOauth.plugs({ logger: silentLogger, flags: {}, env: {}, info, http: true, origin: undefined }),
    {},
  );
});

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

test.run();
