/**
 * The MCP Bundle of a generated server, for real: the petstore project (copied from generated/,
 * built under strict) runs its own `scripts/bundle.mjs` (production dependencies from the npm
 * registry into a staging folder, packed by @anthropic-ai/mcpb), `mcpb validate` accepts its
 * manifest, and the bundle, unpacked into an empty folder, runs on its own: SDK 1.x lists its
 * tools and calls one against a local upstream. An unsubstituted `${user_config.…}` left by a
 * bundle host is no setting.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { serverJsonViolations, type PackageFacts } from "../../generator/pipeline/emit/publishing/server-json-check.js";
import { startUpstream } from "../support/runtime-fixture.js";
import { compileExampleCopy, npmEnv, repoRoot, run } from "../support/e2e.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-bundle-"));
const dir = join(work, "petstore");
const mcpb = join(repoRoot, "node_modules", ".bin", "mcpb");
const RELEASE_URL = "https://github.com/acme/pets/releases/download/v1.2.0/pet-store-mcp-1.2.0.mcpb";

test("npm run bundle packs a bundle that mcpb validates and that runs on its own", async () => {
  await compileExampleCopy("petstore", dir);
  // The npm of the staging install must not see the outer `npm test`'s project (npmEnv).
  const packed = await run(process.execPath, ["scripts/bundle.mjs", "--release-url", RELEASE_URL], {
    cwd: dir,
    timeoutMs: 300_000,
    env: npmEnv(),
  });
  const file = join(dir, "pet-store-mcp-1.2.0.mcpb");
  assert.ok(existsSync(file), packed.output);
  const sha256 = createHash("sha256").update(readFileSync(file)).digest("hex");
  assert.match(packed.output, `sha256: ${sha256}`);
  const marker = 'server.json "packages" entry for this bundle:\n';
  const entry = JSON.parse(packed.output.slice(packed.output.indexOf(marker) + marker.length)) as Record<
    string,
    unknown
  >;
  const serverJson = JSON.parse(readFileSync(join(dir, "server.json"), "utf8")) as { packages: unknown[] };
  assert.equal(entry, {
    registryType: "mcpb",
    identifier: RELEASE_URL,
    version: "1.2.0",
    fileSha256: sha256,
    transport: { type: "stdio" },
    environmentVariables: (serverJson.packages[0] as { environmentVariables: unknown }).environmentVariables,
  });
  // server.json listing the bundle beside the npm package still passes the registry's schema.
  const listed = { ...serverJson, packages: [...serverJson.packages, entry] };
  assert.equal(
    serverJsonViolations(listed, JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageFacts),
    [],
  );

  const validated = await run(mcpb, ["validate", join(dir, "manifest.json")], { cwd: dir, timeoutMs: 60_000 });
  assert.match(validated.output, "Manifest schema validation passes");

  const unpacked = join(work, "installed");
  await run(mcpb, ["unpack", file, unpacked], { cwd: work, timeoutMs: 60_000 });
  for (const path of ["manifest.json", "dist/index.js", "data/tools.json", "node_modules/got/package.json"])
    assert.ok(existsSync(join(unpacked, path)), `${path} is in the bundle`);
  assert.not.ok(existsSync(join(unpacked, "node_modules/typescript")), "no development dependencies");
  assert.not.ok(existsSync(join(unpacked, "src")), "no sources");

  const upstream = await startUpstream((r) =>
    r.url.includes("/pets/7")
      ? { status: 200, headers: { "content-type": "application/json" }, body: '{"id":7,"name":"Rex"}' }
      : { status: 404, body: "" },
  );
  try {
    // As the host runs it: the manifest's command, with the user's setting for the base URL.
    const manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"));
    const args = (manifest.server.mcp_config.args as string[]).map((arg) => arg.replace("${__dirname}", unpacked));
    const client = new Client({ name: "bundle-host", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args,
        env: { PATH: process.env.PATH ?? "", API_BASE_URL: upstream.baseUrl },
        stderr: "ignore",
      }),
    );
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === "getPet"));
    const result = (await client.callTool({ name: "getPet", arguments: { petId: 7 } })) as {
      structuredContent?: { name?: string };
      isError?: boolean;
    };
    assert.not.ok(result.isError, JSON.stringify(result));
    assert.is(result.structuredContent?.name, "Rex");
    await client.close();

    // A host that passes an empty optional setting through as its placeholder.
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: { PATH: process.env.PATH ?? "", API_BASE_URL: "${user_config.API_BASE_URL}" },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    const second = new Client({ name: "bundle-host", version: "1.0.0" });
    await second.connect(transport);
    assert.ok((await second.listTools()).tools.length > 0);
    await second.close();
    assert.match(stderr.join(""), "settings left empty in the bundle host: API_BASE_URL");
    assert.not.match(stderr.join(""), "Invalid URL");
  } finally {
    await upstream.close();
  }
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
