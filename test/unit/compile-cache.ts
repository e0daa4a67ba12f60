import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cacheable, compileKey, restoreCompile, storeCompile } from "../support/compile-cache.js";
import { repoRoot } from "../support/e2e.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-compile-cache-"));
const previous = process.env.MCP_GEN_TSC_CACHE;

/** A minimal project as generated ones are laid out: tsconfig emitting into dist/, sources in src/. */
function project(name: string, source: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { outDir: "dist", rootDir: "src" } }));
  writeFileSync(join(dir, "src", "index.ts"), source);
  return dir;
}

test.before(() => {
  process.env.MCP_GEN_TSC_CACHE = join(work, "cache");
});

test.after(() => {
  if (previous === undefined) delete process.env.MCP_GEN_TSC_CACHE;
  else process.env.MCP_GEN_TSC_CACHE = previous;
  rmSync(work, { recursive: true, force: true });
});

test("the key depends on every project file and the flags, not on dist/, node_modules or the folder's name", () => {
  const a = project("a", "export const x = 1;\n");
  const b = project("b", "export const x = 1;\n");
  const key = compileKey(repoRoot, a, []);
  assert.is(compileKey(repoRoot, b, []), key, "byte-identical projects in two folders share a key");
  assert.is.not(compileKey(repoRoot, a, ["--noEmit"]), key);
  mkdirSync(join(b, "dist"));
  writeFileSync(join(b, "dist", "index.js"), "stale");
  mkdirSync(join(b, "node_modules"));
  writeFileSync(join(b, "node_modules", "x.js"), "");
  assert.is(compileKey(repoRoot, b, []), key, "outputs and dependencies are not inputs");
  writeFileSync(join(b, "src", "index.ts"), "export const x = 2;\n");
  assert.is.not(compileKey(repoRoot, b, []), key, "a changed source is a new key");
  writeFileSync(join(b, "src", "index.ts"), "export const x = 1;\n");
  writeFileSync(join(b, "README.md"), "");
  assert.is.not(compileKey(repoRoot, b, []), key, "an added file is a new key");
});

test("a stored compile is restored into another folder; a miss restores nothing", () => {
  const a = project("c", "export const y = 1;\n");
  const b = project("d", "export const y = 1;\n");
  const key = compileKey(repoRoot, a, []);
  assert.not.ok(restoreCompile(repoRoot, key, b), "nothing stored yet");
  mkdirSync(join(a, "dist"));
  writeFileSync(join(a, "dist", "index.js"), "export const y = 1;\n");
  storeCompile(repoRoot, key, a, true);
  assert.ok(restoreCompile(repoRoot, key, b));
  assert.is(readFileSync(join(b, "dist", "index.js"), "utf8"), "export const y = 1;\n");
  // A --noEmit compile stores only that it succeeded.
  const check = compileKey(repoRoot, a, ["--noEmit"]);
  storeCompile(repoRoot, check, a, false);
  rmSync(join(b, "dist"), { recursive: true });
  assert.ok(restoreCompile(repoRoot, check, b));
  assert.throws(() => readFileSync(join(b, "dist", "index.js")), "no dist/ from a --noEmit entry");
});

test("only a plain-JSON tsconfig that emits into dist/ is cached", () => {
  const dir = project("e", "export {};\n");
  assert.ok(cacheable(dir));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { outDir: "build" } }));
  assert.not.ok(cacheable(dir));
  writeFileSync(join(dir, "tsconfig.json"), '{ // a comment\n "compilerOptions": { "outDir": "dist" } }');
  assert.not.ok(cacheable(dir));
});

test.run();
