import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { prettierJson } from "../../generator/pipeline/emit/json-format.js";
import { repoRoot } from "../support/e2e.js";

/** What prettier makes of `content` with the generated files' options (format.ts). */
async function prettierFormat(content: string): Promise<string> {
  const prettier = await import("prettier");
  return prettier.format(content, { printWidth: 100, trailingComma: "all", endOfLine: "lf", parser: "json" });
}

const stringified = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The JSON files of the goldens outside the vendored runtime and the bulk data (written as printed). */
function goldenJson(): Array<{ path: string; value: unknown }> {
  const root = join(repoRoot, "generated");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".json") && !/(^|\/)(data|runtime|node_modules)\//.test(path))
    .map((path) => ({ path, value: JSON.parse(readFileSync(join(root, path), "utf8")) as unknown }));
}

test("prettierJson prints the goldens' JSON files as prettier does, or leaves them to it", async () => {
  const files = goldenJson();
  let printed = 0;
  for (const file of files) {
    const content = stringified(file.value);
    const ours = prettierJson(content);
    if (ours === undefined) continue;
    printed += 1;
    assert.fixture(ours, await prettierFormat(content), file.path);
  }
  assert.ok(printed >= 20 && printed >= files.length * 0.8, `${printed} of ${files.length} printed here`);
});

test("prettierJson: array layouts by width, objects always expanded", async () => {
  const long = "x".repeat(40);
  const values: unknown[] = [
    { files: ["dist", "data", "README.md"], empty: [], none: {} },
    { a: { b: [long, long] } }, // 6 + 5 + 84 + 1 > 100: one per line
    { a: [long, "y".repeat(35)], b: 1 }, // one column from fitting, with the comma
    { a: [long, "y".repeat(36)] }, // the last value: no comma, exactly the width
    { a: [long, "y".repeat(37)] },
    { list: [{ name: "x", value: true }, { name: "y" }], flags: [true, false, null] },
    ["a", "b"],
    [{ a: 1 }],
    "text",
    { 'key with "quotes" and \\': { text: "é\u2028" }, list: ["a\\b"] },
  ];
  for (const value of values) {
    const content = stringified(value);
    const ours = prettierJson(content);
    assert.ok(ours !== undefined, JSON.stringify(value));
    assert.fixture(ours!, await prettierFormat(content), JSON.stringify(value));
  }
});

test("prettierJson leaves to prettier what it does not lay out, and text not printed by JSON.stringify", async () => {
  for (const value of [
    { ports: [1, 2, 3] },
    { matrix: [["a"], ["b"]] },
    { list: [{}] },
    { clé: ["a", "b"] },
    { a: ["日本"] },
  ])
    assert.is(prettierJson(stringified(value)), undefined, JSON.stringify(value));
  assert.is(prettierJson('{"a": 1}\n'), undefined, "not JSON.stringify's layout");
  assert.is(prettierJson("{ not json"), undefined);
});

test.run();
