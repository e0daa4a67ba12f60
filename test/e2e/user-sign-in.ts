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
import type { TransportHandle } from "../../runtime/src/transport/transport.js";
import { CLIENT, freePort, signInApi, startProvider, startUpstreamApi } from "../unit/sign-in-fixture.js";
import { within } from "../unit/runtime-fixture.js";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"];

let browser: Browser;
const stops: Array<() => Promise<unknown>> = [];

test.before(async () => {
  const { chromium } = await import("playwright-core");
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 60_000 });
  stops.push(() => browser.close());
});

test.after(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
});

/**
 * Signs `login` in at the provider from `url` in a fresh browser context (the user's own browser);
 * the trusted gateway's header names the user on the sign-in pages too. Resolves to the last page's text.
 */
async function signInInBrowser(url: string, login: string): Promise<string> {
  const context = await browser.newContext({ extraHTTPHeaders: { "X-User": login } });
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
  const client = new Client({ name: `client-of-${user}`, version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
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
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { "X-User": user } } }));
  stops.push(() => client.close());
  return client;
}

/** Starts the MCP server in this process with `env` set. */
async function startServer(argv: string[], env: Record<string, string>, info: Parameters<typeof main>[0], tools: Parameters<typeof main>[1]): Promise<TransportHandle> {
  Object.assign(process.env, env);
  const handle = await main(info, tools, argv, { features: [auth, userOauth] });
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
    ["--http", "--host", "127.0.0.1", "--port", String(port), "--sessions", "--trust-user-header", "X-User", "--base-url", api.baseUrl],
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

test.run();
