/**
 * Publishing end to end: the generated project is built and packed with `npm pack`, the tarball is
 * installed into an empty folder (its dependencies come from the npm registry), started with `npx`
 * and driven by the official SDK client: it lists and calls tools against a local upstream.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs npm pack and an npm install of the packed server, its dependencies from the npm registry.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { startUpstream } from "../support/runtime-fixture.js";
import { compileProject } from "../support/e2e.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "mcp-gen-pack-"));
const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

test("npm pack → install the tarball in an empty folder → npx starts it → the SDK client lists and calls tools", async () => {
  const project = join(work, "project");
  await generate({ spec: join(root, "specs/petstore.yaml"), outDir: project, packageName: "@mcp-gen-test/pets-mcp" });
  // Build with the repository's TypeScript (what `npm install && npm run build` would do), then pack.
  await compileProject(project);
  const packed = await run(npm, ["pack", "--json", "--pack-destination", work], { cwd: project, timeout: 120_000 });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const packedFiles = info!.files.map((f) => f.path).sort();
  assert.ok(packedFiles.includes("dist/index.js"), packedFiles.join(", "));
  assert.ok(packedFiles.includes("server.json"));
  assert.not.ok(
    packedFiles.some((p) => p.startsWith("src/") || p.startsWith(".mcp-gen/") || p === "Dockerfile"),
    "only what runs is packed",
  );

  const consumer = join(work, "consumer");
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true }));
  await run(npm, ["install", "--no-audit", "--no-fund", "--no-save", join(work, info!.filename)], {
    cwd: consumer,
    timeout: 240_000,
  });
  assert.ok(readdirSync(join(consumer, "node_modules/.bin")).includes("pets-mcp"));

  const upstream = await startUpstream(() => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: '[{"id":1,"name":"Rex","status":"available"}]',
  }));
  const client = new Client({ name: "pack-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: npx,
      args: ["--no-install", "pets-mcp", "--base-url", upstream.baseUrl],
      cwd: consumer,
      stderr: "ignore",
    }),
  );
  try {
    const listed = await client.listTools();
    assert.equal(
      listed.tools.map((t) => t.name),
      ["listPets", "createPet", "getPet", "updatePet", "deletePet", "getInventory"],
    );
    const result = await client.callTool({ name: "listPets", arguments: { limit: 2 } });
    assert.not.ok(result.isError, JSON.stringify(result));
    assert.match(upstream.received[0]!.url, /\/pets\?limit=2$/);
  } finally {
    await client.close();
    await upstream.close();
  }
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
