/**
 * The size budget of the runtime's core: every server vendors it (runtime/src without features/),
 * so its lines of code are held to a budget here rather than quoted in prose. Lines of code: lines
 * that hold a token, comments and blank lines not counted (the TypeScript compiler's tokens).
 * Raising the budget is a decision: say why in the commit.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { codeLines } from "../support/code-lines.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const src = join(root, "runtime", "src");

/** Lines of code the core may have. */
export const CORE_BUDGET_LINES = 5_923;

/** The core's source files: runtime/src without features/. */
function coreFiles(): string[] {
  return readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !path.slice(src.length + 1).startsWith("features"));
}

test(`the runtime's core is within its budget of ${CORE_BUDGET_LINES} lines of code`, () => {
  const files = coreFiles();
  assert.ok(files.length > 40, `only ${files.length} core files found`);
  const total = files.reduce((sum, path) => sum + codeLines(readFileSync(path, "utf8")), 0);
  assert.ok(total <= CORE_BUDGET_LINES, `the core has ${total} lines of code, over its budget of ${CORE_BUDGET_LINES}`);
  console.log(`runtime core: ${files.length} files, ${total} lines of code (budget ${CORE_BUDGET_LINES})`);
});

test("lines of code count tokens, not comments or blank lines (a template literal counts every line)", () => {
  const text = [
    "/** A comment",
    " * of three lines. */",
    "",
    "const a = 1; // trailing",
    "// only a comment",
    "const b = `one",
    "two`;",
    "function f() {",
    "  return a + b;",
    "}",
  ].join("\n");
  assert.is(codeLines(text), 6);
  assert.is(codeLines(""), 0);
});

test.run();
