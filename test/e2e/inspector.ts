/**
 * The MCP Inspector v2 in the loop: its CLI mode (`@modelcontextprotocol/inspector`, pinned in
 * tools/conformance and run on the Node 22 installed there, with HOME in a temporary folder so it
 * writes no catalog of the user's) drives the generated petstore server over stdio and over
 * Streamable HTTP with `--protocol-era auto`: tools/list, tools/call against a local upstream,
 * resources/list and resources/read. Each result is read from the file `--output` writes.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs the MCP Inspector pinned in tools/conformance and its Node 22 (scripts/setup-conformance.js).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PETSTORE_TOOLS } from "../support/petstore-tools.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import {
  compiledExample,
  repoRoot,
  run,
  startHttpServer,
  startProcess,
  type HttpServerHandle,
} from "../support/e2e.js";

const home = mkdtempSync(join(tmpdir(), "mcp-gen-inspector-"));
let node22 = "";
let inspector = "";
let dir = "";
let upstream: Upstream;
let server: HttpServerHandle | undefined;
let outputs = 0;
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

test.before(async () => {
  const setup = await promisify(execFile)(process.execPath, [join(repoRoot, "scripts/setup-conformance.js")], {
    timeout: 300_000,
  });
  node22 = /node: (.+)/.exec(setup.stdout)![1]!.trim();
  inspector = /inspector: (.+)/.exec(setup.stdout)![1]!.trim();
  dir = await compiledExample("petstore");
  upstream = await startUpstream((r) =>
    r.url.includes("/pets/7")
      ? { status: 200, headers: { "content-type": "application/json" }, body: '{"id":7,"name":"Rex"}' }
      : { status: 404, body: "" },
  );
  server = await startHttpServer(dir, ["--base-url", upstream.baseUrl]);
});

test.after(async () => {
  await server?.stop();
  await upstream.close();
  rmSync(home, { recursive: true, force: true });
});

/** How the Inspector reaches the server: a command it starts (stdio) or a URL. */
type Target = { kind: "stdio" } | { kind: "http" };

/** Runs the Inspector's CLI once (`--protocol-era auto`) and returns the JSON result it wrote. */
async function inspect(target: Target, method: string[]): Promise<Record<string, any>> {
  const output = join(home, `result-${++outputs}.json`);
  // A URL goes first (options such as --tool-arg take every word after them); a command after `--`.
  const before = target.kind === "http" ? [server!.url.toString()] : [];
  const after =
    target.kind === "stdio" ? ["--", process.execPath, join(dir, "dist/index.js"), "--base-url", upstream.baseUrl] : [];
  const args = [
    inspector,
    "--cli",
    ...before,
    "--protocol-era",
    "auto",
    "--quiet",
    "--output",
    output,
    ...method,
    ...after,
  ];
  await run(node22, args, { cwd: home, timeoutMs: 60_000, env: { PATH: process.env.PATH ?? "", HOME: home } });
  return JSON.parse(readFileSync(output, "utf8")) as Record<string, any>;
}

for (const target of [{ kind: "stdio" }, { kind: "http" }] as const) {
  test(`Inspector CLI over ${target.kind}: tools/list, tools/call, resources/list, resources/read`, async () => {
    const listed = await inspect(target, ["--method", "tools/list"]);
    assert.equal(
      (listed.tools as Array<{ name: string }>).map((tool) => tool.name),
      // The six operations, then the example's custom composite tool (src/custom/), always listed.
      PETSTORE_TOOLS,
    );

    const called = await inspect(target, ["--method", "tools/call", "--tool-name", "getPet", "--tool-arg", "petId=7"]);
    assert.not.ok(called.isError, JSON.stringify(called));
    assert.equal(called.structuredContent, { id: 7, name: "Rex" });
    // --protocol-era auto settled on the stateless revision: only modern results name the server in _meta.
    assert.is(called._meta?.[SERVER_INFO]?.name, "pet-store-mcp");

    const resources = await inspect(target, ["--method", "resources/list"]);
    const uris = (resources.resources as Array<{ uri: string }>).map((resource) => resource.uri);
    assert.ok(uris.includes("openapi://document"), uris.join(", "));

    const read = await inspect(target, ["--method", "resources/read", "--uri", "openapi://document"]);
    const contents = read.contents as Array<{ uri: string; mimeType: string; text: string }>;
    assert.is(contents[0]!.uri, "openapi://document");
    assert.is((JSON.parse(contents[0]!.text) as { info: { title: string } }).info.title, "Pet Store");
    assert.is(read._meta?.[SERVER_INFO]?.name, "pet-store-mcp");
  });
}

test("npm run mock, then the server with the --base-url it printed: a call through the Inspector CLI returns the example", async () => {
  const scripts = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts: Record<string, string> })
    .scripts;
  assert.is(scripts.mock, "node scripts/mock.mjs", "npm run mock is this command (run here by PID, without npm)");
  const mock = await startProcess(process.execPath, ["scripts/mock.mjs"], { cwd: dir, readyLine: /--base-url / });
  try {
    const printed = mock.lines().find((line) => line.includes("--base-url "))!;
    const baseUrl = /node dist\/index\.js --base-url (http:\/\/127\.0\.0\.1:\d+)$/.exec(printed)?.[1];
    assert.ok(baseUrl, printed);
    const cases = JSON.parse(readFileSync(join(dir, "test/cases.json"), "utf8")) as {
      cases: Array<{ tool: string; arguments: Record<string, unknown>; response: { body: unknown } }>;
    };
    const getPet = cases.cases.find((c) => c.tool === "getPet")!;
    const output = join(home, "result-mock.json");
    const args = [
      "--method",
      "tools/call",
      "--tool-name",
      "getPet",
      "--tool-arg",
      `petId=${String(getPet.arguments.petId)}`,
    ];
    const server = ["--", process.execPath, join(dir, "dist/index.js"), "--base-url", baseUrl!];
    await run(
      node22,
      [inspector, "--cli", "--protocol-era", "auto", "--quiet", "--output", output, ...args, ...server],
      {
        cwd: home,
        timeoutMs: 60_000,
        env: { PATH: process.env.PATH ?? "", HOME: home },
      },
    );
    const called = JSON.parse(readFileSync(output, "utf8")) as { isError?: boolean; structuredContent: unknown };
    assert.not.ok(called.isError, JSON.stringify(called));
    assert.equal(called.structuredContent, getPet.response.body);
    assert.ok(
      mock.lines().some((line) => /^GET \/pets\/\S+ -> 200 \(getPet\)$/.test(line)),
      mock.lines().join("\n"),
    );
  } finally {
    await mock.stop();
  }
});

test.run();
