/**
 * The generate command's options table (cli/commands/generate.ts): each row's value reaches
 * `generate` where the row says, a row whose option the project remembers (generator
 * `REMEMBERED_OPTIONS`) says so in its help and in docs/reference/cli.md, and a remembered option
 * is taken from the previous generation's manifest only when the run does not give it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { GENERATE_FLAGS, generateOptions, remembered } from "../../cli/commands/generate.js";
import { REMEMBERED_OPTIONS, withRemembered } from "../../generator/pipeline/generate-options.js";
import type { Manifest } from "../../generator/shared/state-files.js";
import { generate } from "../../generator/pipeline/generate.js";
import { main } from "../../runtime/src/cli/main.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const flags = GENERATE_FLAGS;

test("the parsed flags become generate's options, filters gathered into one filter, unset values left out", () => {
  const args = {
    spec: "api.yaml",
    out: "server",
    "allow-remote": false,
    "output-schema": false,
    with: ["search,code", "none"],
    "include-tags": ["a,b", "c"],
    "read-only": true,
    json: true,
    name: undefined,
  };
  const options = generateOptions(args, flags);
  assert.equal(options.spec, "api.yaml");
  assert.equal(options.outDir, "server");
  assert.equal(options.outputSchemas, false);
  assert.equal(options.features, ["search", "code"]);
  assert.equal(options.filter, {
    includeTags: ["a", "b", "c"],
    excludeTags: [],
    includeOperations: [],
    excludeOperations: [],
    readOnly: true,
  });
  assert.not.ok("packageName" in options, "an absent --name leaves the previous generation's");
  assert.not.ok("features" in generateOptions({ spec: "x" }, flags), "an absent --with leaves the previous one's");
  assert.not.ok("json" in options, "--json is the CLI's own");
});

test("every remembered option has a flag, and its help and reference row say it is remembered", () => {
  const doc = readFileSync(join(root, "docs", "reference", "cli.md"), "utf8");
  const rememberedRows = flags.filter(remembered);
  assert.equal(rememberedRows.map((row) => row.into).sort(), Object.keys(REMEMBERED_OPTIONS).sort());
  for (const row of rememberedRows) {
    const line = doc.split("\n").find((text) => text.startsWith(`| \`--${row.flag}`));
    assert.ok(line, `--${row.flag} has a row in docs/reference/cli.md`);
    assert.match(line!, /Remembered/, `the row of --${row.flag} says it is remembered`);
  }
  assert.not.ok(remembered(flags.find((row) => row.flag === "force")!));
});

test("a remembered option comes from the previous manifest only when the run does not give it", () => {
  const manifest = { packageName: "old-mcp", surface: "search", features: ["code"] } as Manifest;
  const filled = withRemembered({ spec: "x", packageName: "new-mcp" }, manifest);
  assert.equal(filled.packageName, "new-mcp");
  assert.equal(filled.defaultSurface, "search");
  assert.equal(filled.features, ["code"]);
  assert.not.ok("repository" in filled);
  assert.equal(withRemembered({ spec: "x" }, undefined), { spec: "x" });
});

test("--overlay: repeatable paths in order (commas kept), none for none; remembered overlays resolve against the folder", () => {
  assert.equal(generateOptions({ spec: "x", overlay: ["a,b.yaml", "c.yaml"] }, flags).overlays, ["a,b.yaml", "c.yaml"]);
  assert.equal(generateOptions({ spec: "x", overlay: ["none"] }, flags).overlays, []);
  assert.not.ok("overlays" in generateOptions({ spec: "x" }, flags), "an absent --overlay keeps the previous ones");
  const manifest = {
    overlays: [
      { path: "../shape.yaml", sha256: "0" },
      { path: "https://example.com/o.yaml", sha256: "1" },
    ],
  } as Manifest;
  assert.equal(withRemembered({ spec: "x" }, manifest, join("/work", "server")).overlays, [
    join("/work", "shape.yaml"),
    "https://example.com/o.yaml",
  ]);
  assert.equal(withRemembered({ spec: "x", overlays: [] }, manifest, "/work/server").overlays, []);
  const row = flags.find((candidate) => candidate.flag === "overlay")!;
  assert.match(String(row.option.describe), "remembered for later runs");
});

test("--result-budget: a whole number of tokens in range, remembered, and the generated server's default", async () => {
  assert.is(generateOptions({ spec: "x", "result-budget": 2000 }, flags).resultBudget, 2000);
  const row = flags.find((candidate) => candidate.flag === "result-budget")!;
  for (const wrong of [499, 1.5, 10_000_001]) assert.throws(() => row.option.coerce!(wrong), /--result-budget/);
  const manifest = { packageName: "p", resultBudget: 3000 } as Manifest;
  assert.is(withRemembered({ spec: "x" }, manifest).resultBudget, 3000);
  assert.is(withRemembered({ spec: "x", resultBudget: 4000 }, manifest).resultBudget, 4000);

  const { plan, files } = await generate({
    spec: join(root, "specs", "fixtures", "result-sizing.yaml"),
    resultBudget: 2500,
  });
  assert.is(plan.resultBudget, 2500);
  const index = files.find((file) => file.path === "src/server-info.ts")!;
  assert.match(index.content, /"?resultBudget"?: 2500/, "the server info carries it");
  // The server takes it as its default, and its help says so.
  const helped: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((text: string) => helped.push(text) > 0) as unknown as typeof process.stdout.write;
  try {
    await main({ name: "s", version: "1", resultBudget: 2500 }, [], ["--help"], {});
  } finally {
    process.stdout.write = write;
  }
  assert.match(helped.join(""), /MCP_RESULT_BUDGET, default 2500/);
});

test.run();
