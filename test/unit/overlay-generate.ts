import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { diffSpecs } from "../../generator/commands/diff/diff-specs.js";
import { readServerTools } from "../../generator/commands/lint/lint-server.js";
import { Codes } from "../../generator/shared/diagnostics.js";
import { MANIFEST_PATH, type Manifest } from "../../generator/shared/state-files.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const v1 = join(root, "specs/fixtures/regen/v1.yaml");
const v2 = join(root, "specs/fixtures/regen/v2.yaml");
const work = mkdtempSync(join(tmpdir(), "mcp-gen-overlay-gen-"));
const overlayFile = join(work, "overlay.yaml");
const out = join(work, "out");

const OVERLAY = `overlay: 1.0.0
info: { title: Items, version: "1" }
actions:
  - target: $.paths.*[?@.operationId == 'createItem']
    update: { x-mcp-name: add_item }
  - target: $.paths.*[?@.operationId == 'listItems']
    update: { x-mcp-description: "Every item of the store, newest first." }
`;

const manifest = (): Manifest => JSON.parse(readFileSync(join(out, MANIFEST_PATH), "utf8")) as Manifest;
const tools = (): Array<{ name: string; description: string }> =>
  JSON.parse(readFileSync(join(out, "data", "tools.json"), "utf8"));

test.after(() => rmSync(work, { recursive: true, force: true }));

test("the overlay is applied, remembered in the manifest (relative path, sha256) and kept by the next version", async () => {
  writeFileSync(overlayFile, OVERLAY);
  const first = await generate({ spec: v1, outDir: out, overlays: [overlayFile] });
  assert.ok(first.plan.tools.some((t) => t.name === "add_item"));
  assert.equal(
    manifest().overlays!.map((o) => [o.path, o.sha256.length]),
    [["../overlay.yaml", 64]],
  );
  assert.equal(
    first.diagnostics.filter((d) => d.code === Codes.overlayTargetEmpty),
    [],
  );

  const second = await generate({ spec: v2, outDir: out });
  const listed = second.plan.tools.find((t) => t.name === "listItems")!;
  assert.ok(
    second.plan.tools.some((t) => t.name === "add_item"),
    "the rename survives a new version of the spec",
  );
  assert.match(listed.description, /^Every item of the store, newest first\./);
  assert.ok(tools().some((t) => t.name === "add_item"));
  assert.equal(manifest().overlays!.length, 1);
});

test("--check notices an edited overlay; an empty overlay list stops applying it", async () => {
  assert.ok((await generate({ spec: v2, outDir: out, check: true })).check!.upToDate);
  writeFileSync(overlayFile, OVERLAY.replace("newest first", "oldest first"));
  const stale = (await generate({ spec: v2, outDir: out, check: true })).check!;
  assert.not.ok(stale.upToDate);
  assert.ok(stale.changed.some((c) => c.path === MANIFEST_PATH));
  assert.ok(stale.changed.some((c) => c.path === "data/tools.json"));

  const cleared = await generate({ spec: v2, outDir: out, overlays: [] });
  assert.is(manifest().overlays, undefined);
  // The name lock keeps add_item (a regeneration never renames a tool by itself); the description is the spec's again.
  assert.match(cleared.plan.tools.find((t) => t.name === "listItems")!.description, /^List items/);
});

test("mcp-gen diff: --new-overlay shows what the overlay changes (the rename as a rename), --overlay applies to both", async () => {
  writeFileSync(overlayFile, OVERLAY);
  const own = await diffSpecs({ old: v1, new: v1, allowRemote: false, keepNames: false, newOverlays: [overlayFile] });
  assert.equal(
    own.changed.map((c) => [c.previousName, c.name, c.described]),
    [
      ["createItem", "add_item", false],
      [undefined, "listItems", true],
    ],
  );
  assert.is(own.bump, "major", "a rename breaks callers");
  const upgrade = await diffSpecs({ old: v1, new: v2, allowRemote: false, keepNames: true, overlays: [overlayFile] });
  assert.not.ok(
    upgrade.changed.some((c) => c.previousName === "createItem"),
    "the same overlay on both: no rename",
  );
  assert.ok(upgrade.changed.some((c) => c.name === "add_item"));
});

test("mcp-gen lint of a spec reports an overlay action that changes nothing (MG120, with its pointer)", async () => {
  writeFileSync(overlayFile, OVERLAY.replace("'listItems'", "'listEverything'"));
  const server = await readServerTools(v1, { overlays: [overlayFile] });
  assert.equal(
    server.diagnostics!.map((d) => [d.code, d.file, d.pointer]),
    [[Codes.overlayTargetEmpty, overlayFile, "#/actions/1/target"]],
  );
});

test("the guide's worked example (specs/overlays/petstore-shape.yaml) does what docs/guide/tool-surface.md says", async () => {
  const petstore = join(root, "specs/petstore.yaml");
  const shape = join(root, "specs/overlays/petstore-shape.yaml");
  const diff = await diffSpecs({
    old: petstore,
    new: petstore,
    allowRemote: false,
    keepNames: true,
    newOverlays: [shape],
  });
  assert.equal(diff.removed, ["getInventory"]);
  assert.equal(
    diff.changed.map((c) => [c.previousName ?? c.name, c.name]),
    [
      ["listPets", "find_pets"],
      ["getPet", "getPet"],
      ["updatePet", "updatePet"],
    ],
  );
  const { plan, diagnostics } = await generate({ spec: petstore, planOnly: true, overlays: [shape] });
  assert.equal(
    diagnostics.filter((d) => /^MG12[0-2]$/.test(d.code)),
    [],
  );
  const byName = new Map(plan.tools.map((t) => [t.name, t]));
  assert.equal(byName.get("createPet")!.annotations, { destructiveHint: true });
  assert.is(byName.get("updatePet")!.confirm, true);
  assert.is(byName.get("updatePet")!.title, "Replace a pet (every field)");
  assert.ok(plan.features.includes("confirm"));
});

test.run();
