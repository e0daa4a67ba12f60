/**
 * The bundled CLI (dist/cli/mcp-gen.cjs, scripts/bundle-cli.js), which `mcp-gen` runs outside
 * coverage runs: it must generate exactly what the unbundled modules generate, its worker threads
 * and precompiled validators included (they load by path from dist/, generator/shared/package-root.ts).
 * The suite runs under c8, where bin/mcp-gen.js picks the unbundled modules, so the bundle is run
 * here on purpose, without NODE_V8_COVERAGE.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { distUrl } from "../../generator/shared/package-root.js";
import { PRECOMPILED } from "../../generator/pipeline/load/openapi-schema.js";
import { repoRoot } from "../support/e2e.js";

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-bundle-"));
const bin = join(repoRoot, "bin/mcp-gen.js");

/** Every file under `dir` with its text, by relative path. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[relative(dir, path)] = readFileSync(path, "utf8");
    }
  };
  walk(dir);
  return out;
}

/** Runs `mcp-gen` bundled (no coverage variable) or unbundled (NODE_V8_COVERAGE kept or set). */
async function mcpGen(bundled: boolean, args: string[]): Promise<{ code: number; output: string }> {
  const env = { ...process.env };
  if (bundled) delete env.NODE_V8_COVERAGE;
  else env.NODE_V8_COVERAGE ??= join(work, "coverage");
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env, timeout: 120_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, output: (e.stdout ?? "") + (e.stderr ?? "") };
  }
}

test("npm run build wrote the bundle; the modules it loads by path are where distUrl says", () => {
  assert.ok(existsSync(join(repoRoot, "dist/cli/mcp-gen.cjs")), "dist/cli/mcp-gen.cjs");
  for (const relative of ["generator/pipeline/emit/worker/emit-worker-thread.js", ...Object.values(PRECOMPILED)])
    assert.ok(existsSync(fileURLToPath(distUrl(relative))), relative);
});

test("the bundle generates byte for byte what the modules generate (YAML 3.0, Swagger 2.0, JSON 3.1)", async () => {
  for (const spec of [
    "specs/petstore.yaml",
    "specs/fixtures/swagger2-petstore.yaml",
    "specs/fixtures/oas31-library.json",
  ]) {
    const name = spec.split("/").pop()!;
    const bundled = await mcpGen(true, [join(repoRoot, spec), "-o", join(work, `bundled-${name}`), "--quiet"]);
    assert.is(bundled.code, 0, bundled.output);
    const modules = await mcpGen(false, [join(repoRoot, spec), "-o", join(work, `modules-${name}`), "--quiet"]);
    assert.is(modules.code, 0, modules.output);
    const a = tree(join(work, `bundled-${name}`));
    const b = tree(join(work, `modules-${name}`));
    assert.ok(Object.keys(a).length > 50, name);
    assert.equal(Object.keys(a).sort(), Object.keys(b).sort(), name);
    for (const path of Object.keys(a)) assert.ok(a[path] === b[path], `${name}: ${path} differs`);
  }
});

test("the bundle reports errors as the modules do (a spec that is not YAML: exit 1, line and column)", async () => {
  const spec = join(repoRoot, "specs/fixtures/invalid-yaml.yaml");
  const bundled = await mcpGen(true, [spec, "-o", join(work, "bad-bundled")]);
  const modules = await mcpGen(false, [spec, "-o", join(work, "bad-modules")]);
  assert.is(bundled.code, 1, bundled.output);
  assert.is(modules.code, 1, modules.output);
  assert.is(bundled.output, modules.output);
  // The position as file:line:column (MG002 names the parser's first error only).
  assert.match(bundled.output, /invalid-yaml\.yaml:\d+:\d+/);
});

test.run();
