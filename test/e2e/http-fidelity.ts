/**
 * Request serialization through the runtime against a Prism mock of the fixture spec, started with
 * `--errors` so that any request Prism finds invalid comes back as an error (never silently 2xx).
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs a Prism mock server.
 */
import { fileURLToPath } from "node:url";
import { requestEncodings } from "../../runtime/src/features/encodings/index.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { generate } from "../../generator/pipeline/generate.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp, type HttpHandle } from "../../runtime/src/transport/http.js";
import { startPrism, type PrismHandle } from "../support/e2e.js";
import { apiFeatures } from "../support/factories.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const spec = `${root}specs/fixtures/http-fidelity.yaml`;
let prism: PrismHandle | undefined;
let http: HttpHandle;
let client: Client;

test.before(async () => {
  prism = await startPrism(spec, undefined, { errors: true });
  // Prism serves the paths without the server URL's base path.
  const base = prism.url;
  const { plan } = await generate({ spec });
  const server = new McpServer({
    ...apiFeatures,
    info: { name: "fidelity", version: "1.0.0" },
    tools: plan.tools.map(toolDefinition),
    // Forms, files and rarer styles are feature encodings' (a generation includes it for them).
    upstream: { baseUrl: base, encodings: requestEncodings() },
  });
  http = await startHttp(server, { host: "127.0.0.1", port: 0 });
  client = new Client({ name: "fidelity-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  await client.listTools();
});
test.after(async () => {
  await client?.close();
  await http?.close();
  await prism?.stop();
});

const calls: Array<[string, Record<string, unknown>]> = [
  ["pathStyles", { id: 7, name: "a b/c" }],
  ["pathLabelMatrix", { kind: "dog", color: "blue" }],
  [
    "cookieAndHeaders",
    { session_id: "s-1", theme: "dark", "X-Client": { app: "mcp", build: 7 }, redirect: "https://example.com/a?b=c" },
  ],
  [
    "queryStyles",
    {
      tags: ["a", "b"],
      ids: [1, 2],
      words: ["hello", "world"],
      codes: ["p", "q"],
      filter: { color: "red", size: 3 },
      "X-Trace": "abc-1",
    },
  ],
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
