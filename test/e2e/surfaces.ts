/**
 * Surfaces with the official clients: the generated petstore server (copied from generated/,
 * built under strict) on the search surface, driven by SDK 1.x and @modelcontextprotocol/client
 * 2.x over stdio (surface from MCP_SURFACE) and Streamable HTTP (from --surface). Each client
 * lists the meta tools, searches, describes and calls an operation through call_operation
 * against a local upstream, and gets exactly what the operation's own tool returns; toolset
 * filters hide and refuse operations; the auto surface picks all for this small API.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { compileExampleCopy, startHttpServer, type HttpServerHandle } from "../support/e2e.js";

const dir = join(mkdtempSync(join(tmpdir(), "mcp-gen-surfaces-")), "petstore");
let upstream: Upstream;
let server: HttpServerHandle | undefined;
let filtered: HttpServerHandle | undefined;

test.before(async () => {
  await compileExampleCopy("petstore", dir, { features: ["code", "toolsets"] });
  upstream = await startUpstream((r) =>
    r.url.includes("/pets/7")
      ? { status: 200, headers: { "content-type": "application/json" }, body: '{"id":7,"name":"Rex"}' }
      : { status: 404, body: "" },
  );
  server = await startHttpServer(dir, ["--surface", "search", "--base-url", upstream.baseUrl]);
  filtered = await startHttpServer(dir, ["--surface", "search", "--toolsets", "store", "--base-url", upstream.baseUrl]);
});

test.after(async () => {
  await server?.stop();
  await filtered?.stop();
  await upstream.close();
});

const stdio = (env: Record<string, string>, args: string[] = []) => ({
  command: process.execPath,
  args: [join(dir, "dist/index.js"), "--base-url", upstream.baseUrl, ...args],
  env: { PATH: process.env.PATH ?? "", ...env },
  stderr: "ignore" as const,
});

interface AnyClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: Array<{ name: string }>; nextCursor?: string }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}
type Result = { content: Array<{ type: string; text?: string }>; structuredContent?: any; isError?: boolean };

/** getPet called as its own tool, on the all surface: what call_operation must return. */
let direct: Result | undefined;
async function directResult(): Promise<Result> {
  if (!direct) {
    const client = new ClientV1({ name: "surfaces-direct", version: "1.0.0" });
    await client.connect(new StdioV1(stdio({ MCP_SURFACE: "all" })));
    direct = (await client.callTool({ name: "getPet", arguments: { petId: 7 } })) as Result;
    await client.close();
  }
  return direct;
}

async function exercise(client: AnyClient): Promise<void> {
  const listed = await client.listTools({});
  // The example's custom tool (specs/custom-code/petstore) is listed on every surface.
  assert.equal(
    listed.tools.map((t) => t.name),
    ["search_operations", "describe_operation", "call_operation", "retag_pet", "describe_pets"],
  );
  assert.is(listed.nextCursor, undefined);
  assert.ok(JSON.stringify(listed.tools).length < 10_000, "the search surface lists under 10 KB");

  const found = (await client.callTool({
    name: "search_operations",
    arguments: { query: "fetch one pet by its id", limit: 3 },
  })) as Result;
  assert.not.ok(found.isError);
  assert.ok(
    found.structuredContent.results.some((r: { name: string }) => r.name === "getPet"),
    JSON.stringify(found.structuredContent),
  );

  const described = (await client.callTool({ name: "describe_operation", arguments: { name: "getPet" } })) as Result;
  assert.is(described.structuredContent.method, "GET");
  assert.is(described.structuredContent.path, "/pets/{petId}");
  assert.ok(described.structuredContent.inputSchema.properties.petId, "the input schema names petId");

  const called = (await client.callTool({
    name: "call_operation",
    arguments: { name: "getPet", arguments: { petId: 7 } },
  })) as Result;
  assert.not.ok(called.isError);
  assert.equal(called.structuredContent, { id: 7, name: "Rex" });
  const expected = await directResult();
  assert.equal(
    { content: called.content, structuredContent: called.structuredContent },
    { content: expected.content, structuredContent: expected.structuredContent },
  );
  await client.close();
}

test("SDK 1.x over stdio, MCP_SURFACE=search", async () => {
  const client = new ClientV1({ name: "surfaces-v1", version: "1.0.0" });
  await client.connect(new StdioV1(stdio({ MCP_SURFACE: "search" })));
  await exercise(client);
});

test("SDK 1.x over Streamable HTTP, --surface search", async () => {
  const client = new ClientV1({ name: "surfaces-v1", version: "1.0.0" });
  await client.connect(new HttpV1(server!.url));
  await exercise(client);
});

test("client 2.x over stdio, MCP_SURFACE=search", async () => {
  const client = new ClientV2({ name: "surfaces-v2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StdioV2(stdio({ MCP_SURFACE: "search" })));
  await exercise(client as unknown as AnyClient);
});

test("client 2.x over Streamable HTTP, --surface search", async () => {
  const client = new ClientV2({ name: "surfaces-v2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new HttpV2(server!.url));
  await exercise(client as unknown as AnyClient);
});

test("toolsets over HTTP: search never finds a filtered-out operation and call_operation refuses it", async () => {
  const client = new ClientV1({ name: "surfaces-filtered", version: "1.0.0" });
  await client.connect(new HttpV1(filtered!.url));
  const found = (await client.callTool({
    name: "search_operations",
    arguments: { query: "get a pet", limit: 50 },
  })) as Result;
  assert.equal(
    found.structuredContent.results.map((r: { name: string }) => r.name),
    ["getInventory"],
  );
  const before = upstream.received.length;
  const refused = (await client.callTool({
    name: "call_operation",
    arguments: { name: "getPet", arguments: { petId: 7 } },
  })) as Result;
  assert.ok(refused.isError);
  assert.is(upstream.received.length, before, "nothing reached the upstream");
  await client.close();
});

test("auto (the default) lists every operation of this small API; --read-only over stdio", async () => {
  const client = new ClientV1({ name: "surfaces-auto", version: "1.0.0" });
  await client.connect(new StdioV1(stdio({}, ["--read-only"])));
  const listed = await client.listTools({});
  assert.equal(
    listed.tools.map((t) => t.name),
    ["listPets", "getPet", "getInventory", "retag_pet", "describe_pets"],
  );
  await client.close();
});

test("code surface over stdio (SDK 2.x): search, describe with the TypeScript signature, execute_code calling the upstream", async () => {
  const client = new ClientV2({ name: "surfaces-code", version: "1.0.0" });
  await client.connect(new StdioV2(stdio({ MCP_SURFACE: "code" }, ["--code-timeout", "6000"])));
  const listed = await client.listTools({});
  assert.equal(
    listed.tools.map((t) => t.name),
    ["search_operations", "describe_operation", "execute_code", "retag_pet", "describe_pets"],
  );
  assert.ok(JSON.stringify(listed).length < 10_000);
  const described = (await client.callTool({ name: "describe_operation", arguments: { name: "getPet" } })) as Result;
  assert.match(described.structuredContent.signature, "getPet(args: GetPetInput): Promise<GetPetOutput>");
  const before = upstream.received.length;
  const ran = (await client.callTool({
    name: "execute_code",
    arguments: {
      code: `const pet = await api.getPet({ petId: 7 });
             console.log("found", pet.name);
             try { await api.getPet({ petId: 8 }); } catch (error) { return { name: pet.name, missing: error.status }; }
             return "unreachable";`,
    },
  })) as Result;
  assert.not.ok(ran.isError, JSON.stringify(ran));
  assert.equal(ran.structuredContent.result, { name: "Rex", missing: 404 });
  assert.equal(ran.structuredContent.logs, ["found Rex"]);
  assert.equal(
    ran.structuredContent.calls.map((c: { name: string; ok: boolean }) => [c.name, c.ok]),
    [
      ["getPet", true],
      ["getPet", false],
    ],
  );
  assert.is(upstream.received.length, before + 2, "both calls reached the upstream through the server's path");
  const spinning = (await client.callTool({ name: "execute_code", arguments: { code: "while (true) {}" } })) as Result;
  assert.ok(spinning.isError);
  assert.match(String(spinning.content[0]?.text), "(timeout)");
  await client.close();
});

test.run();
