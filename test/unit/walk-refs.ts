import { test } from "uvu";
import * as assert from "uvu/assert";
import { scanDocument } from "../../generator/pipeline/load/walk-refs.js";

/** An object nested `levels` deep (`{"a":{"a":…{}}}`), `levels` ≥ 1. */
const nested = (levels: number, leaf: Record<string, unknown> = {}): Record<string, unknown> => {
  let node = leaf;
  for (let i = 1; i < levels; i++) node = { a: node };
  return node;
};

test("the $refs, each with the pointer of the object holding it; none under data keywords", () => {
  const document = {
    paths: { "/a/{b}": { get: { schema: { $ref: "#/components/schemas/A" } } } },
    components: {
      schemas: { A: { properties: { example: { $ref: "#/x" } }, example: { $ref: "not a ref" } } },
      examples: { E: { value: { $ref: "data" } } },
    },
  };
  assert.equal(scanDocument(document, 256), {
    refs: [
      { ref: "#/components/schemas/A", at: "#/paths/~1a~1{b}/get/schema" },
      { ref: "#/x", at: "#/components/schemas/A/properties/example" },
    ],
  });
});

test("the depth limit: the root is level 1, examples count, and the walk stops at the first node past it", () => {
  assert.equal(scanDocument(nested(5), 5), { refs: [] });
  assert.equal(scanDocument(nested(6), 5), { refs: [], tooDeep: "#/a/a/a/a/a" });
  assert.equal(scanDocument({ example: nested(5) }, 5), { refs: [], tooDeep: "#/example/a/a/a/a" });
  assert.equal(scanDocument([[[[]]]], 3), { refs: [], tooDeep: "#/0/0/0" });
});

test("a node shared by several places (YAML aliases) counts at each for depth, and its $refs once", () => {
  const shared = { $ref: "#/s", deep: nested(3) };
  const document = { a: shared, b: { c: { d: shared } } };
  const scan = scanDocument(document, 7);
  assert.equal(scan, { refs: [{ ref: "#/s", at: "#/a" }] });
  // Under a it reaches level 5 only; under b/c/d level 7 (root 1, b 2, c 3, d 4, deep 5, then 6 and 7).
  assert.equal(scanDocument(document, 6).tooDeep, "#/b/c/d/deep/a/a");
});

test("a tree (JSON's value) is walked without a record of seen nodes: a node reached twice counts twice", () => {
  const shared = { $ref: "#/s" };
  const document = { a: shared, b: shared };
  assert.equal(scanDocument(document, 7, { tree: true }).refs, [
    { ref: "#/s", at: "#/a" },
    { ref: "#/s", at: "#/b" },
  ]);
  assert.equal(scanDocument(document, 7).refs, [{ ref: "#/s", at: "#/a" }]);
});

test.run();
