/**
 * End to end: specs/petstore.yaml → generated project → real `npm install && npm run build` →
 * the built server driven by the official MCP SDK client (stdio, then Streamable HTTP) against
 * a Prism mock of the same spec, which validates every upstream request the server sends.
 *
 * Run from dist: `npx uvu dist/test/e2e 'petstore-prism\.js$'`.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs a Prism mock server and an npm install of the generated project.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { generate } from "../../generator/pipeline/generate.js";
import {
  LOOPBACK,
  buildGeneratedProject,
  freePort,
  prismRequests,
  startPrism,
  startProcess,
  waitUntil,
  type PrismHandle,
  type PrismRequest,
  type ProcessHandle,
} from "../support/e2e.js";

// dist/test/e2e/petstore-prism.js → repository root is three levels up.
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const specPath = join(root, "specs", "petstore.yaml");

/** Per-request timeout for MCP calls (the SDK's default is 60 s). */
const CALL = { timeout: 15_000 };

const EXPECTED_TOOLS = ["createPet", "deletePet", "getInventory", "getPet", "listPets", "updatePet"];

interface ContentItem {
  type: string;
  text?: string;
}
interface ToolResult {
  isError?: boolean;
  content: ContentItem[];
  structuredContent?: Record<string, unknown>;
}

interface State {
  dir?: string;
  built?: boolean;
  prism?: PrismHandle;
  client?: Client;
  transport?: StdioClientTransport;
  serverPid?: number;
  serverStderr: string[];
  httpServer?: ProcessHandle;
  httpClient?: Client;
  timings: Record<string, number>;
}

const state: State = { serverStderr: [], timings: {} };
const suiteStart = Date.now();

/** The value, or an error saying that an earlier step (setup) failed. */
function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not available: an earlier setup step failed`);
  return value;
}

/** Context appended to assertion messages: the server's stderr and Prism's tail. */
function context(): string {
  const prismTail = state.prism ? state.prism.logs().slice(-40).join("\n") : "(no prism)";
  return `\n--- server stderr ---\n${state.serverStderr.join("")}\n--- prism (last 40 lines) ---\n${prismTail}`;
}

function texts(result: ToolResult): string {
  return result.content
    .filter((item) => item.type === "text")
    .map((item) => item.text ?? "")
    .join("\n");
}

/** Completed requests Prism logged so far. */
function requests(): PrismRequest[] {
  return prismRequests(need(state.prism, "Prism").logs());
}

/**
 * Calls `name` and waits until Prism has logged exactly one more, complete, request; returns
 * the result and that request.
 */
async function callUpstream(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ result: ToolResult; request: PrismRequest }> {
  const before = requests().length;
  const result = (await client.callTool({ name, arguments: args }, undefined, CALL)) as ToolResult;
  await waitUntil(
    () => {
      const all = requests();
      return all.length > before && all[all.length - 1]!.complete;
    },
    5_000,
    () => `Prism logged no complete request for ${name} (result: ${JSON.stringify(result)})${context()}`,
  );
  const all = requests();
  assert.is(all.length, before + 1, `${name} should cause exactly one upstream request${context()}`);
  return { result, request: all[all.length - 1]! };
}

function assertAccepted(request: PrismRequest, method: string, path: string, status: number): void {
  const detail = `\n${request.lines.join("\n")}`;
  assert.is(`${request.method} ${request.path}`, `${method} ${path}`, `upstream route${detail}`);
  assert.ok(request.passed, `Prism should log "The request passed the validation rules"${detail}`);
  assert.equal(request.problems, [], `Prism should report no violations${detail}`);
  assert.is(request.status, status, `Prism status${detail}`);
}

test("generates the petstore server and builds it with a real npm install", async () => {
  const t0 = Date.now();
  state.dir = await mkdtemp(join(tmpdir(), "mcp-gen-e2e-petstore-"));
  await generate({ spec: specPath, outDir: state.dir, force: true });
  state.timings.generate = Date.now() - t0;
  assert.ok(existsSync(join(state.dir, "package.json")), "package.json generated");
  const build = await buildGeneratedProject(state.dir, { install: true });
  state.timings.npmInstall = build.installMs;
  state.timings.npmBuild = build.buildMs;
  assert.ok(existsSync(join(state.dir, "dist", "index.js")), `dist/index.js built; npm output:\n${build.output}`);
  state.built = true;
});

test("starts Prism and connects the SDK client over stdio", async () => {
  const dir = need(state.built ? state.dir : undefined, "built project");
  const t0 = Date.now();
  // "debug" makes Prism log request headers, so the X-Request-Id header can be checked too.
  state.prism = await startPrism(specPath, undefined, { verboseLevel: "debug" });
  state.timings.prismStart = Date.now() - t0;
  assert.match(state.prism.url, /^http:\/\/127\.0\.0\.1:\d+$/);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(dir, "dist", "index.js"), "--base-url", state.prism.url],
    cwd: dir,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer | string) => state.serverStderr.push(chunk.toString()));
  state.transport = transport;
  const client = new Client({ name: "mcp-gen-e2e", version: "0.0.0" });
  const t1 = Date.now();
  await client.connect(transport, CALL);
  state.timings.connect = Date.now() - t1;
  state.client = client;
  state.serverPid = transport.pid ?? undefined;
  assert.ok(state.serverPid, "server process started");
  assert.is(client.getServerVersion()?.name, "pet-store-mcp", `server name${context()}`);
});

test("tools/list returns the six tools with descriptions and object input schemas", async () => {
  const client = need(state.client, "client");
  const { tools } = await client.listTools(undefined, CALL);
  assert.equal(tools.map((tool) => tool.name).sort(), EXPECTED_TOOLS);
  for (const tool of tools) {
    assert.type(tool.description, "string", `${tool.name} description`);
    assert.ok((tool.description ?? "").length > 0, `${tool.name} description is empty`);
    assert.is(tool.inputSchema.type, "object", `${tool.name} inputSchema.type`);
  }
  const createPet = tools.find((tool) => tool.name === "createPet")!;
  assert.ok(
    createPet.inputSchema.properties && "X-Request-Id" in createPet.inputSchema.properties,
    "createPet has the X-Request-Id header argument",
  );
  assert.equal(createPet.inputSchema.required, ["name"]);
  assert.ok(tools.find((tool) => tool.name === "listPets")!.outputSchema, "listPets has an output schema");
});

test("listPets sends a valid query and returns { result: [...] }", async () => {
  const client = need(state.client, "client");
  const { result, request } = await callUpstream(client, "listPets", {
    limit: 5,
    tags: ["a", "b"],
    status: "available",
  });
  assert.not.ok(result.isError, `listPets isError: ${texts(result)}${context()}`);
  assertAccepted(request, "get", "/pets", 200);
  assert.is(request.headers["x-request-id"], undefined, "no X-Request-Id header when the argument is absent");
  const structured = result.structuredContent;
  assert.ok(structured, `listPets structuredContent: ${JSON.stringify(result)}`);
  assert.ok(Array.isArray(structured!.result), `structuredContent.result is an array: ${JSON.stringify(structured)}`);
  const pets = structured!.result as Array<Record<string, unknown>>;
  assert.ok(pets.length > 0, "Prism returns its example page");
  assert.type(pets[0]!.id, "number");
  assert.type(pets[0]!.name, "string");
  assert.ok(texts(result).length > 0, "a text rendering accompanies structuredContent");
});

test("createPet sends the lifted JSON body and the X-Request-Id header", async () => {
  const client = need(state.client, "client");
  const { result, request } = await callUpstream(client, "createPet", {
    name: "Rex",
    tag: "dog",
    "X-Request-Id": "req-1",
  });
  assert.not.ok(result.isError, `createPet isError: ${texts(result)}${context()}`);
  assertAccepted(request, "post", "/pets", 201);
  assert.is(
    request.headers["x-request-id"],
    "req-1",
    `X-Request-Id header sent upstream:\n${request.lines.join("\n")}`,
  );
  assert.match(request.headers["content-type"] ?? "", /^application\/json/, "JSON body content type");
  const pet = result.structuredContent;
  assert.ok(pet, `createPet structuredContent: ${JSON.stringify(result)}`);
  assert.type(pet!.id, "number");
  assert.type(pet!.name, "string");
});

test("getPet fills the path parameter", async () => {
  const client = need(state.client, "client");
  const { result, request } = await callUpstream(client, "getPet", { petId: 1 });
  assert.not.ok(result.isError, `getPet isError: ${texts(result)}${context()}`);
  assertAccepted(request, "get", "/pets/1", 200);
  assert.ok(result.structuredContent, `getPet structuredContent: ${JSON.stringify(result)}`);
  assert.type(result.structuredContent!.id, "number");
});

test("deletePet (204) reports success as text", async () => {
  const client = need(state.client, "client");
  const { result, request } = await callUpstream(client, "deletePet", { petId: 1 });
  assert.not.ok(result.isError, `deletePet isError: ${texts(result)}${context()}`);
  assertAccepted(request, "delete", "/pets/1", 204);
  assert.is(result.structuredContent, undefined, "no structuredContent for an empty 204");
  assert.match(texts(result), /succe/i, `deletePet text: ${JSON.stringify(result)}`);
});

test("invalid arguments are rejected by the server and never reach Prism", async () => {
  const client = need(state.client, "client");
  const before = requests().length;
  const tooMany = (await client.callTool(
    { name: "listPets", arguments: { limit: 1000 } },
    undefined,
    CALL,
  )) as ToolResult;
  assert.ok(tooMany.isError, `listPets limit 1000 should be isError: ${JSON.stringify(tooMany)}`);
  assert.match(texts(tooMany), /limit/, `the error names the argument: ${texts(tooMany)}`);
  const noName = (await client.callTool(
    { name: "createPet", arguments: { tag: "dog" } },
    undefined,
    CALL,
  )) as ToolResult;
  assert.ok(noName.isError, `createPet without name should be isError: ${JSON.stringify(noName)}`);
  assert.match(texts(noName), /name/, `the error names the argument: ${texts(noName)}`);
  // A valid call afterwards: once Prism has logged it, anything sent earlier was logged too.
  const { request } = await callUpstream(client, "getInventory", {});
  assertAccepted(request, "get", "/store/inventory", 200);
  assert.is(
    requests().length,
    before + 1,
    `only getInventory reached Prism:\n${requests()
      .slice(before)
      .map((r) => r.lines.join("\n"))
      .join("\n\n")}`,
  );
});

test("Streamable HTTP mode: list tools and call getPet", async () => {
  const dir = need(state.built ? state.dir : undefined, "built project");
  const prism = need(state.prism, "Prism");
  const port = await freePort();
  const t0 = Date.now();
  state.httpServer = await startProcess(
    process.execPath,
    [join(dir, "dist", "index.js"), "--http", "--port", String(port), "--host", LOOPBACK, "--base-url", prism.url],
    {
      cwd: dir,
      readyLine: /listening on http:\/\//,
    },
  );
  const client = new Client({ name: "mcp-gen-e2e-http", version: "0.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://${LOOPBACK}:${port}/mcp`));
  await client.connect(transport, CALL);
  state.httpClient = client;
  const { tools } = await client.listTools(undefined, CALL);
  assert.equal(tools.map((tool) => tool.name).sort(), EXPECTED_TOOLS);
  const { result, request } = await callUpstream(client, "getPet", { petId: 7 });
  assert.not.ok(
    result.isError,
    `getPet over HTTP isError: ${texts(result)}\n--- http server ---\n${state.httpServer.lines().join("\n")}`,
  );
  assertAccepted(request, "get", "/pets/7", 200);
  assert.type(result.structuredContent?.id, "number");
  state.timings.http = Date.now() - t0;
});

test("Prism accepted every request the server sent", async () => {
  const prism = need(state.prism, "Prism");
  // Violation lines are printed after the response; give the log a moment to settle.
  await new Promise((done) => setTimeout(done, 300));
  const all = prismRequests(prism.logs());
  assert.is(
    all.length,
    6,
    `expected 6 upstream requests (listPets, createPet, getPet, deletePet, getInventory, getPet over HTTP), got:\n${all.map((r) => `${r.method} ${r.path}`).join("\n")}`,
  );
  for (const request of all) {
    const detail = `\n${request.lines.join("\n")}`;
    assert.ok(request.complete && request.passed, `Prism did not accept ${request.method} ${request.path}${detail}`);
    assert.equal(request.problems, [], `violations for ${request.method} ${request.path}${detail}`);
    assert.ok(
      request.status !== undefined && request.status >= 200 && request.status < 300,
      `status ${request.status} for ${request.method} ${request.path}${detail}`,
    );
  }
  assert.not.ok(
    prism
      .logs()
      .some((line) => /Violation:|did not pass the validation rules|Request terminated with error/.test(line)),
    `Prism logged a violation:\n${prism.logs().join("\n")}`,
  );
});

test.after(async () => {
  const errors: unknown[] = [];
  const attempt = async (step: () => Promise<unknown>): Promise<void> => {
    try {
      await step();
    } catch (error) {
      errors.push(error);
    }
  };
  await attempt(async () => state.httpClient?.close());
  await attempt(async () => state.httpServer?.stop());
  // Closing the client ends stdin, then SIGTERM/SIGKILL the server (SDK); then make sure by PID.
  await attempt(async () => state.client?.close() ?? state.transport?.close());
  await attempt(async () => {
    const pid = state.serverPid;
    if (pid === undefined) return;
    for (let i = 0; i < 40 && alive(pid); i++) await new Promise((done) => setTimeout(done, 50));
    if (alive(pid)) process.kill(pid, "SIGKILL");
  });
  await attempt(async () => state.prism?.stop());
  await attempt(async () => state.dir && rm(state.dir, { recursive: true, force: true }));
  state.timings.total = Date.now() - suiteStart;
  console.log(`\n  petstore-prism timings (ms): ${JSON.stringify(state.timings)}`);
  if (errors.length > 0) console.error("cleanup errors:", errors);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test.run();
