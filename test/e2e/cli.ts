/**
 * The `mcp-gen` command end to end: Swagger 2.0, OpenAPI 3.0 and 3.1 inputs generate projects that
 * compile under strict and answer the official SDK client; broken specs leave nothing behind.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs tsc builds of generated projects through the CLI.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startUpstream } from "../support/runtime-fixture.js";
import { compileProject } from "../support/e2e.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = join(root, "bin/mcp-gen.js");
const work = mkdtempSync(join(tmpdir(), "mcp-gen-cli-"));
const run = promisify(execFile);

/** Runs mcp-gen; never throws, returns exit code and output. */
async function mcpGen(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: work, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** Compiles a generated project with the repository's TypeScript and dependencies. */
async function compile(dir: string): Promise<void> {
  await compileProject(dir);
}

/** Starts a built server over stdio with the SDK client. */
async function connect(dir: string, baseUrl: string): Promise<Client> {
  const client = new Client({ name: "mcp-gen-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(dir, "dist/index.js"), "--base-url", baseUrl],
      stderr: "ignore",
    }),
  );
  return client;
}

const cases = [
  { spec: "specs/fixtures/swagger2-petstore.yaml", tools: ["findPets", "addPet", "deletePet", "uploadPhoto"] },
  { spec: "specs/petstore.yaml", tools: ["listPets", "createPet", "getPet", "updatePet", "deletePet", "getInventory"] },
  {
    spec: "specs/fixtures/oas31-library.json",
    tools: [
      "get_categories_categoryId",
      "replace_a_book_in_the_catalogue_keeping_its_loans_and_res_d9dd3e",
      "countCopies",
      "search",
    ],
  },
];

for (const { spec, tools } of cases) {
  test(`${spec}: generates, compiles under strict, lists its tools to the SDK client`, async () => {
    const out = join(work, spec.replace(/\W+/g, "-"));
    const result = await mcpGen(join(root, spec), "-o", out);
    assert.is(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`${tools.length} tool\\(s\\)`));
    await compile(out);
    const upstream = await startUpstream(() => ({
      status: 200,
      headers: { "content-type": "application/json" },
      body: "[]",
    }));
    const client = await connect(out, upstream.baseUrl);
    try {
      const listed = await client.listTools();
      assert.equal(
        listed.tools.map((t) => t.name),
        tools,
      );
      for (const tool of listed.tools) {
        assert.ok(tool.description && tool.description.length > 0, tool.name);
        assert.is(tool.inputSchema.type, "object");
      }
    } finally {
      await client.close();
      await upstream.close();
    }
  });
}

test("Swagger 2.0 parameters reach the upstream as the spec says", async () => {
  const out = join(work, "specs-fixtures-swagger2-petstore-yaml");
  const upstream = await startUpstream((r) => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: r.method === "GET" ? '[{"id":1,"name":"Rex"}]' : '{"id":2,"name":"Tom"}',
  }));
  const client = await connect(out, `${new URL(upstream.baseUrl).origin}/v2`);
  try {
    const found = await client.callTool({ name: "findPets", arguments: { tags: ["a", "b"], limit: 3 } });
    assert.not.ok(found.isError, JSON.stringify(found));
    assert.equal(found.structuredContent, { result: [{ id: 1, name: "Rex" }] });
    const added = await client.callTool({ name: "addPet", arguments: { name: "Tom", nickname: null } });
    assert.not.ok(added.isError, JSON.stringify(added));
    const form = await client.callTool({ name: "uploadPhoto", arguments: { id: 7, caption: "a b&c" } });
    assert.not.ok(form.isError, JSON.stringify(form));
    const [get, post, upload] = upstream.received;
    assert.is(get!.url, "/v2/pets?tags=a&tags=b&limit=3");
    assert.is(post!.method, "POST");
    assert.equal(JSON.parse(post!.body), { name: "Tom", nickname: null });
    assert.is(upload!.url, "/v2/pets/7/photo");
    assert.match(String(upload!.headers["content-type"]), /^application\/x-www-form-urlencoded/);
    assert.is(upload!.body, "caption=a+b%26c");
  } finally {
    await client.close();
    await upstream.close();
  }
});

test("--auth gives a spec without security an optional bearer token; bad values are usage errors", async () => {
  const out = join(work, "with-auth");
  const result = await mcpGen(
    join(root, "specs/fixtures/swagger2-petstore.yaml"),
    "-o",
    out,
    "--auth",
    "bearer",
    "--env-prefix",
    "PETS_",
  );
  assert.is(result.code, 0, result.stderr);
  assert.match(readFileSync(join(out, ".env.example"), "utf8"), /# PETS_API_TOKEN=\n/);
  const findPets = (
    JSON.parse(readFileSync(join(out, "data/tools.json"), "utf8")) as Array<{
      name: string;
      http: { security?: unknown };
    }>
  ).find((t) => t.name === "findPets");
  assert.equal(findPets?.http.security, [{ api_token: [] }, {}]);
  const bad = await mcpGen(join(root, "specs/petstore.yaml"), "-o", join(work, "bad-auth"), "--auth", "digest");
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /--auth digest is not one of/);
});

test("a spec with a broken $ref: diagnostic with JSON pointer, exit 1, no output folder", async () => {
  const out = join(work, "broken-out");
  const result = await mcpGen(join(root, "specs/fixtures/broken-ref.yaml"), "-o", out);
  assert.is(result.code, 1);
  assert.match(
    result.stderr,
    /error MG005 #\/paths\/~1things\/get\/responses\/200\/content\/application~1json\/schema: \$ref "#\/components\/schemas\/Thing" points to nothing/,
  );
  assert.match(result.stderr, /hint:/);
  assert.not.ok(existsSync(out));
  assert.equal(
    readdirSync(work).filter((name) => name.includes("mcp-gen-")),
    [],
    "no staging folder left behind",
  );
});

test("an empty spec is exit 1 with MG102 and nothing written; --allow-empty generates the server without tools", async () => {
  const spec = join(work, "empty.json");
  writeFileSync(spec, '{"swagger":"2.0"}');
  const out = join(work, "empty-out");
  const refused = await mcpGen(spec, "-o", out);
  assert.is(refused.code, 1);
  assert.match(refused.stderr, /error MG102 #\/paths: The spec has no operations/);
  assert.match(refused.stderr, /--allow-empty/);
  assert.not.ok(existsSync(out));
  const allowed = await mcpGen(spec, "-o", out, "--allow-empty", "--quiet");
  assert.is(allowed.code, 0, allowed.stderr);
  assert.ok(existsSync(join(out, "package.json")));
});

test("a non-empty folder mcp-gen did not create is refused (exit 4); --force writes into it and keeps the other files", async () => {
  const out = join(work, "occupied");
  mkdirSync(out);
  writeFileSync(join(out, "mine.txt"), "user data");
  const refused = await mcpGen(join(root, "specs/petstore.yaml"), "-o", out);
  assert.is(refused.code, 4);
  assert.match(refused.stderr, /MG201.*not empty[\s\S]*--force/);
  assert.equal(readdirSync(out), ["mine.txt"]);
  const forced = await mcpGen(join(root, "specs/petstore.yaml"), "-o", out, "--force");
  assert.is(forced.code, 0, forced.stderr);
  assert.ok(existsSync(join(out, "src/index.ts")));
  assert.ok(existsSync(join(out, "mine.txt")), "the user's file survives --force");
});

test("lint: a server folder and a spec, per client profile; exit 7 when a client would lose tools, 2 for an unknown client", async () => {
  const folder = await mcpGen("lint", join(root, "generated/petstore"));
  assert.is(folder.code, 0, folder.stdout + folder.stderr);
  assert.match(folder.stdout, /pet-store-mcp: surface auto → all/);
  assert.match(folder.stdout, /cursor \(Cursor\): ok/);
  // A configuration key long enough that Cursor drops the longer tool names.
  // As listed (--no-adapt), Cursor would drop them; the generated server serves them rewritten (exit 0).
  const adapted = await mcpGen(
    "lint",
    join(root, "specs/petstore.yaml"),
    "--client",
    "cursor",
    "--server-name",
    "k".repeat(50),
    "--with",
    "clients",
  );
  assert.is(adapted.code, 0, adapted.stdout + adapted.stderr);
  assert.match(adapted.stdout, /cursor \(Cursor\): ok; the server serves it \d+ tool names? rewritten/);
  const long = await mcpGen(
    "lint",
    join(root, "specs/petstore.yaml"),
    "--client",
    "cursor",
    "--server-name",
    "k".repeat(50),
    "--no-adapt",
    "--json",
  );
  assert.is(long.code, 7, long.stderr);
  const report = JSON.parse(long.stdout) as {
    exitCode: number;
    profiles: Array<{ id: string; findings: Array<{ rule: string; effect: string; tools: string[] }> }>;
  };
  assert.is(report.exitCode, 7);
  assert.equal(
    report.profiles.map((p) => p.id),
    ["cursor"],
  );
  assert.equal(
    report.profiles[0]!.findings.map((f) => `${f.effect}:${f.rule}`),
    ["drop:qualified-name"],
  );
  assert.ok(report.profiles[0]!.findings[0]!.tools.includes("getInventory"), JSON.stringify(report.profiles[0]));
  const notServer = await mcpGen("lint", join(root, "specs"));
  assert.is(notServer.code, 2);
  assert.match(notServer.stderr, /is not a generated server folder \(no data\/tools.json\)/);
  const unknown = await mcpGen("lint", join(root, "specs/petstore.yaml"), "--client", "netscape");
  assert.is(unknown.code, 2, unknown.stdout + unknown.stderr);
  assert.match(unknown.stderr, /--client must be all or one of/);
});

test("usage errors exit 2; --help and --version exit 0; a bad --name is refused", async () => {
  const missing = await mcpGen(join(root, "specs/petstore.yaml"));
  assert.is(missing.code, 2);
  assert.match(missing.stderr, /Missing required argument: out/);
  const help = await mcpGen("--help");
  assert.is(help.code, 0);
  assert.match(help.stdout, /--force/);
  const version = await mcpGen("--version");
  assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+$/);
  const badName = await mcpGen(join(root, "specs/petstore.yaml"), "-o", join(work, "bad-name"), "--name", "Not Valid");
  assert.is(badName.code, 1);
  assert.match(badName.stderr, /not a valid npm package name/);
  assert.not.ok(existsSync(join(work, "bad-name")));
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
