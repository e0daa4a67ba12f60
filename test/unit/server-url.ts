import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { planServerUrl, serverVariableEnv } from "../../generator/pipeline/plan/server-url.js";
import { main, usage } from "../../runtime/src/cli/main.js";
import { resolveBaseUrl as resolveWith, type BaseUrlSources } from "../../runtime/src/upstream/server-url.js";
import { fillServerUrl, serverVars } from "../../runtime/src/features/server-vars/index.js";
import type { HttpHandle } from "../../runtime/src/transport/http.js";
import type { ServerInfo, ToolDefinition } from "../../runtime/src/api/types.js";
import { api as makeApi, operation as makeOperation } from "../support/factories.js";
import { startUpstream } from "../support/runtime-fixture.js";

/** The base URL with feature server-vars. */
const resolveBaseUrl = (info: ServerInfo, sources: BaseUrlSources) => resolveWith(info, sources, fillServerUrl);

/** A tool without arguments: GET /ping. */
const tool: ToolDefinition = {
  name: "ping_api",
  description: "d",
  inputSchema: { type: "object", properties: {} },
  http: { method: "get", path: "/ping", parameters: [], response: { accept: ["application/json"] } },
};

const info: ServerInfo = {
  name: "regional",
  version: "1.0.0",
  defaultBaseUrl: "https://eu.api.example.com/v2",
  serverUrl: {
    template: "https://{region}.api.example.com/{version}",
    variables: [
      { name: "region", env: "API_SERVER_REGION", default: "eu", enum: ["eu", "us"] },
      { name: "version", env: "API_SERVER_VERSION", default: "v2" },
    ],
  },
};

test("server variables: defaults, environment, --server-var (wins), --base-url/API_BASE_URL replace the template", () => {
  assert.equal(resolveBaseUrl(info, { env: {} }), { ok: true, baseUrl: "https://eu.api.example.com/v2" });
  assert.equal(resolveBaseUrl(info, { env: { API_SERVER_REGION: "us" } }), {
    ok: true,
    baseUrl: "https://us.api.example.com/v2",
  });
  assert.equal(resolveBaseUrl(info, { env: { API_SERVER_REGION: "us" }, serverVars: ["region=eu", "version=v3"] }), {
    ok: true,
    baseUrl: "https://eu.api.example.com/v3",
  });
  assert.equal(resolveBaseUrl(info, { env: { API_BASE_URL: "http://127.0.0.1:1/x" }, serverVars: ["region=us"] }), {
    ok: true,
    baseUrl: "http://127.0.0.1:1/x",
  });
  assert.equal(resolveBaseUrl(info, { env: {}, flag: "http://127.0.0.1:2" }), {
    ok: true,
    baseUrl: "http://127.0.0.1:2",
  });
  assert.equal(resolveBaseUrl({ name: "plain", version: "1", defaultBaseUrl: "https://a.example" }, { env: {} }), {
    ok: true,
    baseUrl: "https://a.example",
  });
});

test("--help lists the server URL's variables with feature server-vars, after the core's options; nothing without it", () => {
  const help = usage(info, [serverVars]);
  assert.match(
    help,
    /--server-var N=V   set a variable of the server URL https:\/\/\{region\}\.api\.example\.com\/\{version\}\n/,
  );
  assert.match(help, /region: env API_SERVER_REGION; default eu; one of eu, us\n/);
  assert.match(help, /version: env API_SERVER_VERSION; default v2\n/);
  assert.ok(help.indexOf("--surface S") < help.indexOf("--server-var"));
  assert.not.match(usage(info), /--server-var/);
});

test("without feature server-vars the core serves --base-url, API_BASE_URL or the spec's default URL", () => {
  assert.equal(resolveWith(info, { env: { API_SERVER_REGION: "us" } }), {
    ok: true,
    baseUrl: "https://eu.api.example.com/v2",
  });
  assert.equal(resolveWith(info, { env: { API_BASE_URL: "http://127.0.0.1:1/x" } }), {
    ok: true,
    baseUrl: "http://127.0.0.1:1/x",
  });
});

test("server variables: values outside the enum, unknown names and missing required values are refused with the way out", () => {
  const bad = resolveBaseUrl(info, { env: { API_SERVER_REGION: "mars" } });
  assert.equal(bad, { ok: false, message: "API_SERVER_REGION: 'mars' is not one of eu, us" });
  const unknown = resolveBaseUrl(info, { env: {}, serverVars: ["zone=1"] });
  assert.ok(!unknown.ok && /variables region, version/.test(unknown.message), JSON.stringify(unknown));
  const malformed = resolveBaseUrl(info, { env: {}, serverVars: ["region"] });
  assert.ok(!malformed.ok && /name=value/.test(malformed.message));
  const noDefault: ServerInfo = {
    name: "n",
    version: "1",
    serverUrl: { template: "https://{tenant}.example.com", variables: [{ name: "tenant", env: "API_SERVER_TENANT" }] },
  };
  const missing = resolveBaseUrl(noDefault, { env: {} });
  assert.ok(
    !missing.ok && /set API_SERVER_TENANT or pass --server-var tenant=/.test(missing.message),
    JSON.stringify(missing),
  );
  assert.equal(resolveBaseUrl(noDefault, { env: { API_SERVER_TENANT: "acme" } }), {
    ok: true,
    baseUrl: "https://acme.example.com",
  });
});

test("planner: the first absolute server's variables become settings with API_SERVER_* variables", () => {
  const api = makeApi([makeOperation()]);
  api.servers = [
    { pointer: "#/servers/0", url: "/relative", template: "/relative", variables: [] },
    {
      pointer: "#/servers/1",
      url: "https://eu.example.com/v1",
      template: "https://{region}.example.com/{apiVersion}",
      variables: [
        { name: "region", default: "eu", enum: ["eu", "us"], description: "Data region" },
        { name: "apiVersion", default: "v1" },
      ],
    },
  ];
  const plan = planServerUrl(api, new DiagnosticBag());
  assert.is(plan.defaultBaseUrl, "https://eu.example.com/v1");
  assert.equal(
    plan.serverUrl?.variables.map((v) => v.env),
    ["API_SERVER_REGION", "API_SERVER_API_VERSION"],
  );
  assert.equal(
    plan.env.map((v) => v.name),
    ["API_BASE_URL", "API_SERVER_REGION", "API_SERVER_API_VERSION"],
  );
  assert.match(plan.env[1]!.description, /Data region \(one of eu, us\) \(default: eu\)/);
  assert.is(plan.env[0]!.required, false);
  assert.is(serverVariableEnv("tenant-id"), "API_SERVER_TENANT_ID");
});

test("planner: a relative server URL leaves the base URL to the user (info diagnostic)", () => {
  const api = makeApi([makeOperation()]);
  api.servers = [{ pointer: "#/servers/0", url: "/v1", template: "/v1", variables: [] }];
  const bag = new DiagnosticBag();
  const plan = planServerUrl(api, bag);
  assert.is(plan.defaultBaseUrl, undefined);
  assert.is(plan.env[0]!.required, true);
  assert.ok(bag.items.some((d) => d.code === "MG111"));
});

test("a running server fills the template from API_SERVER_* and sends its requests there", async () => {
  const upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"ok":true}',
  }));
  const port = new URL(upstream.baseUrl).port;
  const local: ServerInfo = {
    name: "local",
    version: "1.0.0",
    serverUrl: {
      template: "http://127.0.0.1:{port}/{base}",
      variables: [
        { name: "port", env: "API_SERVER_PORT" },
        { name: "base", env: "API_SERVER_BASE", default: "v9" },
      ],
    },
  };
  process.env.API_SERVER_PORT = port;
  let handle: HttpHandle | undefined;
  try {
    handle = (await main(local, [tool], ["--http", "--port", "0", "--server-var", "base=v2"], {
      features: [serverVars],
    })) as HttpHandle | undefined;
    assert.ok(handle, "server started");
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    const result = await client.callTool({ name: "ping_api", arguments: {} });
    assert.not.ok(result.isError, JSON.stringify(result));
    assert.is(upstream.received.at(-1)?.url, "/v2/ping");
    await client.close();
  } finally {
    delete process.env.API_SERVER_PORT;
    await handle?.close();
    await upstream.close();
  }
});

test("a server without a base URL says at start-up exactly how to set one (and how to get a stand-in)", async () => {
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => written.push(String(chunk)) > 0) as typeof write;
  let handle: HttpHandle | undefined;
  try {
    handle = (await main({ name: "nowhere", version: "1.0.0" }, [tool], ["--http", "--port", "0"])) as HttpHandle;
  } finally {
    process.stderr.write = write;
    await handle?.close();
  }
  const warning = written.find((line) => line.includes("no upstream base URL"));
  assert.ok(warning, written.join(""));
  assert.match(warning, /--base-url <the API's URL> or set API_BASE_URL=<the API's URL>/);
  assert.match(warning, /`npm run mock`/);
});

test.run();
