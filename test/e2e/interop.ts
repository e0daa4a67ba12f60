/**
 * Client interop: the generated petstore server (copied from generated/, built under strict)
 * driven by the official clients — SDK 1.x (legacy `initialize`) and @modelcontextprotocol/client
 * 2.x with `versionNegotiation` auto and pinned to 2026-07-28 — over stdio and Streamable HTTP.
 * Each client lists every page of tools and calls a tool against a local upstream.
 */
import { join } from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SSEClientTransport as SseV1 } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PETSTORE_TOOLS } from "../support/petstore-tools.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { geminiViolations } from "../clients/gemini-shape.js";
import { openAiStrictViolations } from "../clients/openai-strict.js";
import { compiledExample, startHttpServer, type HttpServerHandle } from "../support/e2e.js";

let dir = "";
let upstream: Upstream;
let server: HttpServerHandle | undefined;
let url: URL;

test.before(async () => {
  dir = await compiledExample("petstore", ["legacy-sse", "clients"]);
  upstream = await startUpstream((r) =>
    r.url.includes("/pets/7")
      ? { status: 200, headers: { "content-type": "application/json" }, body: '{"id":7,"name":"Rex"}' }
      : { status: 404, body: "" },
  );
  server = await startHttpServer(dir, ["--legacy-sse", "--base-url", upstream.baseUrl]);
  url = server.url;
});

test.after(async () => {
  await server?.stop();
  await upstream.close();
});

const stdioParams = () => ({
  command: process.execPath,
  args: [join(dir, "dist/index.js"), "--base-url", upstream.baseUrl],
  stderr: "ignore" as const,
});

/** The surface both client generations share. */
interface AnyClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: Array<{ name: string }>; nextCursor?: string }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

async function exercise(client: AnyClient): Promise<void> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor });
    names.push(...listed.tools.map((t) => t.name));
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  assert.equal(names, PETSTORE_TOOLS);
  const result = (await client.callTool({ name: "getPet", arguments: { petId: 7 } })) as {
    structuredContent?: unknown;
    isError?: boolean;
  };
  assert.not.ok(result.isError);
  assert.equal(result.structuredContent, { id: 7, name: "Rex" });
  await client.close();
}

test("SDK 1.x over stdio (legacy initialize)", async () => {
  const client = new ClientV1({ name: "interop-v1", version: "1.0.0" });
  await client.connect(new StdioV1(stdioParams()));
  assert.is(client.getServerVersion()?.name, "pet-store-mcp");
  await exercise(client);
});

test("SDK 1.x over Streamable HTTP (legacy initialize)", async () => {
  const client = new ClientV1({ name: "interop-v1", version: "1.0.0" });
  await client.connect(new HttpV1(url));
  await exercise(client);
});

test("SDK 1.x over the deprecated HTTP+SSE transport (--legacy-sse)", async () => {
  const client = new ClientV1({ name: "interop-v1-sse", version: "1.0.0" });
  await client.connect(new SseV1(new URL("/sse", url)));
  await exercise(client);
});

for (const [label, versionNegotiation] of [
  ["auto", { mode: "auto" as const }],
  ["pinned 2026-07-28", { mode: { pin: "2026-07-28" } }],
] as const) {
  test(`client 2.x (${label}) over stdio negotiates 2026-07-28`, async () => {
    const client = new ClientV2({ name: "interop-v2", version: "1.0.0" }, { versionNegotiation });
    await client.connect(new StdioV2(stdioParams()));
    assert.is(client.getNegotiatedProtocolVersion(), "2026-07-28");
    await exercise(client as unknown as AnyClient);
  });

  test(`client 2.x (${label}) over Streamable HTTP negotiates 2026-07-28`, async () => {
    const client = new ClientV2({ name: "interop-v2", version: "1.0.0" }, { versionNegotiation });
    await client.connect(new HttpV2(url));
    assert.is(client.getNegotiatedProtocolVersion(), "2026-07-28");
    await exercise(client as unknown as AnyClient);
  });
}

test("the generated server adapts to the client it meets over stdio (data/client-profiles.json): Gemini CLI and Codex", async () => {
  const gemini = new ClientV1({ name: "gemini-cli-mcp-client", version: "0.9.0" });
  const stderr: string[] = [];
  const transport = new StdioV1({ ...stdioParams(), stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
  await gemini.connect(transport);
  // A failed assertion must not leave the stdio server running: its pipe would keep the test process alive.
  let geminiTools;
  try {
    geminiTools = (await gemini.listTools()).tools;
  } finally {
    await gemini.close();
  }
  assert.equal(geminiViolations(geminiTools), []);
  // The six operations, then the example's custom composite tool (src/custom/), always listed.
  assert.equal(
    geminiTools.map((tool) => tool.name),
    PETSTORE_TOOLS,
  );
  assert.match(stderr.join(""), "client profile gemini: surface all");

  const codex = new ClientV2(
    { name: "codex-mcp-client", version: "0.1.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await codex.connect(new StdioV2(stdioParams()));
  try {
    const codexTools = (await codex.listTools()).tools as Array<{ name: string; inputSchema: Record<string, unknown> }>;
    assert.equal(openAiStrictViolations(codexTools), []);
    const result = (await codex.callTool({ name: "getPet", arguments: { petId: 7 } })) as {
      structuredContent?: unknown;
      isError?: boolean;
    };
    assert.not.ok(result.isError, JSON.stringify(result));
    assert.equal(result.structuredContent, { id: 7, name: "Rex" });
  } finally {
    await codex.close();
  }
});

test.run();
