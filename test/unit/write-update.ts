import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { applyUpdate } from "../../generator/pipeline/write/apply-update.js";
import { MANIFEST_PATH } from "../../generator/shared/state-files.js";
import { buildManifest, fileSha256, sha256 } from "../../generator/pipeline/write/manifest.js";
import { compareVersions } from "../../generator/pipeline/plan/changes/semver.js";
import { mergePackageJson } from "../../generator/pipeline/write/merge-package-json.js";
import { planUpdate } from "../../generator/pipeline/write/plan-update.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-write-"));
let n = 0;
function project(files: Record<string, string>): string {
  const dir = join(work, `p${n++}`);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

test("planUpdate: replaces recorded files, deletes stale ones, reports edits and foreign files, skips once-files", async () => {
  const manifest = buildManifest(
    [
      { path: "a.ts", content: "old a" },
      { path: "b.ts", content: "old b" },
      { path: "gone.ts", content: "gone" },
    ],
    { packageName: "x", packageVersion: "1.0.0" },
  );
  const dir = project({
    "a.ts": "old a",
    "b.ts": "EDITED",
    "gone.ts": "gone",
    "c.ts": "user file in the way",
    "custom/x.ts": "mine",
    "notes.md": "mine",
  });
  const plan = await planUpdate(
    dir,
    [
      { path: "a.ts", content: "new a" },
      { path: "b.ts", content: "new b" },
      { path: "c.ts", content: "generated c" },
      { path: "custom/x.ts", content: "example", once: true },
      { path: "d.ts", content: "new file" },
    ],
    manifest,
  );
  assert.equal(
    plan.write.map((f) => f.path),
    ["a.ts", "b.ts", "c.ts", "d.ts"],
  );
  assert.equal(plan.delete, ["gone.ts"]);
  assert.equal(plan.unchanged, ["custom/x.ts"]);
  assert.equal(plan.conflicts, [
    { path: "b.ts", reason: "edited" },
    { path: "c.ts", reason: "foreign" },
  ]);
  assert.is(manifest.files["a.ts"], sha256("old a"));
});

test("applyUpdate rolls every file back when a rename fails half way", async () => {
  // `blocker` is a user's file where the update needs a folder: the second step fails.
  const dir = project({
    "a.ts": "old a",
    blocker: "a file, not a folder",
    [MANIFEST_PATH]: "old manifest",
    "stale.ts": "stale",
  });
  const plan = {
    write: [
      { path: "a.ts", content: "new a" },
      { path: "blocker/z.ts", content: "z" },
      { path: MANIFEST_PATH, content: "new manifest" },
    ],
    delete: ["stale.ts"],
    unchanged: [],
    conflicts: [],
  };
  let failed = false;
  try {
    await applyUpdate(dir, plan);
  } catch {
    failed = true;
  }
  assert.ok(failed, "the update must fail");
  assert.is(readFileSync(join(dir, "a.ts"), "utf8"), "old a", "the replaced file is restored");
  assert.is(readFileSync(join(dir, "stale.ts"), "utf8"), "stale");
  assert.is(readFileSync(join(dir, MANIFEST_PATH), "utf8"), "old manifest", "the manifest (commit point) is untouched");
  assert.equal(
    readdirSync(work).filter((name) => name.includes(".mcp-gen-")),
    [],
    "no staging folder left behind",
  );
});

test("applyUpdate deletes stale files and the folders they leave empty", async () => {
  const dir = project({ "src/tools/old.ts": "x", "src/tools/keep.ts": "k", "src/gone/only.ts": "y" });
  await applyUpdate(dir, {
    write: [{ path: "src/tools/keep.ts", content: "k2" }],
    delete: ["src/tools/old.ts", "src/gone/only.ts"],
    unchanged: [],
    conflicts: [],
  });
  assert.equal(readdirSync(join(dir, "src")).sort(), ["tools"]);
  assert.equal(readdirSync(join(dir, "src/tools")), ["keep.ts"]);
  assert.is(readFileSync(join(dir, "src/tools/keep.ts"), "utf8"), "k2");
});

test("mergePackageJson keeps the user's dependencies, scripts and fields; the generator's values win", () => {
  const generated = JSON.stringify({
    name: "x",
    version: "2.0.0",
    scripts: { build: "tsc" },
    dependencies: { ajv: "8.17.1" },
  });
  const user = JSON.stringify({
    name: "renamed",
    version: "1.0.0",
    scripts: { build: "custom", lint: "eslint" },
    dependencies: { ajv: "8.0.0", zod: "3.0.0" },
    author: "Me",
  });
  assert.equal(JSON.parse(mergePackageJson(generated, user)!), {
    name: "x",
    version: "2.0.0",
    scripts: { build: "tsc", lint: "eslint" },
    dependencies: { ajv: "8.17.1", zod: "3.0.0" },
    author: "Me",
  });
  assert.is(mergePackageJson(generated, "not json"), undefined);
  assert.ok(compareVersions("1.10.0", "1.9.9") > 0);
  assert.ok(compareVersions("1.0.0-beta", "1.0.0") < 0);
  assert.is(compareVersions("1.0.0", "1.0.0"), 0);
});

test("a file's hash is remembered for its content only: a file whose content changed is hashed again", () => {
  const file = { path: "a.txt", content: "one" };
  assert.is(fileSha256(file), sha256("one"));
  assert.is(fileSha256(file), sha256("one"));
  file.content = "two";
  assert.is(fileSha256(file), sha256("two"));
  assert.equal(buildManifest([file], { packageName: "p", packageVersion: "1.0.0" }).files, { "a.txt": sha256("two") });
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
