/**
 * Failure classes 4 (query and form serialisation) and 5 (Accept and content types) of issue 11,
 * and the call classes of issue 36 (form and multipart fields by their encoding, a parameter an
 * apiKey credential fills, nullable query arrays, media type choice, security headers) and issue 57
 * (a Content-Type header parameter without a body, Swagger 2.0 form collections), end to end:
 * the fixture specs' tools run in the real runtime against a Prism mock of the same spec
 * (`--errors`, JSON log), and every request must pass Prism's validation; the log also shows the
 * wire shape, which is asserted per case.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs a Prism mock server.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { generate } from "../../generator/pipeline/generate.js";
import { McpServer } from "../../runtime/src/server/server.js";
import { startHttp, type HttpHandle } from "../../runtime/src/transport/http.js";
import { parseRecords, prismRequests, type PrismRequestLog } from "../fidelity/prism-log.js";
import { startJsonPrism, type JsonPrism } from "../fidelity/prism-process.js";
import { apiFeatures } from "../support/factories.js";
import { requestEncodings } from "../../runtime/src/features/encodings/index.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

interface Fixture {
  prism: JsonPrism;
  http: HttpHandle;
  client: Client;
}

async function open(spec: string, env: Record<string, string> = {}): Promise<Fixture> {
  const prism = await startJsonPrism(root, `${root}specs/fixtures/${spec}`, 60_000);
  const { plan } = await generate({ spec: `${root}specs/fixtures/${spec}` });
  const server = new McpServer({
    ...apiFeatures,
    info: { name: spec, version: "1.0.0", securitySchemes: plan.securitySchemes },
    tools: plan.tools.map(toolDefinition),
    // The fixtures' forms, files and rarer styles are feature encodings' (a generation includes it for them).
    upstream: { baseUrl: prism.url, encodings: requestEncodings() },
    env,
  });
  const http = await startHttp(server, { host: "127.0.0.1", port: 0 });
  const client = new Client({ name: "fidelity-fixtures", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  return { prism, http, client };
}

async function close(fixture: Fixture | undefined): Promise<void> {
  await fixture?.client.close().catch(() => undefined);
  await fixture?.http.close().catch(() => undefined);
  await fixture?.prism.stop();
}

/** Calls a tool; returns the one request Prism logged for it and the tool result. */
async function call(
  fixture: Fixture,
  name: string,
  args: Record<string, unknown>,
): Promise<{ request: PrismRequestLog; isError: boolean; text: string }> {
  const before = fixture.prism.requestCount();
  const result = (await fixture.client.callTool({ name, arguments: args }, undefined, { timeout: 15_000 })) as {
    isError?: boolean;
    content: Array<{ text?: string }>;
  };
  const text = result.content.map((c) => c.text ?? "").join("\n");
  const count = fixture.prism.requestCount();
  assert.is(count, before + 1, `${name}: exactly one upstream request (result: ${text})`);
  await fixture.prism.settle(count);
  const request = prismRequests(parseRecords(fixture.prism.lines()))[count - 1]!;
  return { request, isError: result.isError === true, text };
}

function accepted(name: string, outcome: { request: PrismRequestLog; isError: boolean; text: string }): void {
  const { request } = outcome;
  assert.equal(request.problems, [], `${name}: Prism found violations: ${request.problems.join(" | ")}`);
  assert.is(request.verdict, "accepted", `${name}: verdict ${request.verdict} (${request.limitations.join(" | ")})`);
  assert.not.ok(outcome.isError, `${name}: isError: ${outcome.text}`);
}

let queries: Fixture | undefined;
let content: Fixture | undefined;
let forms: Fixture | undefined;
let keys: Fixture | undefined;
let nullable: Fixture | undefined;
let media: Fixture | undefined;
let security: Fixture | undefined;
let entity: Fixture | undefined;
let collections: Fixture | undefined;

test.before(async () => {
  [queries, content] = await Promise.all([open("query-serialization.yaml"), open("content-negotiation.yaml")]);
  [forms, keys, nullable] = await Promise.all([
    open("fidelity-form-fields.yaml"),
    open("fidelity-apikey-parameter.yaml", { KEY: "query-secret", HEADER_KEY: "header-secret" }),
    open("fidelity-nullable-array.yaml"),
  ]);
  [media, security] = await Promise.all([
    open("fidelity-media-types.yaml"),
    open("fidelity-security-header.yaml", { APP_KEY: "app-secret" }),
  ]);
  [entity, collections] = await Promise.all([
    open("fidelity-entity-header.yaml"),
    open("fidelity-form-collections.yaml"),
  ]);
});
test.after(async () => {
  await Promise.all([
    close(queries),
    close(content),
    close(forms),
    close(keys),
    close(nullable),
    close(media),
    close(security),
    close(entity),
    close(collections),
  ]);
});

test("class 4: every query style (form ±explode objects and arrays, deepObject, pipeDelimited) passes Prism", async () => {
  const outcome = await call(queries!, "search", {
    tags: ["a", "c"],
    ids: [1, 2, 3],
    filter: { color: "red", size: 3 },
    point: { x: 1, y: 2 },
    range: { min: 1, max: 9 },
    expand: ["owner", "items"],
    codes: ["p", "q"],
    key: "k",
  });
  accepted("search", outcome);
  assert.equal(outcome.request.query, {
    tags: ["a", "c"],
    ids: "1,2,3",
    color: "red",
    size: "3",
    point: "x,1,y,2",
    "range[min]": "1",
    "range[max]": "9",
    "expand[0]": "owner",
    "expand[1]": "items",
    codes: "p|q",
    key: "k",
  });
});

test("class 4: empty arrays and objects are left out, not sent as an empty value", async () => {
  const outcome = await call(queries!, "search", {
    tags: [],
    ids: [],
    filter: {},
    range: {},
    expand: [],
    codes: [],
    key: "k",
  });
  accepted("search (empty)", outcome);
  assert.equal(outcome.request.query, { key: "k" });
});

test("class 4: form body fields follow the encoding map (deepObject object, comma arrays)", async () => {
  const outcome = await call(queries!, "submitForm", {
    name: "Ann Lee",
    address: { city: "Köln", zip: "50667" },
    ids: [4, 5],
    tags: ["x", "y"],
  });
  accepted("submitForm", outcome);
  assert.match(outcome.request.contentType ?? "", /^application\/x-www-form-urlencoded/);
});

test("class 5: Accept lists the documented success media types (CSV only, PNG only) and Prism answers 2xx", async () => {
  const report = await call(content!, "getReport", {});
  accepted("getReport", report);
  assert.is(report.request.accept, "text/csv");
  const image = await call(content!, "getImage", {});
  accepted("getImage", image);
  assert.is(image.request.accept, "image/png");
});

test("class 5: an operation without a success body still sends an Accept Prism can satisfy", async () => {
  accepted("clearPing", await call(content!, "clearPing", {}));
});

test("class 5: a binary body and its query parameters are both sent", async () => {
  const outcome = await call(content!, "upload", {
    name: "a b.bin",
    overwrite: true,
    body: Buffer.from("data").toString("base64"),
  });
  accepted("upload", outcome);
  assert.equal(outcome.request.query, { name: "a b.bin", overwrite: "true" });
  assert.match(outcome.request.contentType ?? "", /^application\/octet-stream/);
});

test("class 5: JSON is chosen among several request media types; text/plain is sent as declared", async () => {
  const item = await call(content!, "createItem", { name: "box" });
  accepted("createItem", item);
  assert.match(item.request.contentType ?? "", /^application\/json/);
  const note = await call(content!, "addNote", { body: "hello" });
  accepted("addNote", note);
  assert.match(note.request.contentType ?? "", /^text\/plain/);
});

test("issue 36: form fields follow their encoding styles; multipart fields too, one part per pair", async () => {
  accepted(
    "createProfile",
    await call(forms!, "createProfile", {
      name: "Ann",
      tags: ["a", "b"],
      ids: [1, 2],
      address: { city: "Köln", zip: "50667" },
    }),
  );
  // A deepObject object in a multipart body goes out as `filter[kind]` parts, which Prism reads.
  const upload = await call(forms!, "uploadDocument", {
    file: Buffer.from("%PDF").toString("base64"),
    labels: ["x"],
    filter: { kind: "invoice", year: 2024 },
  });
  accepted("uploadDocument", upload);
  assert.match(upload.request.contentType ?? "", /^multipart\/form-data; boundary=/);
});

/** A tool's arguments from the operation's parameters and body (not the `_fields` every JSON answer gets). */
function argumentsOf(tool: { inputSchema: { properties?: object } }): string[] {
  return Object.keys(tool.inputSchema.properties ?? {}).filter((name) => name !== "_fields");
}

test("issue 36: a parameter the apiKey credential fills is no argument and goes out once", async () => {
  const tools = await keys!.client.listTools();
  const search = tools.tools.find((tool) => tool.name === "searchPlaces")!;
  assert.equal(argumentsOf(search), ["q"]);
  const outcome = await call(keys!, "searchPlaces", { q: "café" });
  accepted("searchPlaces", outcome);
  assert.equal(outcome.request.query, { q: "café", key: "query-secret" });
  const place = tools.tools.find((tool) => tool.name === "getPlace")!;
  assert.equal(argumentsOf(place), ["id"]);
  accepted("getPlace", await call(keys!, "getPlace", { id: "p1" }));
});

test("issue 36: a nullable query array goes out in its style, null as an absent parameter", async () => {
  const outcome = await call(nullable!, "listEvents", { ids: [1, 2] });
  accepted("listEvents", outcome);
  assert.equal(outcome.request.query, { ids: ["1", "2"] });
  const nothing = await call(nullable!, "listEvents", { ids: null, kinds: null, since: null });
  accepted("listEvents (null)", nothing);
  assert.equal(nothing.request.query, {});
});

test("issue 57: a required nullable query array is never null nor empty: refused before any request", async () => {
  const outcome = await call(nullable!, "listReports", { ids: [1, 2] });
  accepted("listReports", outcome);
  assert.equal(outcome.request.query, { ids: ["1", "2"] });
  for (const ids of [null, []]) {
    const before = nullable!.prism.requestCount();
    const result = (await nullable!.client.callTool({ name: "listReports", arguments: { ids } })) as {
      isError?: boolean;
      content: Array<{ text?: string }>;
    };
    assert.ok(result.isError, `ids ${JSON.stringify(ids)} is refused`);
    assert.match(result.content.map((c) => c.text ?? "").join("\n"), /Invalid arguments/);
    assert.is(nullable!.prism.requestCount(), before, "no upstream request");
  }
});

test("issue 36: a named media type before a wildcard, multipart for files, an Accept the operation can answer", async () => {
  const blob = await call(media!, "putBlob", { body: Buffer.from("bytes").toString("base64") });
  accepted("putBlob", blob);
  assert.match(blob.request.contentType ?? "", /^application\/octet-stream/);
  const avatar = await call(media!, "uploadAvatar", { image: Buffer.from("png").toString("base64"), caption: "me" });
  accepted("uploadAvatar", avatar);
  assert.match(avatar.request.contentType ?? "", /^multipart\/form-data/);
  const report = await call(media!, "getReport", { id: "r1" });
  accepted("getReport", report);
  assert.is(report.request.accept, "application/xml");
  // Only an error is documented: the Accept takes anything, so the mock answers it (404), not 406.
  const ping = await call(media!, "deletePing", { id: "p1" });
  assert.equal(ping.request.problems, []);
  assert.is(ping.request.verdict, "accepted");
  assert.match(ping.request.accept ?? "", /\*\/\*/);
});

test("issue 57: a body offered under application/* goes out as JSON, which the mock reads", async () => {
  const note = await call(media!, "createNote", { text: "hello", pinned: true });
  accepted("createNote", note);
  assert.match(note.request.contentType ?? "", /^application\/json/);
});

test("issue 36: a requirement naming an undefined scheme still sends the defined one's header", async () => {
  accepted("listOrders", await call(security!, "listOrders", {}));
  accepted("getStatus", await call(security!, "getStatus", {}));
});

test("issue 57: a Content-Type header parameter of a GET without a body goes out as declared", async () => {
  const outcome = await call(entity!, "getExport", { id: "e1", "Content-Type": "application/json" });
  accepted("getExport", outcome);
  assert.is(outcome.request.contentType, "application/json");
  accepted("createExport", await call(entity!, "createExport", { name: "n" }));
});

test("issue 57: Swagger 2.0 form fields go out in their collectionFormat and Prism reads every item", async () => {
  const outcome = await call(collections!, "tagItems", {
    item: "i",
    tags: ["a", "b"],
    owners: ["x", "y"],
    words: ["p", "q"],
    ids: [1, 2],
  });
  accepted("tagItems", outcome);
  const attached = await call(collections!, "attachFile", { file: Buffer.from("hi").toString("base64"), tags: ["a"] });
  accepted("attachFile", attached);
});

test.run();
