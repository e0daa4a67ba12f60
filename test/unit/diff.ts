import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ToolContract } from "../../generator/pipeline/plan/changes/contracts.js";
import { diffTools } from "../../generator/pipeline/plan/changes/diff-tools.js";
import { formatDiff } from "../../generator/commands/diff/format-diff.js";
import { compareSchemas } from "../../generator/pipeline/plan/changes/schema-changes.js";
import { bumpVersion } from "../../generator/pipeline/plan/changes/semver.js";
import { decideVersion } from "../../generator/pipeline/plan/version.js";

const tool = (name: string, input: Record<string, unknown>, extra: Partial<ToolContract> = {}): ToolContract => ({
  name,
  operation: `GET /${name}`,
  description: name,
  inputSchema: { type: "object", ...input },
  ...extra,
});

test("input: new required argument, removed argument and narrowed types are breaking; the rest compatible", () => {
  const before = {
    type: "object",
    properties: { a: { type: "string" }, b: { type: ["string", "null"] }, n: { type: "number" } },
    required: ["a"],
  };
  const after = {
    type: "object",
    properties: {
      a: { type: "string" },
      b: { type: "string" },
      n: { type: "integer" },
      c: { type: "string" },
      d: { type: "string" },
    },
    required: ["c"],
  };
  const changes = compareSchemas(before, after, "input").map((c) => `${c.verdict} ${c.at} ${c.message}`);
  assert.equal(changes.sort(), [
    "breaking b type changed from null|string to string",
    "breaking c required argument added",
    "breaking n type changed from number to integer",
    "compatible a argument is now optional",
    "compatible d optional argument added",
  ]);
  assert.equal(
    compareSchemas(before, { type: "object", properties: {} }, "input").map((c) => c.verdict),
    ["breaking", "breaking", "breaking"],
  );
});

test("enums: narrowing breaks inputs, widening breaks outputs; nested properties and items are followed", () => {
  const old = {
    type: "object",
    properties: {
      s: { enum: ["a", "b"] },
      list: { type: "array", items: { type: "object", properties: { x: { type: "string" } } } },
    },
  };
  const wider = {
    type: "object",
    properties: { s: { enum: ["a", "b", "c"] }, list: { type: "array", items: { type: "object", properties: {} } } },
  };
  assert.equal(
    compareSchemas(old, wider, "input").map((c) => `${c.verdict} ${c.at}`),
    ["compatible s", "breaking list[].x"],
  );
  assert.equal(
    compareSchemas(old, wider, "output").map((c) => `${c.verdict} ${c.at}`),
    ["breaking s", "breaking list[].x"],
  );
  assert.equal(
    compareSchemas(wider, old, "input").map((c) => `${c.verdict} ${c.at}`),
    ["breaking s", "compatible list[].x"],
  );
});

test("$defs references are followed (and recursive ones end)", () => {
  const v1 = {
    type: "object",
    $defs: { S: { enum: ["a", "b"] }, N: { type: "object", properties: { next: { $ref: "#/$defs/N" } } } },
    properties: { s: { $ref: "#/$defs/S" }, n: { $ref: "#/$defs/N" } },
  };
  const v2 = { ...v1, $defs: { ...v1.$defs, S: { enum: ["a"] } } };
  assert.equal(
    compareSchemas(v1, v2, "input").map((c) => `${c.verdict} ${c.at} ${c.message}`),
    ['breaking s value(s) "b" no longer allowed'],
  );
  assert.equal(compareSchemas(v1, v1, "input"), []);
});

test("tools are paired by name, then route, then operationId; renames and removals are breaking", () => {
  const before = [tool("a", {}), tool("b", {}, { operationId: "b" }), tool("c", {})];
  const after = [tool("c", {}), tool("b2", {}, { operation: "GET /b", operationId: "b2" }), tool("d", {})];
  const diff = diffTools(before, after);
  assert.equal(diff.added, ["d"]);
  assert.equal(diff.removed, ["a"]);
  assert.equal(
    diff.changed.map((c) => [c.previousName, c.name]),
    [["b", "b2"]],
  );
  assert.is(diff.bump, "major");
  assert.match(formatDiff(diff), /b → b2 {2}\(renamed, BREAKING\)/);
  assert.match(formatDiff(diff), /^Tool changes \(breaking; suggested bump: major\):/);
  // A regeneration says what it wrote: before 1.0 the major change raises the minor version.
  assert.match(
    formatDiff(diff, "0.2.0"),
    /^Tool changes \(breaking; a major change, but before 1\.0 that raises the minor version: package version 0\.2\.0\):/,
  );
  assert.match(formatDiff(diff, "2.0.0"), /^Tool changes \(breaking; bump: major, package version 2\.0\.0\):/);
});

test("suggested bump: none, patch for prose, minor for additions", () => {
  const base = [tool("a", { properties: {} })];
  assert.is(diffTools(base, base).bump, "none");
  assert.is(formatDiff(diffTools(base, base)), "No tool changes.");
  assert.is(diffTools(base, [tool("a", { properties: {} }, { description: "new words" })]).bump, "patch");
  assert.is(diffTools(base, [...base, tool("b", {})]).bump, "minor");
  assert.is(diffTools(base, [tool("a", { properties: { x: { type: "string" } } })]).bump, "minor");
  assert.not.ok(diffTools(base, [...base, tool("b", {})]).breaking);
});

test("bumpVersion follows semver (breaking below 1.0 bumps the minor)", () => {
  assert.is(bumpVersion("1.2.3", "major"), "2.0.0");
  assert.is(bumpVersion("1.2.3", "minor"), "1.3.0");
  assert.is(bumpVersion("1.2.3", "patch"), "1.2.4");
  assert.is(bumpVersion("1.2.3", "none"), "1.2.3");
  assert.is(bumpVersion("0.4.1", "major"), "0.5.0");
  assert.is(bumpVersion("2.0.0-beta.1", "patch"), "2.0.0");
  assert.is(bumpVersion("2.0.0-beta.1", "major"), "2.0.0");
  assert.is(bumpVersion("v2", "major"), "v2");
});

test("the plan decides the version: API version first, then the previous one (or the user's, if higher) bumped", () => {
  const breaking = { bump: "major" } as Parameters<typeof decideVersion>[2];
  assert.is(decideVersion("2.1.0", undefined, undefined, true), "2.1.0");
  assert.is(decideVersion("v2", undefined, undefined, true), "0.1.0");
  assert.is(decideVersion("2.1.0", { recorded: "1.4.0" }, breaking, true), "2.0.0");
  assert.is(decideVersion("2.1.0", { recorded: "1.4.0", onDisk: "1.9.0" }, breaking, true), "2.0.0");
  assert.is(
    decideVersion("2.1.0", { recorded: "1.4.0", onDisk: "1.9.0" }, { bump: "patch" } as typeof breaking, true),
    "1.9.1",
  );
  assert.is(decideVersion("2.1.0", { recorded: "1.4.0", onDisk: "1.0.0" }, breaking, false), "1.4.0");
});

test.run();
