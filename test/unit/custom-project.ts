/**
 * Feature custom in a generated project: with it (`--with custom`, or src/custom/ holding code on a
 * regeneration) the project has the extension API, its types and the entry's `extension`; without it
 * none of that, and the tools' data and declarations are the same either way.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const spec = join(root, "specs", "petstore.yaml");
const files = async (features: string[], outDir?: string): Promise<Map<string, string>> =>
  new Map((await generate({ spec, features, ...(outDir ? { outDir } : {}) })).files.map((f) => [f.path, f.content]));

/** The paths only a project with custom code has. */
const CUSTOM_ONLY = /^src\/(api\.ts|custom\/|schemas\.ts|tools\/(?!index\.ts)|runtime\/features\/custom\/)/;

test("with custom: src/api.ts, src/custom/, the types, the feature vendored and handed the extension", async () => {
  const project = await files(["custom"]);
  for (const path of [
    "src/api.ts",
    "src/custom/index.ts",
    "src/custom/README.md",
    "src/schemas.ts",
    "src/tools/pets.ts",
  ])
    assert.ok(project.has(path), path);
  assert.ok(project.has("src/runtime/features/custom/operation-api.ts"));
  const entry = project.get("src/index.ts")!;
  assert.match(entry, 'import { custom } from "./runtime/features/custom/index.js";');
  assert.match(entry, 'import extension from "./custom/index.js";');
  assert.match(entry, /features: \[custom, inputRequests\]/);
  assert.match(project.get("src/tools/index.ts")!, /export interface ToolInputs/);
});

test("without custom: none of it, and the data files and declarations are byte-identical", async () => {
  const [plain, custom] = await Promise.all([files([]), files(["custom"])]);
  assert.equal(
    [...plain.keys()].filter((path) => CUSTOM_ONLY.test(path)),
    [],
  );
  assert.not.match(plain.get("src/index.ts")!, /extension/);
  assert.not.match(plain.get("src/tools/index.ts")!, /ToolInputs/);
  assert.match(plain.get("README.md")!, /run mcp-gen\s+again with `--with custom`/);
  for (const [path, content] of plain) if (path.startsWith("data/")) assert.is(custom.get(path), content, path);
});

test("a regeneration keeps feature custom when src/custom/ holds code, asked for or not", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-custom-project-"));
  try {
    assert.not.ok((await files([], dir)).has("src/api.ts"));
    mkdirSync(join(dir, "src", "custom"), { recursive: true });
    writeFileSync(join(dir, "src", "custom", "index.ts"), "export default {};\n");
    const again = await files([], dir);
    assert.ok(again.has("src/api.ts"));
    assert.match(again.get("src/index.ts")!, 'import extension from "./custom/index.js";');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
