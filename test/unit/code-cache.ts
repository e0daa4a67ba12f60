import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { codeCacheDir, loadWithCodeCache } from "../../generator/shared/code-cache.js";
import { tsMorphFiles } from "../../generator/pipeline/emit/typescript/ts-morph.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-code-cache-"));
const require = createRequire(import.meta.url);
let counter = 0;

/** A package `pkg` under a fresh node_modules: index.js requires its sibling and reports its module variables. */
function fixture(index = ""): { index: string; cacheDir: string } {
  const root = join(work, `p${counter++}`, "node_modules", "pkg");
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "helper.js"), "exports.twice = (n) => n * 2;\n");
  writeFileSync(
    join(root, "index.js"),
    index ||
      [
        'const { twice } = require("./helper.js");',
        "module.exports = { answer: twice(21), file: __filename, dir: __dirname, self: module.id, big: () => 'x'.repeat(3) };",
        "",
      ].join("\n"),
  );
  return { index: join(root, "index.js"), cacheDir: codeCacheDir(join(root, "index.js"))! };
}

/** Loads `file` as a fresh module (out of require.cache first) in this thread: how, and its exports. */
function load(file: string, cacheDir: string | undefined): { cache: string; exports: Record<string, unknown> } {
  delete require.cache[file];
  const [result] = loadWithCodeCache([file], cacheDir);
  return { cache: result!.cache, exports: require(file) as Record<string, unknown> };
}

/**
 * Loads `file` in a new process: how, and its `answer`. (In one process V8 keeps compiled scripts
 * in memory and would not read the cache again.)
 */
function loadInChild(
  file: string,
  cacheDir: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): { cache: string; answer: unknown } {
  const script = [
    `import { createRequire } from "node:module";`,
    `import { loadWithCodeCache } from ${JSON.stringify(new URL("../../generator/shared/code-cache.js", import.meta.url).href)};`,
    `const [{ cache }] = loadWithCodeCache([${JSON.stringify(file)}], ${JSON.stringify(cacheDir)});`,
    `console.log(JSON.stringify({ cache, answer: createRequire(import.meta.url)(${JSON.stringify(file)}).answer }));`,
  ].join("\n");
  const child = spawnSync(process.execPath, [...nodeArgs, "--input-type=module", "-e", script], {
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  assert.is(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as { cache: string; answer: unknown };
}

const cacheFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);

test.after(() => rmSync(work, { recursive: true, force: true }));

test("the cache folder is node_modules/.cache/mcp-gen/code-cache of the file's node_modules", () => {
  assert.is(
    codeCacheDir("/a/node_modules/b/node_modules/c/dist/x.js"),
    "/a/node_modules/b/node_modules/.cache/mcp-gen/code-cache",
  );
  assert.is(codeCacheDir("/a/src/x.js"), undefined);
});

test("a file loads as Node loads it: require beside it, __filename, __dirname, module.exports, require.cache", () => {
  const { index, cacheDir } = fixture();
  const { cache, exports } = load(index, cacheDir);
  assert.is(cache, "written");
  assert.is(exports.answer, 42);
  assert.is(exports.file, index);
  assert.is(exports.dir, join(index, ".."));
  assert.is(exports.self, index);
  assert.is((exports.big as () => string)(), "xxx");
  assert.is(require(index), exports, "a later require gets the same module");
  assert.is(cacheFiles(cacheDir).length, 1);
});

test("the next process uses the cache V8 accepts, and the module works the same", () => {
  const { index, cacheDir } = fixture();
  assert.equal(loadInChild(index, cacheDir), { cache: "written", answer: 42 });
  assert.equal(loadInChild(index, cacheDir), { cache: "used", answer: 42 });
  assert.equal(loadInChild(index, cacheDir), { cache: "used", answer: 42 });
  assert.is(cacheFiles(cacheDir).length, 1);
});

test("a changed file gets a new cache entry and its old one is removed", () => {
  const { index, cacheDir } = fixture();
  loadInChild(index, cacheDir);
  const [before] = cacheFiles(cacheDir);
  writeFileSync(index, "module.exports = { answer: 7 };\n");
  assert.equal(loadInChild(index, cacheDir), { cache: "written", answer: 7 });
  const after = cacheFiles(cacheDir);
  assert.is(after.length, 1);
  assert.is.not(after[0], before);
  // The same size, another mtime: a new entry too (V8 itself only compares the source's length).
  writeFileSync(index, "module.exports = { answer: 8 };\n");
  utimesSync(index, new Date(2001, 1, 1), new Date(2001, 1, 1));
  assert.equal(loadInChild(index, cacheDir), { cache: "written", answer: 8 });
  assert.equal(loadInChild(index, cacheDir), { cache: "used", answer: 8 });
});

test("each set of V8 flags keeps its own entry (V8 refuses a cache made under other flags)", () => {
  const { index, cacheDir } = fixture();
  const flag = ["--interrupt-budget=540672"];
  assert.equal(loadInChild(index, cacheDir), { cache: "written", answer: 42 });
  assert.equal(loadInChild(index, cacheDir, {}, flag), { cache: "written", answer: 42 });
  assert.is(cacheFiles(cacheDir).length, 2);
  assert.equal(loadInChild(index, cacheDir), { cache: "used", answer: 42 });
  assert.equal(loadInChild(index, cacheDir, {}, flag), { cache: "used", answer: 42 });
});

test("a corrupt cache entry is refused by V8 and replaced", () => {
  const { index, cacheDir } = fixture();
  loadInChild(index, cacheDir);
  const [entry] = cacheFiles(cacheDir);
  writeFileSync(join(cacheDir, entry!), Buffer.from("not a code cache"));
  assert.equal(loadInChild(index, cacheDir), { cache: "written", answer: 42 });
  assert.equal(loadInChild(index, cacheDir), { cache: "used", answer: 42 });
});

test("MCP_GEN_CODE_CACHE=0, no cache folder, or one that cannot be written: the file loads without a cache", () => {
  const { index, cacheDir } = fixture();
  assert.equal(loadInChild(index, cacheDir, { MCP_GEN_CODE_CACHE: "0" }), { cache: "off", answer: 42 });
  assert.equal(cacheFiles(cacheDir), []);
  assert.is(load(index, undefined).cache, "off");
  assert.is(load(index, undefined).exports.answer, 42);
  if (process.getuid?.() !== 0) {
    // Root writes through file modes, so this part needs another user.
    mkdirSync(join(cacheDir, ".."), { recursive: true });
    chmodSync(join(cacheDir, ".."), 0o500);
    try {
      assert.is(load(index, cacheDir).cache, "off");
    } finally {
      chmodSync(join(cacheDir, ".."), 0o700);
    }
  }
  const blocked = fixture();
  // A file where the folder should be: nothing can be written under it.
  mkdirSync(join(blocked.cacheDir, ".."), { recursive: true });
  writeFileSync(blocked.cacheDir, "");
  const { cache, exports } = load(blocked.index, blocked.cacheDir);
  assert.is(cache, "off");
  assert.is(exports.answer, 42);
  assert.equal(
    readdirSync(join(blocked.cacheDir, "..")).filter((name) => name.endsWith(".tmp")),
    [],
    "no temporary file is left",
  );
});

test("a file that throws while loading is not left in require.cache", () => {
  const { index, cacheDir } = fixture('throw new Error("broken on load");\n');
  delete require.cache[index];
  assert.throws(() => loadWithCodeCache([index], cacheDir), /broken on load/);
  assert.is(require.cache[index], undefined);
});

test("a file already in require.cache is left as it is", () => {
  const { index, cacheDir } = fixture();
  const first = load(index, cacheDir).exports;
  assert.equal(loadWithCodeCache([index], cacheDir), [{ file: index, cache: "off" }]);
  assert.is(require(index), first);
});

test("ts-morph's files are found, dependencies first, and each is the file ts-morph's own require loads", () => {
  const files = tsMorphFiles(require);
  assert.is(files.length, 3);
  assert.match(files[0]!, /@ts-morph[/\\]common[/\\]dist[/\\]typescript\.js$/);
  assert.is(files[1], createRequire(files[2]!).resolve("@ts-morph/common"));
  assert.is(files[2], require.resolve("ts-morph"));
  assert.equal(
    tsMorphFiles({
      resolve: () => {
        throw new Error("not found");
      },
    } as unknown as NodeJS.Require),
    [],
  );
});

test.run();
