/**
 * End to end, issue 11 classes 1, 2, 3 and 6: each fixture in specs/fixtures/fidelity-*.yaml is
 * generated into a project folder, whose tool definitions (data/tools.json) are served over stdio by
 * the repository's compiled runtime (the source that generation vendors into src/runtime/: no
 * per-fixture `tsc`, which takes minutes on a busy machine) and called with the official SDK client
 * against a Prism mock of the same fixture started with `--errors`. Schema-valid arguments must make
 * a request Prism accepts; arguments the spec forbids must be refused by the server's own
 * validation before any request. One Prism per fixture; the fixtures are prepared in parallel.
 *
 * Run from dist: `npx uvu dist/test/e2e 'plan-fidelity\.js$'`.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs a Prism mock server.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generate } from "../../generator/pipeline/generate.js";
import { prismRequests, repoRoot, startPrism, waitUntil, type PrismHandle, type PrismRequest } from "../support/e2e.js";

const CALL = { timeout: 15_000 };
const FIXTURES = ["optional-body", "empty-values", "read-only", "self-reference"] as const;
type Fixture = (typeof FIXTURES)[number];

interface Running {
  dir: string;
  prism: PrismHandle;
  client: Client;
  stderr: string[];
}
interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

const running = new Map<Fixture, Running>();
const setupErrors = new Map<Fixture, unknown>();
const timings: Record<string, number> = {};
const started = Date.now();

/** What the generated src/index.ts does (with its features), with the compiled runtime of this repository. */
async function entryPoint(dir: string): Promise<string> {
  const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { name: string; version: string };
  const runtime = (path: string) => JSON.stringify(pathToFileURL(join(repoRoot, "dist", "runtime", "src", path)).href);
  const index = await readFile(join(dir, "src", "index.ts"), "utf8");
  const features = [...index.matchAll(/^import \{ (\w+) \} from "\.\/runtime\/(features\/[\w-]+\/index\.js)";$/gm)];
  return [
    `import { readFileSync } from "node:fs";`,
    `import { main } from ${runtime("cli/main.js")};`,
    `import { loadTools } from ${runtime("data/tool-data.js")};`,
    ...features.map(([, name, path]) => `import { ${name} } from ${runtime(path!)};`),
    `const read = (file) => JSON.parse(readFileSync(new URL("./data/" + file, import.meta.url), "utf8"));`,
    `const tools = loadTools(read("tools.json"), read("definitions.json"));`,
    `main(${JSON.stringify({ name: pkg.name, version: pkg.version })}, tools, process.argv.slice(2), { features: [${features.map(([, name]) => name).join(", ")}] }).catch((error) => { console.error(error); process.exit(1); });`,
    "",
  ].join("\n");
}

async function open(fixture: Fixture): Promise<Running> {
  const spec = join(repoRoot, "specs", "fixtures", `fidelity-${fixture}.yaml`);
  const dir = await mkdtemp(join(tmpdir(), `mcp-gen-e2e-${fixture}-`));
  const t0 = Date.now();
  // Generous: on a loaded machine Prism alone can take tens of seconds to start.
  const prismStarting = startPrism(spec, undefined, { errors: true, readyTimeoutMs: 120_000 });
  prismStarting.catch(() => undefined); // awaited below; no unhandled rejection meanwhile
  try {
    await generate({ spec, outDir: dir, force: true });
    await writeFile(join(dir, "serve.mjs"), await entryPoint(dir));
  } catch (error) {
    await (await prismStarting.catch(() => undefined))?.stop();
    throw error;
  }
  const prism = await prismStarting;
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(dir, "serve.mjs"), "--base-url", prism.url],
    cwd: dir,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer | string) => stderr.push(chunk.toString()));
  const client = new Client({ name: "plan-fidelity-e2e", version: "0.0.0" });
  await client.connect(transport, CALL);
  timings[fixture] = Date.now() - t0;
  return { dir, prism, client, stderr };
}

test.before(async () => {
  await Promise.all(
    FIXTURES.map(async (fixture) => {
      try {
        running.set(fixture, await open(fixture));
      } catch (error) {
        setupErrors.set(fixture, error);
      }
    }),
  );
});

test.after(async () => {
  for (const { client, prism, dir } of running.values()) {
    await client.close().catch(() => undefined);
    await prism.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
  timings.total = Date.now() - started;
  console.log(`\n  plan-fidelity timings (ms): ${JSON.stringify(timings)}`);
});

function need(fixture: Fixture): Running {
  const r = running.get(fixture);
  if (!r)
    throw new Error(
      `fixture ${fixture} did not start: ${String((setupErrors.get(fixture) as Error | undefined)?.stack ?? setupErrors.get(fixture))}`,
    );
  return r;
}

function text(result: ToolResult): string {
  return result.content.map((item) => item.text ?? "").join("\n");
}

function context(r: Running): string {
  return `\n--- server stderr ---\n${r.stderr.join("")}\n--- prism (last 30 lines) ---\n${r.prism.logs().slice(-30).join("\n")}`;
}

/** A call Prism must accept: exactly one request, validated, answered 2xx, no error result. */
async function accepted(
  fixture: Fixture,
  name: string,
  args: Record<string, unknown>,
): Promise<{ result: ToolResult; request: PrismRequest }> {
  const r = need(fixture);
  const before = prismRequests(r.prism.logs()).length;
  const result = (await r.client.callTool({ name, arguments: args }, undefined, CALL)) as ToolResult;
  await waitUntil(
    () => {
      const all = prismRequests(r.prism.logs());
      return all.length > before && all[all.length - 1]!.complete;
    },
    5_000,
    () => `Prism logged no complete request for ${name} (result: ${JSON.stringify(result)})${context(r)}`,
  );
  // Violations are logged after the response line: let them arrive.
  await new Promise((done) => setTimeout(done, 150));
  const all = prismRequests(r.prism.logs());
  assert.is(all.length, before + 1, `${name} makes exactly one request${context(r)}`);
  const request = all[all.length - 1]!;
  const detail = `${name} ${JSON.stringify(args)}\n${request.lines.join("\n")}`;
  assert.ok(request.passed, `Prism accepts the request: ${detail}`);
  assert.equal(request.problems, [], `no violation: ${detail}`);
  assert.ok(request.status !== undefined && request.status < 300, `2xx: ${detail}`);
  assert.not.ok(result.isError, `result is no error: ${text(result)}${context(r)}`);
  return { result, request };
}

/** A call the server's own validation must refuse: an error naming `argument`, and no request. */
async function refused(fixture: Fixture, name: string, args: Record<string, unknown>, argument: RegExp): Promise<void> {
  const r = need(fixture);
  const before = prismRequests(r.prism.logs()).length;
  const result = (await r.client.callTool({ name, arguments: args }, undefined, CALL)) as ToolResult;
  assert.ok(result.isError, `${name} ${JSON.stringify(args)} is refused: ${JSON.stringify(result)}`);
  assert.match(text(result), /^Invalid arguments/, `refused by argument validation: ${text(result)}`);
  assert.match(text(result), argument, `the error names the argument: ${text(result)}`);
  await new Promise((done) => setTimeout(done, 100));
  assert.is(
    prismRequests(r.prism.logs()).length,
    before,
    `no request reached Prism for ${name} ${JSON.stringify(args)}${context(r)}`,
  );
}

test("all four fixtures generate and start", () => {
  for (const fixture of FIXTURES) need(fixture);
});

// Class 1 ---------------------------------------------------------------------------------------

test("class 1: a body without requestBody.required keeps its required properties", async () => {
  const { request } = await accepted("optional-body", "createWidget", { name: "bolt", size: 3 });
  assert.is(`${request.method} ${request.path}`, "post /widgets");
  await refused("optional-body", "createWidget", { color: "red" }, /name|size/);
  await refused("optional-body", "createWidget", {}, /name|size/);
});

test("class 1: a body declared optional is sent whole or not at all", async () => {
  await accepted("optional-body", "replaceWidget", { widgetId: "w1" });
  await accepted("optional-body", "replaceWidget", { widgetId: "w1", body: { name: "bolt", size: 3 } });
  await refused("optional-body", "replaceWidget", { widgetId: "w1", body: { color: "red" } }, /body/);
});

test("class 1: an allOf body requiring a property is required; a body requiring nothing stays optional", async () => {
  await accepted("optional-body", "createLabel", { body: { text: "t", name: "n" } });
  await refused("optional-body", "createLabel", {}, /body/);
  await refused("optional-body", "createLabel", { body: { name: "n" } }, /text/);
  await accepted("optional-body", "createNote", {});
  await accepted("optional-body", "createNote", { text: "hi" });
});

// Class 2 ---------------------------------------------------------------------------------------

const part = { itemId: "i1", partCode: "p1", q: "x", "X-Tenant": "t1" };

test("class 2: non-empty path, query and header values are accepted; allowed empty ones too", async () => {
  await accepted("empty-values", "getPart", part);
  await accepted("empty-values", "getPart", { ...part, sort: "asc", flag: "", note: "", "X-Trace": "" });
});

test('class 2: "" where the spec allows no empty value is refused before any request', async () => {
  for (const key of ["itemId", "partCode", "q", "sort", "X-Tenant"]) {
    await refused("empty-values", "getPart", { ...part, [key]: "" }, new RegExp(key));
  }
});

// Class 3 ---------------------------------------------------------------------------------------

test("class 3: tools/list shows no readOnly property and no body_id", async () => {
  const { tools } = await need("read-only").client.listTools(undefined, CALL);
  const gadget = tools.find((tool) => tool.name === "updateGadget")!;
  // The operation's own arguments: `_fields` (every JSON answer's field choice) aside.
  const own = Object.keys(gadget.inputSchema.properties ?? {}).filter((name) => name !== "_fields");
  assert.equal(own.sort(), ["id", "name", "secret"]);
  const device = tools.find((tool) => tool.name === "createDevice")!;
  const defs =
    (device.inputSchema as { $defs?: Record<string, { properties?: object; allOf?: Array<{ required?: string[] }> }> })
      .$defs ?? {};
  assert.equal(defs.Resource?.properties, {});
  assert.equal(defs.Device?.allOf?.[1]?.required, ["model"]);
});

test("class 3: a closed body without its readOnly properties is accepted", async () => {
  const { request } = await accepted("read-only", "updateGadget", { id: "g-1", name: "lamp", secret: "s" });
  assert.is(request.path, "/gadgets/g-1");
});

test("class 3: an allOf body whose sibling member required the readOnly properties is accepted", async () => {
  await accepted("read-only", "createDevice", { body: { model: "x1" } });
  await refused("read-only", "createDevice", { body: {} }, /model/);
});

// Class 6 ---------------------------------------------------------------------------------------

test("class 6: self-referential outputs list and call", async () => {
  const { tools } = await need("self-reference").client.listTools(undefined, CALL);
  assert.equal(tools.map((tool) => tool.name).sort(), ["getNested", "getValue", "putChoice"]);
  for (const tool of tools) assert.ok(tool.outputSchema, `${tool.name} has an output schema`);
  const value = await accepted("self-reference", "getValue", {});
  assert.equal(value.result.structuredContent, { value: [1, "a", [true, null], { k: [2] }] });
  const nested = await accepted("self-reference", "getNested", {});
  assert.equal(nested.result.structuredContent, { result: [[], [[]]] });
  await accepted("self-reference", "putChoice", { body: ["a", ["b", ["c"]]] });
  await refused("self-reference", "putChoice", { body: [1] }, /body/);
});

test.run();
