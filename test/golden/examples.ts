import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/generate.js";
import { compareOutput } from "../../generator/write/compare-output.js";
import { casesModuleText, type CasesFile } from "./cases-module.js";
import { exampleFiles, type Example } from "./example-custom.js";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";

/** Repository root (this file runs from dist/test/golden). */
const root = fileURLToPath(new URL("../../../", import.meta.url));

/** The examples list shared with scripts/generate-examples.js. */
const EXAMPLES = JSON.parse(readFileSync(join(root, "specs/examples.json"), "utf8")) as Example[];

for (const example of EXAMPLES) {
  test(`generated/${example.name} equals a fresh generation`, async () => {
    const result = await generate({ spec: join(root, example.spec) });
    const comparison = await compareOutput(
      join(root, "generated", example.name),
      exampleFiles(root, example, result.files),
    );
    const report = [
      ...comparison.missing.map((p) => `missing ${p}`),
      ...comparison.extra.map((p) => `not generated any more: ${p}`),
      ...comparison.changed.map((c) => `changed ${c.path}\n${c.diff}`),
    ].join("\n");
    assert.is(report, "", `generated/${example.name} is stale; run "npm run generate:examples"\n${report}`);
  });
}

/** Writes the module typing the example's test/cases.json with its ToolInputs (cases-module.ts) into `dir`. */
function casesModule(dir: string, example: string): string {
  const cases = JSON.parse(readFileSync(join(root, "generated", example, "test/cases.json"), "utf8")) as CasesFile;
  const { text, valid } = casesModuleText(cases, join(root, "generated", example, "src/tools/index.js"), {
    refused: true,
  });
  assert.ok(valid > 0, `${example} has cases`);
  const path = join(dir, `${example}-cases.ts`);
  writeFileSync(path, text);
  return path;
}

test("every example in generated/ compiles under strict, with the generated projects' own compiler options; its test cases type-check as its tools' inputs", async () => {
  // One tsc run over all examples: their imports resolve from the repository's node_modules (got,
  // ajv, @types/node are devDependencies here), so no install is needed.
  const options = JSON.parse(readFileSync(join(root, "generated", EXAMPLES[0]!.name, "tsconfig.json"), "utf8"))
    .compilerOptions as Record<string, unknown>;
  for (const example of EXAMPLES)
    assert.equal(
      JSON.parse(readFileSync(join(root, "generated", example.name, "tsconfig.json"), "utf8")).compilerOptions,
      options,
    );
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-golden-tsc-"));
  const config = join(dir, "tsconfig.json");
  const { outDir: _outDir, rootDir: _rootDir, ...compilerOptions } = options;
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { ...compilerOptions, noEmit: true, typeRoots: [join(root, "node_modules/@types")] },
      include: [
        ...EXAMPLES.map((example) => join(root, "generated", example.name, "src/**/*.ts")),
        ...EXAMPLES.map((example) => casesModule(dir, example.name)),
      ],
    }),
  );
  assert.is(options.strict, true);
  try {
    await promisify(execFile)(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", config], {
      timeout: 180_000,
    });
  } catch (error) {
    assert.unreachable(`tsc failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
  }
});

test("generation is deterministic: two runs give byte-identical files", async () => {
  const spec = join(root, "specs/fixtures/oas31-library.json");
  const first = await generate({ spec });
  const second = await generate({ spec });
  assert.equal(second.files, first.files);
  assert.ok(first.files.length > 10);
});

test.run();
