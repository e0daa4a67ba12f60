/**
 * Issue 57, class 1: framing and hop-by-hop headers are never taken from a tool's arguments. The
 * planner leaves such header parameters out of the input (MG118), on every surface, and the
 * runtime never sends one from arguments even when a data file binds it; the upstream request's
 * Content-Length is always its body's length. Over the fixture specs/fixtures/framing-headers.yaml
 * and a seeded list of case variants.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { fileURLToPath } from "node:url";
import { generate } from "../../generator/pipeline/generate.js";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { planInput } from "../../generator/pipeline/plan/input-schema.js";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { buildRequest } from "../../runtime/src/upstream/request.js";
import { isFramingHeader, withoutFramingHeaders } from "../../runtime/src/upstream/headers.js";
import { McpServer } from "../../runtime/src/server/server.js";
import type { JsonRpcResponse } from "../../runtime/src/protocol/jsonrpc.js";
import type { ParameterBinding, ToolDefinition } from "../../runtime/src/api/types.js";
import { apiFeatures, featureSurfaces, jsonBody, operation, parameter } from "../support/factories.js";
import { startUpstream, type Recorded, type Upstream } from "../support/runtime-fixture.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const FIXTURE = `${root}specs/fixtures/framing-headers.yaml`;

const FRAMING = [
  "Content-Length",
  "Host",
  "Transfer-Encoding",
  "Connection",
  "Expect",
  "Upgrade",
  "TE",
  "Trailer",
  "Keep-Alive",
  "Proxy-Authorization",
  "Proxy-Connection",
];
/** Names that resemble framing headers but are ordinary ones: they stay arguments. */
const ORDINARY = ["Content-Length-Hint", "X-Host", "Hostname", "Tee", "X-Connection-Id", "Upgrade-Insecure-Requests"];

/** A seeded PRNG (mulberry32): the same variants on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Case variants of each framing name, and `Proxy-` names with random tails: 8 per name. */
function fuzzedNames(seed = 57): string[] {
  const random = prng(seed);
  const vary = (name: string) => [...name].map((c) => (random() < 0.5 ? c.toLowerCase() : c.toUpperCase())).join("");
  const names: string[] = [];
  for (const name of FRAMING) for (let i = 0; i < 8; i++) names.push(vary(name));
  for (let i = 0; i < 8; i++) {
    const tail = Array.from({ length: 1 + Math.floor(random() * 10) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join("");
    names.push(vary(`Proxy-${tail}`));
  }
  return names;
}

const headerBinding = (name: string): ParameterBinding => ({
  argument: name,
  name,
  in: "header",
  style: "simple",
  explode: false,
  required: false,
});

test("fixture: every framing or hop-by-hop header parameter is left out of the input with MG118; others stay", async () => {
  const { plan, diagnostics } = await generate({ spec: FIXTURE, planOnly: true });
  const create = plan.tools.find((t) => t.name === "createNote")!;
  const get = plan.tools.find((t) => t.name === "getNote")!;
  assert.equal(Object.keys(create.inputSchema.properties ?? {}).sort(), ["X-Request-Tag", "_fields", "text"]);
  assert.equal(create.inputSchema.required, ["text"], "the required Content-Length is not required either");
  assert.equal(Object.keys(get.inputSchema.properties ?? {}), ["id", "_fields"]);
  for (const tool of plan.tools)
    assert.not.ok(
      tool.http.parameters.some((p) => isFramingHeader(p.name)),
      `${tool.name} binds no framing header`,
    );
  const framing = diagnostics.filter((d) => d.code === "MG118");
  assert.is(framing.length, 11, "one warning per framing parameter");
  assert.ok(framing.every((d) => d.severity === "warning" && /^#\/paths\/~1notes/.test(d.pointer ?? "")));
  assert.match(framing[0]!.message, /"Content-Length" is a framing or hop-by-hop header/);
});

test("fuzzed names: no case variant of a framing header becomes an argument or goes out from arguments", () => {
  const names = fuzzedNames();
  assert.is(names.length, FRAMING.length * 8 + 8);
  for (const name of names) {
    assert.ok(isFramingHeader(name), name);
    const bag = new DiagnosticBag();
    const op = operation({
      method: "post",
      parameters: [parameter({ name, in: "header", required: true, schema: { type: "integer" } })],
      requestBody: jsonBody({ type: "object", properties: { text: { type: "string" } } }),
    });
    const plan = planInput(op, new Map(), bag);
    assert.not.ok(name in (plan.inputSchema.properties ?? {}), `${name} is not an argument`);
    assert.equal(plan.parameters, [], `${name} is not bound`);
    assert.equal(
      bag.items.map((d) => d.code),
      ["MG118"],
      name,
    );
    // A data file that binds it anyway (an older generation, a hand edit): the header is not sent.
    const request = buildRequest(
      {
        method: "post",
        path: "/notes",
        parameters: [headerBinding(name)],
        body: { kind: "properties", properties: { text: "text" }, mediaType: "application/json", required: true },
        response: { accept: [] },
      },
      { [name]: 1, text: "a note of thirty bytes or so." },
      "https://api.example.com",
    );
    assert.equal(Object.keys(request.headers).sort(), ["accept", "content-type"], name);
  }
});

test("ordinary headers that only resemble framing ones stay arguments and are sent", () => {
  for (const name of ORDINARY) {
    assert.not.ok(isFramingHeader(name), name);
    const op = operation({ parameters: [parameter({ name, in: "header" })] });
    assert.ok(name in (planInput(op, new Map(), new DiagnosticBag()).inputSchema.properties ?? {}), name);
    const request = buildRequest(
      { method: "get", path: "/x", parameters: [headerBinding(name)], response: { accept: [] } },
      { [name]: "v" },
      "https://api.example.com",
    );
    assert.is(request.headers[name.toLowerCase()], "v", name);
  }
});

test("at send time every framing header is stripped, whoever set it (credentials included); others are kept", () => {
  const plain = { accept: "application/json", "x-api-key": "k" };
  assert.is(withoutFramingHeaders(plain), plain, "nothing to strip: the same object");
  const set: Record<string, string> = { accept: "*/*", "content-length": "1", "Proxy-Authorization": "Basic x" };
  Object.defineProperty(set, "__proto__", { value: "p", enumerable: true });
  const kept = withoutFramingHeaders(set);
  assert.equal(Object.keys(kept).sort(), ["__proto__", "accept"]);
  assert.is(Object.getPrototypeOf(kept), Object.prototype, "a header named __proto__ stays a header");
});

/**
 * A tool as a stale data file could describe it: Content-Length, Transfer-Encoding and Host bound as
 * header arguments of a POST with a JSON body.
 */
function staleTool(): ToolDefinition {
  const bound = ["Content-Length", "Transfer-Encoding", "Host", "Connection"];
  return {
    name: "postStale",
    description: "A stale binding",
    inputSchema: {
      type: "object",
      properties: {
        text: { type: "string" },
        ...Object.fromEntries(bound.map((name) => [name, { type: ["string", "integer"] }])),
      },
      required: ["text"],
    },
    http: {
      method: "post",
      path: "/notes",
      parameters: bound.map(headerBinding),
      body: { kind: "properties", properties: { text: "text" }, mediaType: "application/json", required: true },
      response: { accept: ["application/json"] },
    },
  };
}

let upstream: Upstream;
test.before(async () => {
  upstream = await startUpstream(() => ({
    status: 201,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: 1 }),
  }));
});
test.after(async () => {
  await upstream.close();
});

/** The framing of a request as the upstream saw it. */
function framedByClient(request: Recorded, what: string): void {
  assert.is(request.headers["content-length"], String(Buffer.byteLength(request.body)), `${what}: Content-Length`);
  assert.is(request.headers["transfer-encoding"], undefined, `${what}: no Transfer-Encoding`);
  assert.is(request.headers.host, new URL(upstream.baseUrl).host, `${what}: Host`);
  assert.is(request.headers.connection, "keep-alive", `${what}: Connection`);
  assert.equal(JSON.parse(request.body), { text: "a note of thirty bytes or so." }, `${what}: the whole body`);
}

const result = (response: JsonRpcResponse | undefined): Record<string, any> => {
  assert.ok(response && "result" in response, JSON.stringify(response));
  return (response as { result: Record<string, any> }).result;
};

test("every surface: arguments naming framing headers never frame the upstream request", async () => {
  const { plan } = await generate({ spec: FIXTURE, planOnly: true });
  const tools = [...plan.tools.map(toolDefinition), staleTool()];
  const spoof = { "Content-Length": 1, "Transfer-Encoding": "chunked", Host: "evil.example", Connection: "close" };
  const args = { text: "a note of thirty bytes or so.", ...spoof };
  const server = (surface: "all" | "search" | "code") =>
    new McpServer({
      ...apiFeatures,
      info: { name: "framing", version: "1.0.0" },
      tools,
      upstream: { baseUrl: upstream.baseUrl, timeoutMs: 5_000, retries: 0 },
      surface,
      surfaces: featureSurfaces({ "code-timeout": "10000", "code-memory": "32" }),
    });
  const call = (s: McpServer, name: string, args: unknown) =>
    s.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }, {});
  const calls: Array<[string, () => Promise<JsonRpcResponse | undefined>]> = [];
  for (const tool of ["createNote", "postStale"]) {
    calls.push([`all ${tool}`, () => call(server("all"), tool, args)]);
    calls.push([`search ${tool}`, () => call(server("search"), "call_operation", { name: tool, arguments: args })]);
    calls.push([
      `code ${tool}`,
      () => call(server("code"), "execute_code", { code: `return await api.${tool}(${JSON.stringify(args)});` }),
    ]);
  }
  for (const [what, run] of calls) {
    const before = upstream.received.length;
    const answer = result(await run());
    // The generated tool's input has no such properties: a strict client may refuse them, but
    // whatever reaches the upstream is framed by the client.
    if (upstream.received.length === before) {
      assert.ok(answer.isError, `${what}: neither sent nor refused: ${JSON.stringify(answer)}`);
      continue;
    }
    assert.not.ok(answer.isError, `${what}: ${JSON.stringify(answer.content)}`);
    assert.is(upstream.received.length, before + 1, what);
    framedByClient(upstream.received.at(-1)!, what);
  }
  assert.ok(upstream.received.length >= 3, "the stale tool's calls reached the upstream on every surface");
});

test.run();
