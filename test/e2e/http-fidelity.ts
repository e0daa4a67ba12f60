/**
 * Request serialization through the runtime against a Prism mock of the fixture spec, started with
 * `--errors` so that any request Prism finds invalid comes back as an error (never silently 2xx).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { toolDefinition } from "../../generator/emit/tool-file.js";
import { generate } from "../../generator/generate.js";
import { McpServer } from "../../runtime/src/server.js";
import { startHttp, type HttpHandle } from "../../runtime/src/transport-http.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const spec = `${root}specs/fixtures/http-fidelity.yaml`;
let prism: ChildProcess | undefined;
let http: HttpHandle;
let client: Client;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Waits (bounded) until Prism answers. */
async function waitForPrism(base: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await fetch(`${base}/notes`, { method: "OPTIONS" });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error("Prism did not start");
}

test.before(async () => {
  const port = await freePort();
  prism = spawn(process.execPath, [`${root}node_modules/@stoplight/prism-cli/dist/index.js`, "mock", spec, "-h", "127.0.0.1", "-p", String(port), "--errors"], { stdio: "ignore" });
  // Prism serves the paths without the server URL's base path.
  const base = `http://127.0.0.1:${port}`;
  await waitForPrism(base);
  const { plan } = await generate({ spec });
  const server = new McpServer({ info: { name: "fidelity", version: "1.0.0" }, tools: plan.tools.map(toolDefinition), upstream: { baseUrl: base } });
  http = await startHttp(server, { host: "127.0.0.1", port: 0 });
  client = new Client({ name: "fidelity-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  await client.listTools();
});
test.after(async () => {
  await client?.close();
  await http?.close();
  if (prism?.pid) prism.kill("SIGTERM");
});

const calls: Array<[string, Record<string, unknown>]> = [
  ["pathStyles", { id: 7, name: "a b/c" }],
  ["pathLabelMatrix", { kind: "dog", color: "blue" }],
  ["cookieAndHeaders", { session_id: "s-1", theme: "dark", "X-Client": { app: "mcp", build: 7 }, redirect: "https://example.com/a?b=c" }],
  ["queryStyles", { tags: ["a", "b"], ids: [1, 2], words: ["hello", "world"], codes: ["p", "q"], filter: { color: "red", size: 3 }, "X-Trace": "abc-1" }],
  // Repeated parts for an array field (RFC 7578) are unit-tested; Prism 5.14.2 reads them as a string.
  ["uploadPhoto", { file: "data:image/png;name=rex.png;base64,iVBORw0KGgo=", caption: "Rex" }],
  ["putBlob", { body: "AAECAw==" }],
  ["postForm", { name: "n 1", count: 2 }],
  ["postNote", { body: "hello" }],
];

for (const [name, args] of calls) {
  test(`${name}: Prism accepts the request`, async () => {
    const result = await client.callTool({ name, arguments: args });
    assert.not.ok(result.isError, JSON.stringify(result.content));
  });
}

test("the server URL's variables are substituted with their defaults", async () => {
  const { plan } = await generate({ spec });
  assert.is(plan.defaultBaseUrl, "http://127.0.0.1:4010/v1");
});

test.run();
