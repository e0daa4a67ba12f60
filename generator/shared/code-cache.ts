/**
 * Loading big CommonJS files with a V8 code cache, for ts-morph: its three main files are 13 MB of
 * JavaScript (9 MB of them the TypeScript compiler), and V8 must pre-parse all of it before the
 * first line runs. That is most of ts-morph's load time (~0.25 of ~0.35 CPU-s); with V8's code
 * cache for the code the load ran, the files load in about a third of the time.
 *
 * Node 22 has this built in (`module.enableCompileCache`); Node 20, which mcp-gen still supports,
 * has only V8's per-script API (`vm.Script` with `cachedData`), used here. A file loaded here is
 * compiled as Node compiles a CommonJS module (the same wrapper and `require`), runs, and goes in
 * `require.cache` under its path, so a later `require` of it gets this module.
 *
 * The cache lives in `node_modules/.cache/mcp-gen/code-cache/` beside the files it caches: who can
 * write there can change the code anyway (a cache in the shared temporary folder could be planted
 * by another user). A cache file is named by the file's path, size and mtime and by V8's
 * `cachedDataVersionTag()` (its version, flags and CPU features: a cache made under other flags is
 * refused, so each set keeps its own file). Everything about the cache is best effort: a cache
 * that cannot be read, is refused by V8 or cannot be written only costs the compile it would
 * have saved. `MCP_GEN_CODE_CACHE=0` turns it off.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, sep } from "node:path";
import { cachedDataVersionTag } from "node:v8";
import { Script, constants as vmConstants } from "node:vm";

/** How Node wraps a CommonJS module's source (the same line numbers; columns on line 1 shift). */
const WRAPPER = ["(function (exports, require, module, __filename, __dirname) { ", "\n});"] as const;

/** What a loaded file reports, for tests and measurements. */
export interface CodeCacheLoad {
  file: string;
  /** "used": V8 took the cache; "written": none was usable, one was made; "off": no cache (disabled, unwritable, already loaded). */
  cache: "used" | "written" | "off";
}

/**
 * Loads `files` in order (each one's own `require`s of a later file would load it uncached: list a
 * package's dependencies first), with a code cache in `cacheDir` (see the module comment). A file
 * already in `require.cache` is left as it is.
 */
export function loadWithCodeCache(files: readonly string[], cacheDir: string | undefined): CodeCacheLoad[] {
  const enabled = cacheDir !== undefined && process.env.MCP_GEN_CODE_CACHE !== "0";
  return files.map((file) => loadFile(file, enabled ? cacheDir : undefined));
}

/** `node_modules/.cache/mcp-gen/code-cache` of the `node_modules` folder that holds `file`; undefined outside one. */
export function codeCacheDir(file: string): string | undefined {
  const marker = `${sep}node_modules${sep}`;
  const at = file.lastIndexOf(marker);
  return at < 0 ? undefined : join(file.slice(0, at + marker.length), ".cache", "mcp-gen", "code-cache");
}

function loadFile(file: string, cacheDir: string | undefined): CodeCacheLoad {
  const require = createRequire(file);
  if (require.cache[file]) return { file, cache: "off" };
  const source = readFileSync(file, "utf8");
  const entry = cacheDir === undefined || source.startsWith("#!") ? undefined : cacheEntry(cacheDir, file);
  const cachedData = entry === undefined ? undefined : readCache(entry.path);
  const script = new Script(WRAPPER[0] + source + WRAPPER[1], {
    filename: file,
    cachedData,
    // What Node gives a module's `import()`, as a `require`d file would have it.
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  } as ConstructorParameters<typeof Script>[1]);
  const module = { id: file, path: dirname(file), filename: file, exports: {}, loaded: false, children: [] };
  // In the cache before it runs, as Node does, so that a circular `require` gets the partial exports.
  require.cache[file] = module as unknown as NodeJS.Module;
  try {
    (script.runInThisContext() as (...args: unknown[]) => void).call(
      module.exports,
      module.exports,
      require,
      module,
      file,
      dirname(file),
    );
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  module.loaded = true;
  if (entry === undefined) return { file, cache: "off" };
  if (cachedData !== undefined && !script.cachedDataRejected) return { file, cache: "used" };
  // Made after the file ran: it then holds the functions the load compiled, not only the top level.
  return { file, cache: writeCache(entry, script.createCachedData()) ? "written" : "off" };
}

interface CacheEntry {
  path: string;
  /** The beginning of the names of this file's entries under the same V8 tag (older sizes/mtimes). */
  stalePrefix: string;
}

function cacheEntry(cacheDir: string, file: string): CacheEntry | undefined {
  try {
    const { size, mtimeMs } = statSync(file);
    const id = createHash("sha256").update(file).digest("hex").slice(0, 16);
    const stalePrefix = `${basename(file)}-${id}-${cachedDataVersionTag()}-`;
    return { path: join(cacheDir, `${stalePrefix}${size}-${Math.trunc(mtimeMs)}.bin`), stalePrefix };
  } catch {
    return undefined;
  }
}

function readCache(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Writes the entry (whole or not at all: a temporary file renamed) and removes its stale versions. */
function writeCache(entry: CacheEntry, data: Buffer): boolean {
  const dir = dirname(entry.path);
  const temporary = `${entry.path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, data);
    renameSync(temporary, entry.path);
    for (const name of readdirSync(dir))
      if (name.startsWith(entry.stalePrefix) && name.endsWith(".bin") && join(dir, name) !== entry.path)
        rmSync(join(dir, name), { force: true });
    return true;
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing more to do: the folder is not writable.
    }
    return false;
  }
}
