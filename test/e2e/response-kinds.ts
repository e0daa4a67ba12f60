/**
 * Upstream responses of every kind through the runtime to the official SDK client (which validates
 * `structuredContent` against `outputSchema`): deviating responses never make the client throw.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { fileURLToPath } from "node:url";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { generate } from "../../generator/pipeline/generate.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp, type HttpHandle } from "../../runtime/src/transport/http.js";
import { startUpstream, type Reply, type Upstream } from "../support/runtime-fixture.js";
import { apiFeatures } from "../support/factories.js";

const spec = fileURLToPath(new URL("../../../specs/fixtures/response-kinds.yaml", import.meta.url));
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
let reply: Reply = { status: 200 };
let upstream: Upstream;
let http: HttpHandle;
let client: Client;

test.before(async () => {
  const { plan } = await generate({ spec });
  upstream = await startUpstream(() => reply);
  const server = new McpServer({
    ...apiFeatures,
    info: { name: "kinds", version: "1.0.0" },
    tools: plan.tools.map(toolDefinition),
    upstream: { baseUrl: upstream.baseUrl },
  });
  http = await startHttp(server, { host: "127.0.0.1", port: 0 });
  client = new Client({ name: "kinds-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  await client.listTools(); // the SDK caches output validators from tools/list
});
test.after(async () => {
  await client.close();
  await http.close();
  await upstream.close();
});

const json = (status: number, body: unknown): Reply => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

test("a matching JSON object is structuredContent as is", async () => {
  reply = json(200, { id: 1, name: "Rex", tag: null, born: "2020-01-02" });
  const result = await client.callTool({ name: "getPet", arguments: { petId: 1 } });
  assert.not.ok(result.isError);
  assert.equal(result.structuredContent, { id: 1, name: "Rex", tag: null, born: "2020-01-02" });
});

test("a deviating object goes to the fallback shape; the SDK client accepts it", async () => {
  reply = json(200, { id: "one", born: "yesterday" });
  const result = await client.callTool({ name: "getPet", arguments: { petId: 1 } });
  assert.not.ok(result.isError);
  const fallback = (
    result.structuredContent as { unexpectedResponse: { status: number; body: unknown; problems: string[] } }
  ).unexpectedResponse;
  assert.is(fallback.status, 200);
  assert.equal(fallback.body, { id: "one", born: "yesterday" });
  assert.ok(fallback.problems.length > 0);
  assert.match(JSON.stringify(result.content), /does not match the documented schema/);
});

test("arrays are wrapped under result; an object where an array was promised falls back", async () => {
  reply = json(200, [{ id: 1, name: "Rex" }]);
  const listed = await client.callTool({ name: "listPets", arguments: {} });
  assert.equal(listed.structuredContent, { result: [{ id: 1, name: "Rex" }] });
  reply = json(200, { data: [] });
  const odd = await client.callTool({ name: "listPets", arguments: {} });
  assert.ok((odd.structuredContent as Record<string, unknown>).unexpectedResponse);
});

test("non-JSON and empty answers to a tool with an output schema still validate", async () => {
  reply = { status: 200, headers: { "content-type": "text/html" }, body: "<p>maintenance</p>" };
  const html = await client.callTool({ name: "getPet", arguments: { petId: 1 } });
  assert.not.ok(html.isError);
  assert.is(
    (html.structuredContent as { unexpectedResponse: { body: string } }).unexpectedResponse.body,
    "<p>maintenance</p>",
  );
  reply = { status: 200 };
  const empty = await client.callTool({ name: "getPet", arguments: { petId: 1 } });
  assert.is((empty.structuredContent as { unexpectedResponse: { body: unknown } }).unexpectedResponse.body, null);
});

test("204 is a clear success; errors are isError with status and excerpt", async () => {
  reply = { status: 204 };
  const deleted = await client.callTool({ name: "deletePet", arguments: { petId: 1 } });
  assert.not.ok(deleted.isError);
  assert.match(JSON.stringify(deleted.content), /Success: HTTP 204/);
  reply = json(404, { message: "no such pet" });
  const missing = await client.callTool({ name: "getPet", arguments: { petId: 9 } });
  assert.is(missing.isError, true);
  assert.match(JSON.stringify(missing.content), /HTTP 404 Not Found.*no such pet/);
});

test("image, audio and other binary become image, audio and embedded resource content", async () => {
  reply = { status: 200, headers: { "content-type": "image/png" }, body: PNG.toString("latin1") };
  const image = await client.callTool({ name: "getPhoto", arguments: { petId: 1 } });
  const block = (image.content as Array<{ type: string; data?: string; mimeType?: string }>).find(
    (c) => c.type === "image",
  );
  assert.is(block?.mimeType, "image/png");
  assert.ok(block?.data && block.data.length > 0);
  reply = { status: 200, headers: { "content-type": "audio/mpeg" }, body: "ID3" };
  const audio = await client.callTool({ name: "getVoice", arguments: { petId: 1 } });
  assert.ok((audio.content as Array<{ type: string }>).some((c) => c.type === "audio"));
  reply = { status: 200, headers: { "content-type": "application/pdf" }, body: "%PDF-1.4" };
  const pdf = await client.callTool({ name: "getRecord", arguments: { petId: 1 } });
  const resource = (
    pdf.content as Array<{ type: string; resource?: { blob: string; mimeType: string; uri: string } }>
  ).find((c) => c.type === "resource");
  assert.is(resource?.resource?.mimeType, "application/pdf");
  assert.is(Buffer.from(resource!.resource!.blob, "base64").toString(), "%PDF-1.4");
  assert.match(resource!.resource!.uri, /\/pets\/1\/record$/);
  reply = { status: 200, headers: { "content-type": "text/plain" }, body: "all good" };
  const status = await client.callTool({ name: "getStatus", arguments: {} });
  assert.equal(status.content, [{ type: "text", text: "all good" }]);
});

test("--no-output-schema: tools have no outputSchema", async () => {
  const { plan } = await generate({ spec, outputSchemas: false });
  assert.ok(plan.tools.every((t) => t.outputSchema === undefined));
});

test.run();
