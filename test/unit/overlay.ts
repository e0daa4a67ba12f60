import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Codes, DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { applyOverlays, checkOverlay, type OverlayDocument } from "../../generator/pipeline/load/overlay.js";
import { loadSpec } from "../../generator/pipeline/load/load-spec.js";
import { formatDiagnostic } from "../../cli/report.js";

const spec = () => ({
  openapi: "3.1.0",
  info: { title: "Pets", version: "1" },
  tags: [{ name: "pets" }, { name: "store", description: "Orders" }],
  paths: {
    "/pets": {
      get: { operationId: "listPets", tags: ["pets"], summary: "List pets", responses: {} },
      post: { operationId: "createPet", tags: ["pets"], summary: "Create", responses: {} },
    },
    "/store": { get: { operationId: "getInventory", tags: ["store"], responses: {} } },
  },
});

function overlay(actions: unknown[], bag = new DiagnosticBag()): OverlayDocument {
  const checked = checkOverlay({ overlay: "1.0.0", info: { title: "t", version: "1" }, actions }, "overlay.yaml", bag);
  assert.ok(checked, JSON.stringify(bag.items));
  return checked!;
}

function applied(actions: unknown[]): { document: ReturnType<typeof spec>; bag: DiagnosticBag } {
  const document = spec();
  const bag = new DiagnosticBag();
  applyOverlays(document, [overlay(actions)], bag);
  return { document, bag };
}

test("update merges into every selected object; filters select by a property", () => {
  const { document, bag } = applied([
    { target: "$.paths.*[?@.operationId == 'createPet']", update: { summary: "Add a pet", "x-mcp-name": "add_pet" } },
    { target: "$.paths.*.*", update: { "x-seen": true } },
  ]);
  assert.equal(bag.items, []);
  const post = document.paths["/pets"].post as Record<string, unknown>;
  assert.is(post.summary, "Add a pet");
  assert.is(post["x-mcp-name"], "add_pet");
  assert.is(post.operationId, "createPet", "other properties stay");
  assert.is((document.paths["/store"].get as Record<string, unknown>)["x-seen"], true);
});

test("objects merge recursively, arrays are appended to, and an array target gets the value pushed", () => {
  const { document, bag } = applied([
    { target: "$.info", update: { contact: { name: "a" } } },
    { target: "$.info", update: { contact: { email: "b@example.com" } } },
    { target: "$.paths['/pets'].get", update: { tags: ["animals"] } },
    { target: "$.tags", update: { name: "new" } },
  ]);
  assert.equal(bag.items, []);
  assert.equal((document.info as Record<string, unknown>).contact, { name: "a", email: "b@example.com" });
  assert.equal(document.paths["/pets"].get.tags, ["pets", "animals"]);
  assert.equal(
    document.tags.map((t) => t.name),
    ["pets", "store", "new"],
  );
});

test("remove deletes properties and array items (several items of one array in one action)", () => {
  const { document, bag } = applied([
    { target: "$.paths['/pets'].post", remove: true },
    { target: "$.tags[*]", remove: true },
  ]);
  assert.equal(bag.items, []);
  assert.equal(Object.keys(document.paths["/pets"]), ["get"]);
  assert.equal(document.tags, []);
});

test("a target that selects nothing is MG120 (warning) with the overlay file and the action's pointer", () => {
  const { bag } = applied([
    { target: "$.paths['/pets'].get", update: { summary: "x" } },
    { target: "$.paths['/gone'].get", description: "old route", update: { summary: "x" } },
  ]);
  assert.equal(
    bag.items.map((d) => [d.code, d.severity, d.file, d.pointer]),
    [[Codes.overlayTargetEmpty, "warning", "overlay.yaml", "#/actions/1/target"]],
  );
  assert.match(bag.items[0]!.message, "old route");
  assert.match(formatDiagnostic(bag.items[0]!), "MG120 overlay.yaml#/actions/1/target: Overlay action");
});

test("a target that is not JSONPath, or an update that does not fit its target, is MG121 (error)", () => {
  const { bag } = applied([
    { target: "$.paths[", update: {} },
    { target: "$.info.title", update: { a: 1 } },
    { target: "$.info", update: { title: { nested: true } } },
  ]);
  assert.equal(
    bag.items.map((d) => [d.code, d.severity, d.pointer]),
    [
      [Codes.overlayInvalid, "error", "#/actions/0/target"],
      [Codes.overlayInvalid, "error", "#/actions/1/update"],
      [Codes.overlayInvalid, "error", "#/actions/2/update/title"],
    ],
  );
});

test("the overlay document is checked: version, info, actions and each action's fields", () => {
  const bag = new DiagnosticBag();
  assert.is(checkOverlay({ overlay: "2.0.0", info: {}, actions: [] }, "o.yaml", bag), undefined);
  assert.equal(
    bag.items.map((d) => d.pointer),
    ["#/overlay", "#/info", "#/actions"],
  );
  const actions = new DiagnosticBag();
  checkOverlay(
    { overlay: "1.0.0", info: { title: "t", version: "1" }, actions: [{ target: "paths" }, { target: "$" }] },
    "o.yaml",
    actions,
  );
  assert.equal(
    actions.items.map((d) => [d.code, d.pointer]),
    [
      [Codes.overlayInvalid, "#/actions/0/target"],
      [Codes.overlayInvalid, "#/actions/1"],
    ],
  );
});

test("a __proto__ key of an update is an own property, never the prototype", () => {
  const { document } = applied([{ target: "$.info", update: JSON.parse('{"__proto__": {"polluted": true}}') }]);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.ok(Object.hasOwn(document.info, "__proto__"));
});

test("loadSpec applies overlay files in order and records their sha256; an overlay's file $ref is refused", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-overlay-"));
  try {
    writeFileSync(join(dir, "spec.json"), JSON.stringify(spec()));
    const write = (name: string, actions: unknown[]) =>
      writeFileSync(
        join(dir, name),
        `overlay: 1.0.0\ninfo: { title: ${name}, version: "1" }\nactions: ${JSON.stringify(actions)}\n`,
      );
    write("a.yaml", [{ target: "$.info", update: { title: "First" } }]);
    write("b.yaml", [{ target: "$.info", update: { title: "Second" } }]);
    write("c.yaml", [{ target: "$.info", update: { "x-logo": { $ref: "other.yaml" } } }]);
    const bag = new DiagnosticBag();
    const loaded = await loadSpec(
      join(dir, "spec.json"),
      { overlays: [join(dir, "a.yaml"), join(dir, "b.yaml")], validate: false },
      bag,
    );
    assert.is((loaded!.document.info as Record<string, unknown>).title, "Second");
    assert.equal(
      loaded!.overlays!.map((o) => [o.location, o.sha256.length]),
      [
        [join(dir, "a.yaml"), 64],
        [join(dir, "b.yaml"), 64],
      ],
    );
    const refused = new DiagnosticBag();
    assert.is(
      await loadSpec(join(dir, "spec.json"), { overlays: [join(dir, "c.yaml")], validate: false }, refused),
      undefined,
    );
    assert.ok(refused.items.some((d) => d.code === Codes.refUnresolved && d.severity === "error"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
