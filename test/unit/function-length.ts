/**
 * No function in cli/, generator/ or runtime/src/ is longer than 100 lines (ARCHITECTURE.md):
 * declarations, methods, constructors, accessors, arrow functions and function expressions, each
 * counted from its first line to its last, nested functions included in their parent. A function
 * still over the limit is listed in EXCEPTIONS with its reason (mirrored in ARCHITECTURE.md).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** The longest a function may be, in lines. */
export const MAX_FUNCTION_LINES = 100;

/**
 * Functions still over the limit, as `path:name`, each with why. The engineer who shortens one
 * removes its entry (the test fails on an entry that no longer applies).
 */
const EXCEPTIONS: Readonly<Record<string, string>> = {};

/** A function over the limit: where it is, its name and its length. */
export interface LongFunction {
  key: string;
  lines: number;
}

/** The name a function is known by: its own, its variable's or property's, else `(anonymous)`. */
function nameOf(node: ts.Node, file: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  )
    return parent.name.getText(file);
  // An anonymous function is named by the function it is written in.
  for (let outer = node.parent; outer; outer = outer.parent)
    if (ts.isFunctionLike(outer)) return `${nameOf(outer, file)}/(anonymous)`;
  return "(anonymous)";
}

/** The functions of one source text longer than `max` lines (`path` names them). */
export function longFunctions(path: string, text: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ key: `${path}:${nameOf(node, file)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The TypeScript sources under `dir` (relative to the repository, with `/`). */
function sourcesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length).split("\\").join("/"));
}

const all = ["cli", "generator", join("runtime", "src")]
  .flatMap(sourcesUnder)
  .flatMap((path) => longFunctions(path, readFileSync(join(root, path), "utf8")));

test("no function in cli/, generator/ or runtime/src/ is over 100 lines but the listed exceptions", () => {
  const over = all.filter(({ key }) => !(key in EXCEPTIONS)).map(({ key, lines }) => `${key} (${lines} lines)`);
  assert.equal(over, []);
});

test("every exception still applies and has a reason; none is in runtime/src", () => {
  const keys = new Set(all.map(({ key }) => key));
  for (const [key, reason] of Object.entries(EXCEPTIONS)) {
    assert.ok(keys.has(key), `${key} is no longer over the limit: remove its exception`);
    assert.ok(reason.trim().length > 20, `${key} has a reason`);
    assert.not.ok(key.startsWith("runtime/src/"), `${key}: runtime functions have no exception`);
  }
});

test("the rule fails on a planted function of 101 lines, of every kind, and passes one of 100", () => {
  const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const planted = [
    `function declared() {\n${body(101)}\n}`,
    `class C {\n  method() {\n${body(101)}\n  }\n}`,
    `const arrow = () => {\n${body(101)}\n};`,
    `const expression = function () {\n${body(101)}\n};`,
    `function fits() {\n${body(100)}\n}`,
  ].join("\n");
  assert.equal(
    longFunctions("planted.ts", planted).map(({ key, lines }) => `${key} ${lines}`),
    ["planted.ts:declared 101", "planted.ts:method 101", "planted.ts:arrow 101", "planted.ts:expression 101"],
  );
});

test.run();
