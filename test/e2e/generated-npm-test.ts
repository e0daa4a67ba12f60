/**
 * The `npm test` shipped with every generated server: it passes out of the box (for each example
 * spec), and it fails when a customisation makes a tool's request stop matching the spec.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs tsc builds of seven generated projects and their npm tests.
 */
import type { StoredTool } from "../../runtime/src/data/tool-data.js";
import { jsonLines, offsetsText } from "../../generator/pipeline/emit/data/data-files.js";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { compileProject } from "../support/e2e.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "mcp-gen-npmtest-"));
const run = promisify(execFile);

/** Runs the project's test script's runner (the project is built); never throws. */
async function npmTest(dir: string): Promise<{ code: number; output: string }> {
  const script = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts: Record<string, string> })
    .scripts.test!;
  assert.is(script, "npm run build && node --test test/server.test.mjs");
  try {
    const { stdout, stderr } = await run(process.execPath, ["--test", "test/server.test.mjs"], {
      cwd: dir,
      timeout: 600_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, output: (e.stdout ?? "") + (e.stderr ?? "") };
  }
}

/** The spec of every golden in generated/ (so each golden is compiled under strict and tested), then fixtures. */
const examples = (JSON.parse(readFileSync(join(root, "specs/examples.json"), "utf8")) as Array<{ spec: string }>).map(
  (example) => example.spec,
);
const specs = [
  ...examples,
  // pattern, format, multipleOf, exclusive bounds, minItems, uniqueItems, const, oneOf, an invalid example.
  "specs/fixtures/contract-constraints.yaml",
  // mutual TLS, an input schema no value satisfies, a discriminated oneOf, an object path parameter.
  "specs/fixtures/contract-skips.yaml",
  // Issue 36: a path key with an empty segment, characters a URL encodes, required PUT bodies.
  "specs/fixtures/contract-empty-segment.yaml",
  "specs/fixtures/contract-encoded-path.yaml",
  "specs/fixtures/contract-required-put.yaml",
];
const dirs = new Map<string, string>();
const outputs = new Map<string, string>();

/**
 * Every spec generated and compiled with the repository's TypeScript, two at a time (tsc is most of
 * this file's time and the machines have two cores); a test awaits its own spec's build.
 */
const built = new Map<string, Promise<string>>();
test.before(() => {
  const lanes: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
  specs.forEach((spec, i) => {
    const lane = i % lanes.length;
    const dir = join(work, spec.replace(/\W+/g, "-"));
    const ready = lanes[lane]!.catch(() => undefined).then(async () => {
      await generate({ spec: join(root, spec), outDir: dir });
      await compileProject(dir, { timeoutMs: 600_000 });
      return dir;
    });
    ready.catch(() => undefined); // awaited (and reported) by the spec's own test
    lanes[lane] = ready;
    built.set(spec, ready);
  });
});

for (const spec of specs) {
  test(`${spec}: the generated npm test passes out of the box`, async () => {
    const dir = await built.get(spec)!;
    dirs.set(spec, dir);
    const result = await npmTest(dir);
    outputs.set(spec, result.output);
    assert.is(result.code, 0, result.output);
    assert.match(result.output, /# fail 0/);
    // The auth fixture's tools take no arguments, so it has no invalid-argument case.
    if (!/auth-schemes|contract-skips|pagination/.test(spec))
      assert.match(result.output, /refused before any upstream call/);
  });
}

test("contract-constraints: constrained samples, refused calls and a documented 4xx are cases, and they pass", async () => {
  const dir = dirs.get("specs/fixtures/contract-constraints.yaml")!;
  const cases = JSON.parse(readFileSync(join(dir, "test/cases.json"), "utf8")) as {
    cases: Array<{ tool: string; arguments: Record<string, unknown> }>;
    refused: Array<{ problem: string }>;
    upstreamError?: { status: number };
  };
  const args = (tool: string) => cases.cases.find((c) => c.tool === tool)!.arguments;
  // The spec's example "abc" breaks the Sku pattern, so it is not used.
  assert.match(String(args("getItem").sku), /^[A-Z]{3}-\d{4}$/);
  assert.is((args("listItems").limit as number) % 10, 0);
  assert.equal(
    cases.refused.map((r) => r.problem),
    ["invalid", "missing"],
  );
  assert.is(cases.upstreamError?.status, 404);
  const output = outputs.get("specs/fixtures/contract-constraints.yaml")!;
  assert.match(output, /# pass 7\n/);
  assert.match(output, /# fail 0/);
  assert.match(output, /getItem: a documented 404 answer comes back as an error result/);
  assert.match(output, /without the required "sku" is refused before any upstream call/);
});

test("contract-skips: cases that cannot run are skipped with their reason; the discriminated and object-path cases pass", async () => {
  const output = outputs.get("specs/fixtures/contract-skips.yaml")!;
  assert.match(
    output,
    /getCertified: the request matches the API and the answer comes back # SKIP the operation needs a client certificate \(mutual TLS\)/,
  );
  assert.match(
    output,
    /postImpossible: the request matches the API and the answer comes back # SKIP no sample value satisfies this tool's input schema/,
  );
  assert.match(output, /# skipped 2\n/);
  assert.match(output, /# fail 0/);
  assert.match(output, /ok \d+ - postEvent: the request matches the API/);
  assert.match(output, /ok \d+ - getByFilter: the request matches the API/);
  const dir = dirs.get("specs/fixtures/contract-skips.yaml")!;
  const cases = JSON.parse(readFileSync(join(dir, "test/cases.json"), "utf8")) as {
    cases: Array<{ tool: string; arguments: Record<string, unknown> }>;
  };
  const args = (tool: string) => cases.cases.find((c) => c.tool === tool)!.arguments;
  assert.ok(
    ["approved", "denied"].includes((args("postEvent").body as { kind: string }).kind),
    JSON.stringify(args("postEvent")),
  );
  assert.ok(Object.keys(args("getByFilter").filter as object).length > 0, "an object path parameter is never empty");
  // A required object query parameter: a declared property is sampled (not an invented key), and
  // the stand-in looks for its properties, since form/explode never sends the name.
  assert.equal(args("getByFilter").where, { status: "example" });
  const request = (cases.cases.find((c) => c.tool === "getByFilter") as unknown as { request: { query: unknown[] } })
    .request;
  assert.equal(request.query, [{ name: "where", anyOf: ["status", "kind"] }]);
});

test("issue 36, classes 2 and 3: paths with an empty segment or encoded characters match the requests sent", async () => {
  const empty = outputs.get("specs/fixtures/contract-empty-segment.yaml")!;
  for (const tool of ["getOpenApi", "getItem"])
    assert.match(empty, new RegExp(`ok \\d+ - ${tool}: the request matches the API`));
  const encoded = outputs.get("specs/fixtures/contract-encoded-path.yaml")!;
  for (const tool of ["getQuoted", "copyFile", "getMenu"])
    assert.match(encoded, new RegExp(`ok \\d+ - ${tool}: the request matches the API`));
  assert.match(encoded, /# fail 0/);
});

test("issue 36, class 4: every required PUT body is sent, a form body with one of its optional fields", async () => {
  const dir = dirs.get("specs/fixtures/contract-required-put.yaml")!;
  const cases = JSON.parse(readFileSync(join(dir, "test/cases.json"), "utf8")) as {
    cases: Array<{ tool: string; arguments: Record<string, unknown> }>;
  };
  const args = (tool: string) => cases.cases.find((c) => c.tool === tool)!.arguments;
  assert.equal(args("putSettings"), { theme: "light" });
  assert.equal(args("putAvatar"), { caption: "example" });
  // Read-only fields only: no argument, an empty form (declared by its Content-Type) or `{}`.
  assert.equal(args("putStampForm"), {});
  assert.equal(args("putStamp"), {});
  const output = outputs.get("specs/fixtures/contract-required-put.yaml")!;
  for (const tool of [
    "putEmpty",
    "putStamp",
    "putStampForm",
    "putSettings",
    "putAvatar",
    "putNote",
    "putConfig",
    "putBlob",
  ])
    assert.match(output, new RegExp(`ok \\d+ - ${tool}: the request matches the API`));
});

test("the generated npm test fails when a constrained request no longer sends a required header", async () => {
  const dir = dirs.get("specs/fixtures/contract-constraints.yaml")!;
  rewriteTools(dir, (tools) => {
    const getItem = tools.find((tool) => tool.name === "getItem")!;
    getItem.http.parameters = getItem.http.parameters.filter((p) => p.in !== "header");
  });
  const result = await npmTest(dir);
  assert.is.not(result.code, 0);
  assert.match(result.output, /required header x-request-id missing/);
});

test("the generated npm test fails when a tool's request no longer matches the spec", async () => {
  const dir = dirs.get("specs/petstore.yaml")!;
  rewriteTools(dir, (tools) => {
    tools.find((tool) => tool.name === "getPet")!.http.method = "delete";
  });
  const result = await npmTest(dir);
  assert.is.not(result.code, 0);
  assert.match(result.output, /getPet: the request matches the API/);
  assert.match(result.output, /method DELETE, the API says GET/);
});

/**
 * Edits a generated server's tool definitions as a broken generator would, keeping its offsets
 * consistent when it has them (feature large-data). Only data/ changes, which the built server
 * reads at start, so no rebuild is needed.
 */
function rewriteTools(dir: string, edit: (tools: StoredTool[]) => void): void {
  const tools = JSON.parse(readFileSync(join(dir, "data/tools.json"), "utf8")) as StoredTool[];
  edit(tools);
  const { text, ranges } = jsonLines(tools);
  writeFileSync(join(dir, "data/tools.json"), text);
  if (existsSync(join(dir, "data/tool-offsets.txt")))
    writeFileSync(join(dir, "data/tool-offsets.txt"), offsetsText(ranges));
}

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
