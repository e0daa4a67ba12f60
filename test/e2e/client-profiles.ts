/**
 * Run-time adaptation to client profiles, with the real SDK clients announcing each client's
 * clientInfo: SDK 1.x in `initialize` (Streamable HTTP with sessions, so the server knows the client
 * on later requests) and @modelcontextprotocol/client 2.x in each request's `_meta` (2026-07-28).
 * The server (tools planned from specs/fixtures/client-shapes.yaml plus 45 plain operations, so
 * `auto` has to choose) serves each profile its own view: the `auto` surface from the profile's tool
 * limit, names within its rules, and for OpenAI and Gemini input schemas that checkers written from
 * their documented rules accept (test/clients/). A call with the served name and arguments in the
 * client's form (JSON text, strict mode's nulls) reaches the operation with the API's arguments.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport as SseV1 } from "@modelcontextprotocol/sdk/client/sse.js";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { runtimeProfiles } from "../../generator/shared/profiles.js";
import { configServerName } from "../../runtime/src/features/clients/client-names.js";
import type { Logger } from "../../runtime/src/protocol/logger.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp, type HttpHandle } from "../../runtime/src/transport/http.js";
import type { ServerInfo, ToolDefinition } from "../../runtime/src/api/types.js";
import { geminiViolations } from "../clients/gemini-shape.js";
import { openAiStrictViolations } from "../clients/openai-strict.js";
import { startUpstream, type Recorded, type Upstream } from "../support/runtime-fixture.js";
import { repoRoot } from "../support/e2e.js";
import { featureSurfaces, legacySseEndpoints, apiFeatures, searchAutoSurface } from "../support/factories.js";
import { viewedTools } from "../../runtime/src/features/clients/client-views.js";
import { httpSessions } from "../../runtime/src/features/sessions/index.js";
import { MemoryStateStore } from "../../runtime/src/features/state/memory.js";

/** What each client announces (profiles/clients/*.json say where these come from). */
const ANNOUNCED: Record<string, string> = {
  "claude-desktop": "claude-ai",
  "claude-code": "claude-code",
  cursor: "cursor-vscode",
  vscode: "Visual Studio Code",
  openai: "codex-mcp-client",
  gemini: "gemini-cli-mcp-client",
};
const LONG_NAME = "createOrderForCustomerAccountWithDeliveryPreferences";
const info: ServerInfo = { name: "client-shapes-mcp", version: "1.0.0", title: "Client shapes" };
const profiles = runtimeProfiles();
const logs: string[] = [];
const logger: Logger = { debug() {}, info: (message) => logs.push(message), warn() {}, error() {} };
let upstream: Upstream;
let http: HttpHandle;

test.before(async () => {
  upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"id":"o-1"}',
  }));
  const { plan } = await generate({ spec: join(repoRoot, "specs/fixtures/client-shapes.yaml"), planOnly: true });
  const shapes = plan.tools.map(toolDefinition);
  const plain = shapes.find((tool) => tool.name === "getOrder")!;
  // 45 more operations: more than Cursor's and the default's 40, fewer than VS Code's 128.
  const more: ToolDefinition[] = Array.from({ length: 45 }, (_, i) => ({ ...plain, name: `getOrderCopy${i + 1}` }));
  const server = new McpServer({
    ...apiFeatures,
    info,
    tools: [...shapes, ...more],
    surface: "search",
    surfaces: featureSurfaces(),
    requestedSurface: "auto",
    autoSurface: searchAutoSurface,
    clientViews: (server) => viewedTools(server, { profiles }),
    upstream: { baseUrl: upstream.baseUrl },
    logger,
  });
  http = await startHttp(server, {
    port: 0,
    sessions: httpSessions(new MemoryStateStore()),
    endpoints: [legacySseEndpoints],
  });
});

test.after(async () => {
  await http.close();
  await upstream.close();
});

interface AnyClient {
  listTools(params?: {
    cursor?: string;
  }): Promise<{ tools: Array<{ name: string; inputSchema: Record<string, unknown> }>; nextCursor?: string }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

async function connect(era: "legacy" | "modern", name: string): Promise<AnyClient> {
  if (era === "legacy") {
    const client = new ClientV1({ name, version: "9.9.9" });
    await client.connect(new HttpV1(new URL(http.url)));
    return client as unknown as AnyClient;
  }
  const client = new ClientV2({ name, version: "9.9.9" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new HttpV2(new URL(http.url)));
  return client as unknown as AnyClient;
}

async function listAll(client: AnyClient): Promise<Array<{ name: string; inputSchema: Record<string, unknown> }>> {
  const tools: Array<{ name: string; inputSchema: Record<string, unknown> }> = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...listed.tools);
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

/** The order body as each dialect asks for it: strict mode sends every property (null: absent) and JSON text. */
function orderArguments(profile: string): Record<string, unknown> {
  const items = [
    { sku: "A-1", quantity: 2, options: profile === "openai" || profile === "gemini" ? '["gift"]' : ["gift"] },
  ];
  const metadata = profile === "openai" || profile === "gemini" ? '{"channel":"web"}' : { channel: "web" };
  const body: Record<string, unknown> = { items, metadata, delivery: { kind: "ship", address: "1 Main St" } };
  if (profile === "openai")
    Object.assign(body, { customerId: null, currency: null, extra: null, note: null, website: null, category: null });
  return { body };
}

for (const profile of profiles) {
  for (const era of ["legacy", "modern"] as const) {
    test(`${profile.id}: ${era === "legacy" ? "SDK 1.x (initialize)" : "client 2.x (_meta)"} announcing "${ANNOUNCED[profile.id]}" is served the profile's view`, async () => {
      const client = await connect(era, ANNOUNCED[profile.id]!);
      const tools = await listAll(client);
      const names = tools.map((tool) => tool.name);
      // The auto surface: all 47 operations within the profile's tool limit, else search.
      const limit = profile.maxTools ?? 40;
      if (47 <= limit) assert.is(tools.length, 47, names.join(", "));
      else assert.equal(names, ["search_operations", "describe_operation", "call_operation"]);
      assert.ok(tools.length <= limit);
      assert.match(logs.join("\n"), `client profile ${profile.id}: surface ${47 <= limit ? "all" : "search"}`);
      // Names within the profile's rules, the server's name included.
      const serverName = configServerName(info.name);
      for (const name of names) {
        if (profile.namePattern)
          assert.ok(new RegExp(profile.namePattern).test(name), `${name} against ${profile.namePattern}`);
        if (profile.maxQualifiedName)
          assert.ok(serverName.length + 1 + name.length <= profile.maxQualifiedName, `${serverName}:${name}`);
      }
      if (profile.id === "openai") assert.equal(openAiStrictViolations(tools), []);
      if (profile.id === "gemini") assert.equal(geminiViolations(tools), []);
      if (tools.length === 47) {
        // The long name is served within the limits and a call with it reaches the operation.
        const served = names.find((name) => name.startsWith(LONG_NAME.slice(0, 20)))!;
        if (profile.maxQualifiedName) assert.not.equal(served, LONG_NAME);
        const before = upstream.received.length;
        const result = (await client.callTool({ name: served, arguments: orderArguments(profile.id) })) as {
          isError?: boolean;
          content: Array<{ text?: string }>;
        };
        assert.not.ok(result.isError, JSON.stringify(result));
        const request = upstream.received.slice(before).find((r: Recorded) => r.method === "POST")!;
        assert.equal(JSON.parse(request.body), {
          items: [{ sku: "A-1", quantity: 2, options: ["gift"] }],
          metadata: { channel: "web" },
          delivery: { kind: "ship", address: "1 Main St" },
        });
      } else {
        // On search, call_operation reaches the operation by its own name, whatever the client.
        const result = (await client.callTool({
          name: "call_operation",
          arguments: { name: "getOrder", arguments: { orderId: "3f1c1a52-1c8a-4d7b-9a38-7a8f3d0f1a11" } },
        })) as { isError?: boolean };
        assert.not.ok(result.isError, JSON.stringify(result));
      }
      await client.close();
    });
  }
}

test("over the deprecated HTTP+SSE transport each stream is its own client: Cursor and an unknown client side by side", async () => {
  const cursor = new ClientV1({ name: "cursor-vscode", version: "1.0.0" });
  await cursor.connect(new SseV1(new URL("/sse", http.url)));
  const other = new ClientV1({ name: "some-sse-client", version: "1.0.0" });
  await other.connect(new SseV1(new URL("/sse", http.url)));
  assert.equal(
    (await cursor.listTools()).tools.map((tool) => tool.name),
    ["search_operations", "describe_operation", "call_operation"],
  );
  const names = (await other.listTools()).tools.map((tool) => tool.name);
  assert.equal(
    names,
    ["search_operations", "describe_operation", "call_operation"],
    "the server's own view: auto chose search for 47 operations",
  );
  // Cursor's qualified-name limit rewrites none of the three; a --client-less VS Code stream would see all 47.
  const vscode = new ClientV1({ name: "Visual Studio Code", version: "1.106.0" });
  await vscode.connect(new SseV1(new URL("/sse", http.url)));
  assert.is((await listAll(vscode as unknown as AnyClient)).length, 47);
  assert.equal(
    (await cursor.listTools()).tools.length,
    3,
    "the later initialize of another stream does not change Cursor's view",
  );
  await Promise.all([cursor.close(), other.close(), vscode.close()]);
});

test("a client no profile matches is served the server's own view; arguments are always validated against the full schema", async () => {
  const client = await connect("modern", "some-other-client");
  const tools = await listAll(client);
  assert.equal(
    tools.map((tool) => tool.name),
    ["search_operations", "describe_operation", "call_operation"],
  );
  assert.match(logs.join("\n"), 'client "some-other-client" matches no client profile');
  await client.close();
  // Strict mode's form, then the decoded value, still meets the operation's own schema: quantity 0 is refused.
  const openai = await connect("modern", ANNOUNCED.openai!);
  const served = (await listAll(openai)).map((tool) => tool.name).find((name) => name.startsWith("createOrder"))!;
  const args = orderArguments("openai");
  (args.body as { items: Array<{ quantity: number }> }).items[0]!.quantity = 0;
  const result = (await openai.callTool({ name: served, arguments: args })) as {
    isError?: boolean;
    content: Array<{ text?: string }>;
  };
  assert.ok(result.isError);
  assert.match(result.content[0]!.text ?? "", "quantity");
  await openai.close();
});

test.run();
