/**
 * uvu runs no empty suite: the files the test lanes hand it (scripts/test-lanes.js) are those of
 * test/unit/, test/e2e/ and test/golden/, and each of them runs a suite; the modules tests share
 * live in test/support/ (the corpus, fidelity, fuzz, large and scale tiers keep their runners in
 * their own folders, run by their npm scripts).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Whether a test file's text runs a uvu suite (`test.run()`, or a named suite's `.run()`). */
export function runsSuite(text: string): boolean {
  return /^\s*\w+\.run\(\);?\s*$/m.test(text);
}

test("the reader tells a suite from a helper", () => {
  assert.ok(runsSuite('import { test } from "uvu";\ntest("x", () => {});\ntest.run();\n'));
  assert.ok(runsSuite("const suite = suite('a');\nsuite.run()\n"));
  assert.not.ok(runsSuite("export function helper() {}\n// see test.run() in the suites\n"));
});

test("every file the test lanes run is a suite of test/unit, test/e2e or test/golden", () => {
  const listing = execFileSync(process.execPath, [join(root, "scripts", "test-lanes.js")], {
    env: { ...process.env, MCP_GEN_TEST_LANES_LIST: "1" },
    encoding: "utf8",
  });
  const files = listing
    .split("\n")
    .flatMap((line) =>
      line
        .replace(/^lane \d+ \(~\d+ s\):/, "")
        .trim()
        .split(" "),
    )
    .filter((name) => name.endsWith(".js"));
  assert.ok(files.length > 100 && files.includes("unit/test-layout.js"), `${files.length} files listed`);
  const wrong = files.filter(
    (file) =>
      !/^(unit|e2e|golden)\//.test(file) ||
      !runsSuite(readFileSync(join(root, "test", file.replace(/\.js$/, ".ts")), "utf8")),
  );
  assert.equal(wrong, []);
});

test("every source file of the suite folders runs a suite (helpers go to test/support/)", () => {
  const helpers = ["unit", "e2e", "golden"].flatMap((folder) =>
    readdirSync(join(root, "test", folder))
      .filter((name) => name.endsWith(".ts") && !runsSuite(readFileSync(join(root, "test", folder, name), "utf8")))
      .map((name) => `test/${folder}/${name}`),
  );
  assert.equal(helpers, []);
});

test.run();
