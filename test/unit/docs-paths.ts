/**
 * The repository paths the documentation quotes exist: every backticked path that starts at one of
 * the repository's top-level folders (`generator/pipeline/generate.ts`, `runtime/src/features/`,
 * `test/unit/docs-paths.ts:12`) names a file or folder of the checkout, in README.md,
 * ARCHITECTURE.md, CONTRIBUTING.md, docs/ (but the benchmark history, which records what was) and
 * the runtime's READMEs. A path with a placeholder (`<name>`, `*`, `…`) is a pattern, not a path;
 * `tools/list` and `tools/call` are MCP methods; a path of a generated project (`test/cases.json`,
 * `scripts/bundle-dist.mjs`) counts when a generated example (generated/<name>/) has it, and a
 * README may name its folder's modules relative to it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { markdownFiles } from "../support/markdown-files.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** The top-level folders of the checkout that the docs quote paths in (not build output or caches). */
const FOLDERS = [
  "bench",
  "bin",
  "cli",
  "docs",
  "examples",
  "generated",
  "generator",
  "profiles",
  "runtime",
  "schemas",
  "scripts",
  "specs",
  "templates",
  "test",
  "tools",
];

/** MCP method names that read like paths under tools/. */
const MCP_METHODS = /^tools\/(list|call)$/;

/** Records of how things were, where an old path is history rather than a claim. */
const HISTORY = ["CHANGELOG.md", "docs/benchmarks/history.md"];

/** The documents whose quoted paths must exist, relative to the root. */
function documents(): string[] {
  const files = [
    "README.md",
    "ARCHITECTURE.md",
    "CONTRIBUTING.md",
    "runtime/README.md",
    "runtime/src/README.md",
    ...markdownFiles(join(root, "docs")).map((file) => relative(root, file).split(sep).join("/")),
  ];
  return files.filter((file) => existsSync(join(root, file)) && !HISTORY.includes(file));
}

/** The repository paths quoted in backticks in a Markdown text: `folder/…`, without a `:line` suffix. */
export function quotedPaths(text: string, folders: readonly string[] = FOLDERS): string[] {
  const paths: string[] = [];
  for (const [, quoted] of text.matchAll(/`([^`\n]+)`/g)) {
    const path = quoted!.trim().replace(/:\d+(?::\d+)?$/, "");
    if (/[\s<>*{}…]|\.\.\./.test(path) || !path.includes("/")) continue;
    if (folders.includes(path.split("/")[0]!) && !MCP_METHODS.test(path)) paths.push(path);
  }
  return paths;
}

const examples = readdirSync(join(root, "generated")).map((name) => join(root, "generated", name));

/**
 * Whether `path` is a file or folder of the checkout, of the quoting document's own folder (a
 * README's modules, `cli/main.js` for `cli/main.ts`), or of a generated example project.
 */
function exists(path: string, document: string): boolean {
  const candidates = [path, join(dirname(document), path), join(dirname(document), path.replace(/\.js$/, ".ts"))];
  return (
    candidates.some((candidate) => existsSync(join(root, candidate))) ||
    examples.some((example) => existsSync(join(example, path)))
  );
}

test("the reader finds quoted repository paths and leaves patterns, commands and other paths alone", () => {
  const text =
    "See `generator/index.ts`, `cli/index.ts:12`, `runtime/src/features/` and `test/unit/x.ts:3:7`; " +
    "not `runtime/src/features/<name>/`, `test/unit/*.ts`, `npm run build`, `src/runtime/`, `tools/list`.";
  assert.equal(quotedPaths(text), ["generator/index.ts", "cli/index.ts", "runtime/src/features/", "test/unit/x.ts"]);
});

test("every repository path the docs quote exists", () => {
  const missing: string[] = [];
  let checked = 0;
  for (const file of documents()) {
    for (const path of quotedPaths(readFileSync(join(root, file), "utf8"))) {
      checked++;
      if (!exists(path, file)) missing.push(`${file}: ${path}`);
    }
  }
  assert.ok(checked > 100, `only ${checked} quoted paths read`);
  assert.equal(missing, []);
});

test.run();
