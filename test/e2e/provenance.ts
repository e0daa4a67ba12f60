/**
 * Provenance (generator/shared/provenance.ts): the manifest names the mcp-gen and runtime versions and the
 * spec's sha256; every vendored runtime file's first line names the runtime version; `--check`
 * says when a project's runtime is older than this mcp-gen's (or unrecorded) and exits 5.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { compareRuntime, runtimeHeader } from "../../generator/shared/provenance.js";
import { repoRoot } from "../support/e2e.js";
import { runtimeSourcePaths } from "../../generator/pipeline/emit/project-files.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-provenance-"));
const spec = join(repoRoot, "specs/petstore.yaml");
const version = (file: string) =>
  String((JSON.parse(readFileSync(join(repoRoot, file), "utf8")) as { version: string }).version);

async function mcpGen(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(repoRoot, "bin/mcp-gen.js"), ...args],
      { cwd: work, timeout: 180_000 },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, output: (e.stdout ?? "") + (e.stderr ?? "") };
  }
}

test("the manifest records mcp-gen's and the runtime's versions and the spec's sha256; runtime files name their version", async () => {
  const out = join(work, "fresh");
  await generate({ spec, outDir: out });
  const manifest = JSON.parse(readFileSync(join(out, ".mcp-gen/manifest.json"), "utf8")) as Record<string, unknown>;
  assert.is(manifest.mcpGenVersion, version("package.json"));
  assert.is(manifest.runtimeVersion, version("runtime/package.json"));
  assert.is(manifest.specSha256, createHash("sha256").update(readFileSync(spec)).digest("hex"));
  const runtimeDir = join(out, "src/runtime");
  const files = runtimeSourcePaths(runtimeDir);
  assert.ok(files.length > 20);
  assert.ok(
    files.some((file) => file.includes("/")),
    "the runtime's folders are vendored",
  );
  for (const file of files) {
    const text = readFileSync(join(runtimeDir, file), "utf8");
    assert.is(text.slice(0, text.indexOf("\n") + 1), runtimeHeader(version("runtime/package.json")), file);
    assert.is(
      text.slice(text.indexOf("\n") + 1),
      readFileSync(join(repoRoot, "runtime/src", file), "utf8"),
      `${file} is the runtime's file after the header`,
    );
  }
});

test("--check: a runtime older than this mcp-gen's, or unrecorded, makes the project stale and is named", async () => {
  const out = join(work, "runtime-check");
  await generate({ spec, outDir: out });
  const current = version("runtime/package.json");
  const upToDate = await mcpGen(spec, "-o", out, "--check");
  assert.is(upToDate.code, 0, upToDate.output);
  assert.not.match(upToDate.output, /older than/);

  const manifestPath = join(out, ".mcp-gen/manifest.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, runtimeVersion: "0.0.1-beta.1" }, null, 2) + "\n");
  const older = await mcpGen(spec, "-o", out, "--check");
  assert.is(older.code, 5, older.output);
  assert.match(
    older.output,
    new RegExp(`src/runtime is runtime 0\\.0\\.1-beta\\.1, older than this mcp-gen's ${current.replace(/\./g, "\\.")}`),
  );

  const { runtimeVersion: _recorded, ...unrecorded } = manifest;
  writeFileSync(manifestPath, JSON.stringify(unrecorded, null, 2) + "\n");
  const entry = join(out, "src/runtime/cli/main.ts");
  writeFileSync(entry, readFileSync(entry, "utf8").replace(/^[^\n]*\n/, ""));
  const unknown = await mcpGen(spec, "-o", out, "--check", "--json");
  assert.is(unknown.code, 5, unknown.output);
  const report = JSON.parse(unknown.output) as { check: { runtime: { project?: string; older: boolean } } };
  assert.equal(report.check.runtime, { current, older: true, newer: false });
});

test("runtime versions compare as semver, pre-releases before their release", () => {
  assert.equal(compareRuntime("0.1.0", "0.1.0"), { project: "0.1.0", current: "0.1.0", older: false, newer: false });
  assert.is(compareRuntime("0.1.0-rc.1", "0.1.0").older, true);
  assert.is(compareRuntime("0.10.0", "0.9.0").newer, true);
  assert.is(compareRuntime(undefined, "0.1.0").older, true);
  assert.is(compareRuntime("not a version", "0.1.0").older, true);
});

test.run();
