/**
 * OAuth 2 client credentials on the real Workers runtime: the credential fixture
 * (specs/fixtures/auth-schemes.yaml, its token endpoint moved to a local one) generated with
 * `--target worker`, served by `npm run dev:worker` (wrangler dev → workerd) with the client's id and
 * secret in `.dev.vars`. The official client calls `oauthRead`: the Worker fetches a token from the
 * local token endpoint (through the platform's fetch, as its other upstream calls: got cannot run on
 * workerd) and sends it to the local upstream as a bearer token, once per token.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs wrangler (scripts/setup-wrangler.js) and
 * Node 22 (scripts/setup-conformance.js; wrangler needs Node 22.12+).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { startWorkerDev, workerTools, type WorkerDev } from "../support/worker-dev.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-worker-oauth-"));
const out = join(work, "server");
const json = { "content-type": "application/json" };
let upstream: Upstream;
let tokens: Upstream;
let worker: WorkerDev | undefined;

test.before(async () => {
  try {
    const tools = await workerTools();
    upstream = await startUpstream(() => ({ status: 200, headers: json, body: '{"ok":true}' }));
    let issued = 0;
    tokens = await startUpstream((r) =>
      r.method === "POST" && r.url.endsWith("/token")
        ? { status: 200, headers: json, body: JSON.stringify({ access_token: `at-${++issued}`, expires_in: 3600 }) }
        : { status: 404, headers: json, body: "{}" },
    );
    const spec = join(work, "auth-schemes.yaml");
    const fixture = readFileSync(join(root, "specs/fixtures/auth-schemes.yaml"), "utf8");
    writeFileSync(spec, fixture.replace("http://127.0.0.1:4014/token", `${tokens.baseUrl}/token`));
    await run(process.execPath, [join(root, "bin/mcp-gen.js"), spec, "-o", out, "--target", "worker"], {
      timeout: 120_000,
    });
    const vars = {
      API_BASE_URL: upstream.baseUrl,
      PETSTORE_AUTH_CLIENT_ID: "cid",
      PETSTORE_AUTH_CLIENT_SECRET: "shh-secret",
    };
    worker = await startWorkerDev(out, vars, tools);
  } catch (error) {
    // uvu does not print a hook's error: the reason the Worker did not start goes to the log.
    console.error(error);
    throw error;
  }
});

test.after(async () => {
  await worker?.stop();
  await upstream?.close();
  await tokens?.close();
  rmSync(work, { recursive: true, force: true });
});

test("the Worker gets a client-credentials token from a local token endpoint and sends it upstream", async () => {
  const client = new Client({ name: "worker-oauth", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(worker!.url)));
  try {
    for (let call = 0; call < 2; call++) {
      const result = (await client.callTool({ name: "oauthRead", arguments: {} })) as { isError?: boolean };
      assert.not.ok(result.isError, JSON.stringify(result));
    }
  } finally {
    await client.close();
  }
  const tokenRequests = tokens.received.filter((r) => r.method === "POST");
  assert.is(tokenRequests.length, 1, "one token request: the token is cached");
  assert.is(tokenRequests[0]!.headers.authorization, `Basic ${Buffer.from("cid:shh-secret").toString("base64")}`);
  assert.match(tokenRequests[0]!.body, /^grant_type=client_credentials&scope=read%3Apets$/);
  const upstreamCalls = upstream.received.map((r) => r.headers.authorization);
  assert.equal(upstreamCalls, ["Bearer at-1", "Bearer at-1"]);
});

test.run();
