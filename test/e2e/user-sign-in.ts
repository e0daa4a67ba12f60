/**
 * Per-user upstream sign-in with real parts: oidc-provider as the upstream's authorization server,
 * an upstream API that checks its tokens by introspection, Debian's Chromium (playwright-core)
 * signing in and consenting on the provider's pages, and the MCP SDK's client answering the URL
 * elicitation by handing the URL to the browser. Everything listens on 127.0.0.1 and stops at the end.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Browser } from "playwright-core";
import { main } from "../../runtime/src/cli/main.js";
import { auth } from "../../runtime/src/features/auth/index.js";
import { userOauth } from "../../runtime/src/features/user-oauth/index.js";
import { clientRequests } from "../../runtime/src/features/client-requests/index.js";
import { legacyClientRequests } from "../../runtime/src/features/client-requests/client-requests.js";
import { inputRequests } from "../../runtime/src/features/input-requests/index.js";
import { requestHelpers } from "../../runtime/src/features/input-requests/request-helpers.js";
import { redis } from "../../runtime/src/features/redis/index.js";
import { sessions } from "../../runtime/src/features/sessions/index.js";
import type { TransportHandle } from "../../runtime/src/transport/transport.js";
import {
  CHECK_CLIENT,
  CLIENT,
  freePort,
  signInApi,
  startProvider,
  startUpstreamApi,
} from "../support/sign-in-fixture.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";
import { upstreamCredentials } from "../../runtime/src/features/auth/index.js";
import { silentLogger } from "../../runtime/src/protocol/logger.js";
import { createServer } from "node:http";
import { within } from "../support/runtime-fixture.js";
import { scaleBinaries, startRedis } from "../support/redis-fixture.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-sync",
];

let browser: Browser;
const stops: Array<() => Promise<unknown>> = [];

test.before(async () => {
  // Installs Debian's Chromium when it is missing (as the fleet report's browser test does).
  const setup = (await import(fileURLToPath(new URL("../../../scripts/setup-chromium.js", import.meta.url)))) as {
    chromium: string;
  };
  const { chromium } = await import("playwright-core");
  browser = await chromium.launch({ executablePath: setup.chromium, args: ARGS, timeout: 60_000 });
  stops.push(() => browser.close());
});

test.after(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

/**
 * Signs `login` in at the provider from `url` in a fresh browser context (the user's own browser);
 * the trusted gateway's header names the user on the sign-in pages too. Resolves to the last page's text.
 */
async function signInInBrowser(url: string, login: string, gateway = true): Promise<string> {
  const context = await browser.newContext(gateway ? { extraHTTPHeaders: { "X-User": login } } : {});
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(url);
    await page.fill('input[name="login"]', login).catch(async (error: Error) => {
      throw new Error(`${error.message}\nat ${page.url()}:\n${(await page.content()).slice(0, 800)}`);
    });
    await page.fill('input[name="password"]', "any");
    await page.click('button[type="submit"]');
    await page.waitForSelector('button:has-text("Continue")');
    await page.click('button[type="submit"]');
    await page.waitForSelector("#message");
    return (await page.textContent("#message")) ?? "";
  } finally {
    await context.close();
  }
}

/** An MCP client of `url` acting for `user` (the trusted gateway's header), whose URL elicitations open the browser. */
async function connect(url: string, user: string, pages: Promise<string>[], urls: string[]): Promise<Client> {
  const client = new Client(
    { name: `client-of-${user}`, version: "1.0.0" },
    { capabilities: { elicitation: { url: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const params = request.params as { mode?: string; url?: string };
    assert.is(params.mode, "url");
    urls.push(params.url!);
    // As a client does: open the URL in the user's browser and answer at once.
    const page = signInInBrowser(params.url!, user);
    page.catch(() => {}); // awaited by the test
    pages.push(page);
    return { action: "accept" };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { "X-User": user } } }),
  );
  stops.push(() => client.close());
  return client;
}

/** Starts the MCP server in this process with `env` set. */
async function startServer(
  argv: string[],
  env: Record<string, string>,
  info: Parameters<typeof main>[0],
  tools: Parameters<typeof main>[1],
): Promise<TransportHandle> {
  // Put back at the test's end: later files of the same uvu process (a test lane) read process.env too.
  const saved = Object.entries(env).map(([key]) => [key, process.env[key]] as const);
  stops.push(async () => {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  Object.assign(process.env, env);
  const handle = await main(info, tools, argv, {
    features: [auth, redis, sessions, userOauth, clientRequests, inputRequests],
  });
  assert.ok(handle, "the server started");
  stops.push(() => handle!.close());
  return handle!;
}

test("HTTP, two users behind a trusted gateway: each is asked to sign in (URL elicitation), signs in in the browser and reaches the upstream with their own token", async () => {
  const port = await freePort();
  const provider = await startProvider([`http://127.0.0.1:${port}/oauth/upstream/callback`]);
  stops.push(() => provider.close());
  const api = await startUpstreamApi(provider);
  stops.push(() => api.close());
  const { info, tools } = signInApi(provider.issuer);
  await startServer(
    [
      "--http",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--sessions",
      "--trust-user-header",
      "X-User",
      "--base-url",
      api.baseUrl,
    ],
    { UPSTREAM_CLIENT_ID: CLIENT.id, UPSTREAM_CLIENT_SECRET: CLIENT.secret, MCP_SIGN_IN_WAIT_MS: "60000" },
    info,
    tools,
  );
  const mcp = `http://127.0.0.1:${port}/mcp`;
  const pages: Promise<string>[] = [];
  const urls: string[] = [];
  const alice = await connect(mcp, "alice", pages, urls);
  const bob = await connect(mcp, "bob", pages, urls);

  const first = (await within(alice.callTool({ name: "getMe", arguments: {} }), 60_000, "alice's first call")) as {
    isError?: boolean;
    structuredContent?: { sub?: string };
    content: Array<{ text?: string }>;
  };
  assert.is(first.isError, undefined, first.content[0]?.text);
  assert.is(first.structuredContent?.sub ?? JSON.parse(first.content[0]!.text!).sub, "alice");
  assert.is(urls.length, 1, "alice was asked once");
  assert.match(urls[0]!, new RegExp(`^http://127\\.0\\.0\\.1:${port}/oauth/upstream/start\\?flow=`));
  assert.match(await pages[0]!, /You are signed in/);

  const second = (await bob.callTool({ name: "getMe", arguments: {} })) as { content: Array<{ text?: string }> };
  assert.is(JSON.parse(second.content[0]!.text!).sub, "bob");
  assert.is(urls.length, 2, "bob was asked too");

  // Signed in: no more questions, and each keeps their own token.
  const again = (await alice.callTool({ name: "getMe", arguments: {} })) as { content: Array<{ text?: string }> };
  assert.is(JSON.parse(again.content[0]!.text!).sub, "alice");
  assert.is(urls.length, 2);
  const [aliceTokens, bobTokens] = [api.tokensBySub.get("alice")!, api.tokensBySub.get("bob")!];
  assert.ok(aliceTokens.size >= 1 && bobTokens.size >= 1);
  for (const token of aliceTokens) assert.not.ok(bobTokens.has(token), "no token is used for both users");
});

test("two instances sharing Redis, two users: the callback lands on the other instance and the waiting call goes on; a refresh after a forced expiry; a revoked grant leads to a new sign-in; signing out works; Redis never sees a token", async () => {
  const { redis: redisBinary } = await scaleBinaries();
  const store = await startRedis(redisBinary);
  stops.push(() => store.stop());
  const monitor = await store.monitor();
  stops.push(async () => monitor.close());
  const [portA, portB] = [await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${portB}`;
  const provider = await startProvider([`${publicUrl}/oauth/upstream/callback`]);
  stops.push(() => provider.close());
  const api = await startUpstreamApi(provider);
  stops.push(() => api.close());
  const { info, tools } = signInApi(provider.issuer);
  const env = {
    UPSTREAM_CLIENT_ID: CLIENT.id,
    UPSTREAM_CLIENT_SECRET: CLIENT.secret,
    MCP_SIGN_IN_WAIT_MS: "60000",
    MCP_STATE_SECRET: "state-secret-0123456789-0123456789-abcdef",
    MCP_TOKEN_VAULT_SECRET: "vault-secret-0123456789-0123456789-abcdef",
  };
  const common = [
    "--http",
    "--host",
    "127.0.0.1",
    "--sessions",
    "--trust-user-header",
    "X-User",
    "--base-url",
    api.baseUrl,
  ];
  const hosts = [
    "--allowed-hosts",
    `127.0.0.1:${portA},127.0.0.1:${portB}`,
    "--public-url",
    publicUrl,
    "--state",
    store.url,
  ];
  await startServer([...common, ...hosts, "--port", String(portA)], env, info, tools);
  await startServer([...common, ...hosts, "--port", String(portB)], env, info, tools);
  const pages: Promise<string>[] = [];
  const urls: string[] = [];
  const onA = await connect(`http://127.0.0.1:${portA}/mcp`, "zoe", pages, urls);
  const onB = await connect(`http://127.0.0.1:${portB}/mcp`, "zoe", pages, urls);
  const subOf = async (client: Client) => {
    const result = (await within(client.callTool({ name: "getMe", arguments: {} }), 60_000, "a call")) as {
      isError?: boolean;
      content: Array<{ text?: string }>;
    };
    assert.not.ok(result.isError, result.content[0]?.text);
    return JSON.parse(result.content[0]!.text!).sub as string;
  };

  provider.setAccessTokenTtl(30); // within the refresh margin: the next use refreshes first
  assert.is(await subOf(onA), "zoe");
  assert.is(urls.length, 1);
  assert.ok(urls[0]!.startsWith(`${publicUrl}/oauth/upstream/start?flow=`));
  assert.match(await pages[0]!, /You are signed in/);
  provider.setAccessTokenTtl(3600);
  assert.is(await subOf(onB), "zoe", "the other instance uses the same user's tokens");
  assert.is(urls.length, 1, "not asked again on the other instance");
  assert.ok(provider.grants.includes("refresh_token"), `refreshed: ${provider.grants.join(",")}`);

  // A second user on the other instance: asked to sign in too, served with their own token.
  const yannPages: Promise<string>[] = [];
  const yannUrls: string[] = [];
  const yannOnB = await connect(`http://127.0.0.1:${portB}/mcp`, "yann", yannPages, yannUrls);
  assert.is(await subOf(yannOnB), "yann");
  assert.is(yannUrls.length, 1, "yann was asked to sign in");
  assert.match(await yannPages[0]!, /You are signed in/);
  const yannOnA = await connect(`http://127.0.0.1:${portA}/mcp`, "yann", yannPages, yannUrls);
  assert.is(await subOf(yannOnA), "yann", "yann's tokens serve him on the other instance");
  assert.is(await subOf(onA), "zoe", "and zoe keeps hers");
  assert.is(yannUrls.length, 1);
  const [zoeTokens, yannTokens] = [api.tokensBySub.get("zoe")!, api.tokensBySub.get("yann")!];
  for (const token of yannTokens) assert.not.ok(zoeTokens.has(token), "no token is used for both users");

  await provider.revokeAccount("zoe");
  assert.is(await subOf(onA), "zoe", "signed in again after the revocation");
  assert.is(urls.length, 2, "the revocation led to a new sign-in");
  assert.match(await pages[1]!, /You are signed in/);

  const out = await fetch(`${publicUrl}/oauth/upstream/sign-out`, { method: "POST", headers: { "x-user": "zoe" } });
  assert.is(out.status, 200);
  assert.is(await subOf(onB), "zoe");
  assert.is(urls.length, 3, "asked to sign in after signing out");
  await pages[2];

  const seen = monitor.text();
  assert.ok(seen.includes("user-oauth") || seen.length > 0, "Redis was used");
  for (const token of [...api.tokensBySub.values()].flatMap((set) => [...set]))
    assert.not.ok(seen.includes(token), "an access token reached Redis in the clear");
});

/**
 * Opens `url` in a fresh browser context and answers the provider's pages as `login` (sign-in form,
 * then every consent) until a page of the MCP server shows its message; resolves to that message.
 */
async function browseAs(url: string, login: string): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(url);
    for (let step = 0; step < 6; step++) {
      await page.waitForSelector('#message, input[name="login"], button[type="submit"]');
      if (await page.$("#message")) return (await page.textContent("#message")) ?? "";
      if (await page.$('input[name="login"]')) {
        await page.fill('input[name="login"]', login);
        await page.fill('input[name="password"]', "any");
      }
      await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    }
    throw new Error(`no result page after 6 steps, at ${page.url()}`);
  } finally {
    await context.close();
  }
}

test("resource-server mode with the browser check at the issuer: a start link made for alice, opened in a browser signed in as bob, is refused; alice's own browser passes", async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // The provider is both the MCP authorization server (the subjects' issuer) and the upstream's.
  const provider = await startProvider([`${origin}/oauth/upstream/callback`], [`${origin}/oauth/upstream/confirm`]);
  stops.push(() => provider.close());
  const api = await startUpstreamApi(provider);
  stops.push(() => api.close());
  const { info, tools } = signInApi(provider.issuer);
  const plugs = await userOauth.plugs({
    flags: { "oauth-issuer": provider.issuer },
    env: {
      UPSTREAM_CLIENT_ID: CLIENT.id,
      UPSTREAM_CLIENT_SECRET: CLIENT.secret,
      MCP_SIGN_IN_OIDC_CLIENT_ID: CHECK_CLIENT.id,
      MCP_SIGN_IN_OIDC_CLIENT_SECRET: CHECK_CLIENT.secret,
      MCP_SIGN_IN_WAIT_MS: "0",
    },
    info,
    http: true,
    origin,
    logger: silentLogger,
  });
  const server = new McpServer({
    info,
    tools,
    upstream: { baseUrl: api.baseUrl, timeoutMs: 10_000 },
    credentials: upstreamCredentials(),
    userSignIn: plugs.userSignIn!,
    clientRequests: legacyClientRequests,
    requestTools: requestHelpers,
    state: new MemoryStateStore(),
    logger: silentLogger,
  });
  // The sign-in pages on the public address (the MCP calls below carry the guard's subject directly).
  const endpoints = plugs.httpEndpoints!(server, undefined as never, silentLogger);
  const pages = createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0]!;
    if (!endpoints.owns(pathname)) return void res.writeHead(404).end();
    void endpoints.handle(req, res, pathname, undefined, () => {});
  });
  await new Promise<void>((resolve) => pages.listen(port, "127.0.0.1", resolve));
  stops.push(() => new Promise((resolve) => (pages.closeAllConnections(), pages.close(resolve))));
  const call = async (subject: string) => {
    const answer = (await server.handle(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "getMe", arguments: {} } },
      { subject },
    )) as unknown as { result: { isError?: boolean; content: Array<{ text: string }> } };
    return answer.result;
  };
  const linkIn = (text: string) => /(http:\/\/\S+\/oauth\/upstream\/start\?flow=[\w-]+)/.exec(text)?.[1];

  const first = await call("alice");
  assert.ok(first.isError);
  const aliceLink = linkIn(first.content[0]!.text)!;
  assert.ok(aliceLink, first.content[0]!.text);
  assert.is(await browseAs(aliceLink, "bob"), "This sign-in link was made for another user.");
  assert.is(api.tokensBySub.size, 0, "no upstream token for anyone");
  assert.not.ok(provider.grants.includes("refresh_token"));
  const still = await call("alice");
  assert.ok(still.isError, "alice is not signed in by bob's browser");
  assert.match(await browseAs(aliceLink, "alice"), /unknown or has expired|already opened/, "the refused link is dead");

  const aliceOwn = linkIn(still.content[0]!.text)!;
  assert.is(await browseAs(aliceOwn, "alice"), "You are signed in. You can close this page and return to your client.");
  const done = await call("alice");
  assert.not.ok(done.isError, done.content[0]!.text);
  assert.is(JSON.parse(done.content[0]!.text).sub, "alice");
  assert.equal([...api.tokensBySub.keys()], ["alice"]);
});

test("stdio: the local user signs in through the loopback callback on 127.0.0.1", async () => {
  const loopback = await freePort();
  const provider = await startProvider([`http://127.0.0.1:${loopback}/oauth/upstream/callback`]);
  stops.push(() => provider.close());
  const api = await startUpstreamApi(provider);
  stops.push(() => api.close());
  const dist = fileURLToPath(new URL("../../", import.meta.url));
  const script = join(mkdtempSync(join(tmpdir(), "mcp-gen-sign-in-")), "server.mjs");
  writeFileSync(
    script,
    [
      `import { main } from ${JSON.stringify(join(dist, "runtime/src/cli/main.js"))};`,
      `import { auth } from ${JSON.stringify(join(dist, "runtime/src/features/auth/index.js"))};`,
      `import { userOauth } from ${JSON.stringify(join(dist, "runtime/src/features/user-oauth/index.js"))};`,
      `import { clientRequests } from ${JSON.stringify(join(dist, "runtime/src/features/client-requests/index.js"))};`,
      `import { inputRequests } from ${JSON.stringify(join(dist, "runtime/src/features/input-requests/index.js"))};`,
      `import { signInApi } from ${JSON.stringify(join(dist, "test/support/sign-in-fixture.js"))};`,
      `const { info, tools } = signInApi(process.env.TEST_ISSUER);`,
      `await main(info, tools, process.argv.slice(2), { features: [auth, userOauth, clientRequests, inputRequests] });`,
    ].join("\n"),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script, "--base-url", api.baseUrl, "--public-url", `http://127.0.0.1:${loopback}`],
    env: {
      PATH: process.env.PATH ?? "",
      TEST_ISSUER: provider.issuer,
      UPSTREAM_CLIENT_ID: CLIENT.id,
      UPSTREAM_CLIENT_SECRET: CLIENT.secret,
      MCP_SIGN_IN_WAIT_MS: "60000",
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "local", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  const urls: string[] = [];
  let page: Promise<string> | undefined;
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const url = (request.params as { url: string }).url;
    urls.push(url);
    page = signInInBrowser(url, "local-user", false);
    page.catch(() => {});
    return { action: "accept" };
  });
  await client.connect(transport);
  stops.push(() => client.close());
  const result = (await within(client.callTool({ name: "getMe", arguments: {} }), 60_000, "the stdio call")) as {
    isError?: boolean;
    content: Array<{ text?: string }>;
  };
  assert.not.ok(result.isError, result.content[0]?.text);
  assert.is(JSON.parse(result.content[0]!.text!).sub, "local-user");
  assert.ok(urls[0]!.startsWith(`http://127.0.0.1:${loopback}/oauth/upstream/start?flow=`), urls[0]);
  assert.match(await page!, /You are signed in/);
});

test.run();
