/**
 * A content-addressed cache of `tsc` results for generated projects, shared by every test file of
 * one `npm test` run (scripts/test.js empties it when the run starts). Many e2e files compile the
 * same project (the golden petstore copied by bundle, check, interop, surfaces …; the examples the
 * CLI test and the generated npm test regenerate): tsc's output is a pure function of the project's
 * files and the TypeScript and type packages it compiles against, so the second compile of a
 * byte-identical project copies the first one's dist/ instead of running tsc again.
 *
 * The key hashes every file of the project (node_modules and dist/ left out) with the compile
 * flags and the repository's package-lock.json (which pins TypeScript and every @types package).
 * Only successful compiles are stored; a miss, a failure or an unreadable entry runs tsc as before.
 * Entries are written to a temporary folder and renamed into place, so two test processes that
 * compile the same project at once never read half an entry.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Where the entries live: `<repo>/.tmp/tsc-cache/<key>/` with the project's dist/ (or nothing, for --noEmit). */
export function cacheRoot(repoRoot: string): string {
  return process.env.MCP_GEN_TSC_CACHE ?? join(repoRoot, ".tmp", "tsc-cache");
}

/**
 * True when the project's tsconfig.json is plain JSON that emits into dist/ (as every generated
 * project's does): the only layout whose output the cache knows where to find.
 */
export function cacheable(dir: string): boolean {
  try {
    const config = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as {
      compilerOptions?: { outDir?: string };
    };
    return config.compilerOptions?.outDir === "dist";
  } catch {
    return false;
  }
}

/** Every file under `dir` except node_modules and dist/, as sorted relative paths. */
function projectFiles(dir: string, at = dir): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(at, { withFileTypes: true })) {
    const path = join(at, entry.name);
    if (entry.isDirectory()) {
      if (at === dir && (entry.name === "node_modules" || entry.name === "dist")) continue;
      files.push(...projectFiles(dir, path));
    } else if (entry.isFile()) files.push(relative(dir, path));
  }
  return files.sort();
}

/** The cache key of compiling `dir` with `flags`: a hash of its files, the flags and the lock file. */
export function compileKey(repoRoot: string, dir: string, flags: string[]): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(flags));
  hash.update(readFileSync(join(repoRoot, "package-lock.json")));
  for (const file of projectFiles(dir)) {
    // Length-prefixed, so no two different projects feed the hash the same bytes.
    const content = readFileSync(join(dir, file));
    hash.update(`${file}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest("hex");
}

/** Copies a stored result into `dir` (its dist/, when the compile emitted one); false on a miss. */
export function restoreCompile(repoRoot: string, key: string, dir: string): boolean {
  const entry = join(cacheRoot(repoRoot), key);
  if (!existsSync(join(entry, "complete"))) return false;
  if (existsSync(join(entry, "dist"))) {
    rmSync(join(dir, "dist"), { recursive: true, force: true });
    cpSync(join(entry, "dist"), join(dir, "dist"), { recursive: true });
  }
  return true;
}

/** Stores a successful compile of `dir` under `key` (its dist/ when `emitted`). */
export function storeCompile(repoRoot: string, key: string, dir: string, emitted: boolean): void {
  const root = cacheRoot(repoRoot);
  const entry = join(root, key);
  if (existsSync(entry)) return;
  mkdirSync(root, { recursive: true });
  const staging = join(root, `.${key}.${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  if (emitted) cpSync(join(dir, "dist"), join(staging, "dist"), { recursive: true });
  writeFileSync(join(staging, "complete"), `${key}\n`);
  try {
    renameSync(staging, entry);
  } catch {
    // Another test process stored the same key first: its entry is as good as ours.
    rmSync(staging, { recursive: true, force: true });
  }
}
