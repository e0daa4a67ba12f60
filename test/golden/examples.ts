import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { compareOutput } from "../../generator/pipeline/write/compare-output.js";
import { casesModuleText, type CasesFile } from "../support/cases-module.js";
import { exampleFiles, isVendoredRuntime, materializeExample, type Example } from "../support/example-custom.js";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { runtimeSourcePaths } from "../../generator/pipeline/emit/project-files.js";
import { runtimeHeader, runtimeVersion } from "../../generator/shared/provenance.js";
import { tmpdir } from "node:os";
import { promisify } from "node:util";

/** Repository root (this file runs from dist/test/golden). */
const root = fileURLToPath(new URL("../../../", import.meta.url));

/** The examples list shared with scripts/generate-examples.js. */
const EXAMPLES = JSON.parse(readFileSync(join(root, "specs/examples.json"), "utf8")) as Example[];

for (const example of EXAMPLES) {
  test(`generated/${example.name} equals a fresh generation (its vendored runtime aside)`, async () => {
    const result = await generate({ spec: join(root, example.spec), features: example.with ?? [] });
    const own = result.files.filter((file) => !isVendoredRuntime(file.path));
    const comparison = await compareOutput(join(root, "generated", example.name), exampleFiles(root, example, own));
    const report = [
      ...comparison.missing.map((p) => `missing ${p}`),
      ...comparison.extra.map((p) => `not generated any more: ${p}`),
      ...comparison.changed.map((c) => `changed ${c.path}\n${c.diff}`),
    ].join("\n");
    assert.is(report, "", `generated/${example.name} is stale; run "npm run generate:examples"\n${report}`);
  });
}

test("a generation vendors runtime/src as it is: the core and its features' folders, each file after one header line", async () => {
  const src = join(root, "runtime", "src");
  const header = runtimeHeader(runtimeVersion());
  const all = runtimeSourcePaths(src);
  const registry = JSON.parse(readFileSync(join(root, "runtime", "features.json"), "utf8")) as {
    features: Record<string, { requires?: string[] }>;
  };
  assert.ok(
    all.some((path) => path.split("/").length > 2),
    "the runtime has nested folders",
  );
  for (const features of [[], ["code", "redis"]]) {
    const result = await generate({ spec: join(root, "specs/petstore.yaml"), features });
    const vendored = new Map(
      result.files.filter((file) => isVendoredRuntime(file.path)).map((file) => [file.path.slice(12), file.content]),
    );
    // The features asked for and those they require (runtime/features.json), walked here from the data.
    const wanted = new Set<string>(features);
    for (const name of wanted) for (const needed of registry.features[name]?.requires ?? []) wanted.add(needed);
    const expected = all.filter((path) => !path.startsWith("features/") || wanted.has(path.split("/")[1]!));
    assert.equal([...vendored.keys()].sort(), expected, `vendored with --with ${features.join(",") || "none"}`);
    for (const path of expected) assert.is(vendored.get(path), header + readFileSync(join(src, path), "utf8"), path);
  }
});

/** Writes the module typing the example's test/cases.json with its ToolInputs (cases-module.ts) into `dir`. */
function casesModule(dir: string, example: string, projects: string): string {
  const cases = JSON.parse(readFileSync(join(root, "generated", example, "test/cases.json"), "utf8")) as CasesFile;
  const { text, valid } = casesModuleText(cases, join(projects, example, "src/tools/index.js"), {
    refused: true,
  });
  assert.ok(valid > 0, `${example} has cases`);
  const path = join(dir, `${example}-cases.ts`);
  writeFileSync(path, text);
  return path;
}

test("every example of generated/, with its types for custom code (--with custom), compiles under strict with the generated projects' own compiler options; its test cases type-check as its tools' inputs", async () => {
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
  // The examples with their vendored runtime, inside the repository so that imports resolve from its node_modules.
  const projects = join(root, ".tmp", "golden-tsc");
  rmSync(projects, { recursive: true, force: true });
  mkdirSync(projects, { recursive: true });
  for (const example of EXAMPLES)
    await materializeExample(root, example.name, join(projects, example.name), ["custom"]);
  const { outDir: _outDir, rootDir: _rootDir, ...compilerOptions } = options;
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { ...compilerOptions, noEmit: true, typeRoots: [join(root, "node_modules/@types")] },
      include: [
        ...EXAMPLES.map((example) => join(projects, example.name, "src/**/*.ts")),
        ...EXAMPLES.map((example) => casesModule(dir, example.name, projects)),
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
