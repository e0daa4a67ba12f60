/**
 * The vendored runtime as one unit (generator/pipeline/write/runtime-tree.ts): one hash in the
 * manifest, the folder compared and replaced as a whole, an edit refused, older manifests read.
 */
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { GenerationError } from "../../generator/shared/diagnostics.js";
import { MANIFEST_PATH, treeSha256, type Manifest } from "../../generator/shared/state-files.js";
import type { EmittedFile } from "../../generator/pipeline/emit/emitted-file.js";
import { applyUpdate } from "../../generator/pipeline/write/apply-update.js";
import { checkOutput } from "../../generator/pipeline/write/check-output.js";
import { buildManifest, manifestFile, sha256 } from "../../generator/pipeline/write/manifest.js";
import { readRuntimeTree } from "../../generator/pipeline/write/runtime-tree.js";
import { writeOutput } from "../../generator/pipeline/write/write-output.js";
import { readManifest } from "../../generator/pipeline/plan/previous-state.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-runtime-tree-"));
let n = 0;
const folder = () => join(work, `p${n++}`);

const V1 = { "src/runtime/a.ts": "a1", "src/runtime/sub/b.ts": "b1", "src/runtime/old.ts": "only in v1" };
const V2 = { "src/runtime/a.ts": "a2", "src/runtime/sub/b.ts": "b1", "src/runtime/new.ts": "only in v2" };

/** A generation: a README, the runtime files given, and their manifest. */
function generation(runtime: Record<string, string>): EmittedFile[] {
  const files = [
    { path: "README.md", content: "readme" },
    ...Object.entries(runtime).map(([path, content]) => ({ path, content })),
  ];
  return [...files, manifestFile(buildManifest(files, { packageName: "p", packageVersion: "1.0.0" }))];
}

/** The runtime folder on disk as path → text. */
async function runtimeOnDisk(dir: string): Promise<Record<string, string>> {
  return Object.fromEntries([...(await readRuntimeTree(dir))].map(([path, content]) => [path, content.toString()]));
}

/** The GenerationError `run` throws (fails the test when it throws none). */
async function refusal(run: Promise<unknown>): Promise<GenerationError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof GenerationError) return error;
    throw error;
  }
  throw new Error("expected a GenerationError");
}

test("the manifest records the runtime as one hash over its paths and contents, the other files one by one", () => {
  const manifest = buildManifest(
    Object.entries(V1).map(([path, content]) => ({ path, content })),
    { packageName: "p", packageVersion: "1.0.0" },
  );
  const hashes = Object.entries(V1).map(([path, content]) => [path, sha256(content)] as const);
  assert.equal(manifest.files, {});
  assert.is(manifest.runtimeSha256, treeSha256(hashes));
  assert.is(treeSha256([...hashes].reverse()), manifest.runtimeSha256, "the order files come in does not count");
  const renamed = hashes.map(([path, hash]) => [path.replace("old", "older"), hash] as const);
  assert.is.not(treeSha256(renamed), manifest.runtimeSha256, "a path counts");
  const generated = JSON.parse(generation(V1).at(-1)!.content) as Manifest;
  assert.equal(Object.keys(generated.files), ["README.md"]);
});

test("an untouched runtime is replaced as a whole: files the new one lacks are stale, then deleted", async () => {
  const dir = folder();
  await writeOutput(dir, generation(V1), {});
  const check = await checkOutput(dir, generation(V2), await readManifest(dir));
  assert.equal(check.stale, ["src/runtime/old.ts"]);
  const summary = await writeOutput(dir, generation(V2), {});
  assert.equal(summary.deleted, ["src/runtime/old.ts"]);
  assert.equal(summary.overwritten, []);
  assert.equal(await runtimeOnDisk(dir), V2);
  const again = await writeOutput(dir, generation(V2), {});
  assert.ok(again.unchanged.includes("src/runtime/a.ts") && again.written.length === 0, "nothing left to write");
});

for (const [change, edit] of [
  ["edited", (dir: string) => writeFileSync(join(dir, "src/runtime/a.ts"), "a1 // my fix")],
  ["added", (dir: string) => writeFileSync(join(dir, "src/runtime/mine.ts"), "mine")],
  ["removed", (dir: string) => unlinkSync(join(dir, "src/runtime/sub/b.ts"))],
] as const) {
  test(`a runtime file ${change} by hand stops the run (MG203: src/custom/ or --force); --force replaces the folder`, async () => {
    const dir = folder();
    await writeOutput(dir, generation(V1), {});
    edit(dir);
    const before = await runtimeOnDisk(dir);
    const error = await refusal(writeOutput(dir, generation(V2), {}));
    const [diagnostic] = error.diagnostics;
    assert.is(diagnostic?.code, "MG203");
    assert.match(diagnostic!.message, /src\/runtime\/ in .* was changed since mcp-gen wrote it/);
    assert.match(diagnostic!.help!, /src\/custom\/.*--force/);
    assert.equal(await runtimeOnDisk(dir), before, "nothing written");
    const forced = await writeOutput(dir, generation(V2), { force: true });
    assert.equal(forced.overwritten, ["src/runtime/"]);
    assert.equal(await runtimeOnDisk(dir), V2);
  });
}

test("a manifest listing the runtime's files one by one (older mcp-gen) is read as one hash", async () => {
  const oldFormat = (dir: string) => {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_PATH), "utf8")) as Manifest;
    const { runtimeSha256: _tree, ...rest } = manifest;
    const perFile = Object.fromEntries(Object.entries(V1).map(([path, content]) => [path, sha256(content)]));
    writeFileSync(join(dir, MANIFEST_PATH), JSON.stringify({ ...rest, files: { ...rest.files, ...perFile } }));
    return manifest.runtimeSha256;
  };
  const untouched = folder();
  await writeOutput(untouched, generation(V1), {});
  const recorded = oldFormat(untouched);
  const read = await readManifest(untouched);
  assert.is(read?.runtimeSha256, recorded);
  assert.equal(Object.keys(read!.files), ["README.md"]);
  await writeOutput(untouched, generation(V2), {});
  assert.equal(await runtimeOnDisk(untouched), V2, "the old runtime's stale file is deleted too");

  const edited = folder();
  await writeOutput(edited, generation(V1), {});
  oldFormat(edited);
  writeFileSync(join(edited, "src/runtime/sub/b.ts"), "b1 // my fix");
  const error = await refusal(writeOutput(edited, generation(V2), {}));
  assert.match(error.diagnostics[0]!.message, /src\/runtime\/ in .* was changed since mcp-gen wrote it/);
});

test("applyUpdate puts the old runtime folder back whole when a later rename fails", async () => {
  const dir = folder();
  await writeOutput(dir, generation(V1), {});
  writeFileSync(join(dir, "blocker"), "a file where the update needs a folder");
  const runtime = Object.entries(V2).map(([path, content]) => ({ path, content }));
  const plan = {
    write: [...runtime, { path: "blocker/z.ts", content: "z" }],
    delete: ["src/runtime/old.ts"],
    unchanged: [],
    conflicts: [],
    trees: ["src/runtime/"],
  };
  let failed = false;
  await applyUpdate(dir, plan).catch(() => (failed = true));
  assert.ok(failed, "the update must fail");
  assert.equal(await runtimeOnDisk(dir), V1);
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
