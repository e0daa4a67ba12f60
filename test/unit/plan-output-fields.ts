import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  compactPaths,
  fieldsArgumentName,
  fieldsProperty,
  listOutputFields,
  MAX_ENUM_PATHS,
  MAX_FIELD_PATHS,
  MAX_LISTING_CHARS,
} from "../../generator/pipeline/plan/output-fields.js";
import type { JsonSchema } from "../../generator/shared/contract.js";
import { schemas } from "../support/factories.js";

const defs = schemas({
  User: { type: "object", properties: { login: { type: "string" }, id: { type: "integer" } } },
  Repo: {
    type: "object",
    properties: { name: { type: "string" }, owner: { $ref: "#/$defs/User" } },
  },
  Pull: {
    allOf: [
      { type: "object", properties: { number: { type: "integer" }, title: { type: "string" } } },
      {
        type: "object",
        properties: {
          user: { $ref: "#/$defs/User" },
          labels: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
          head: { type: "object", properties: { repo: { $ref: "#/$defs/Repo" } } },
          extra: { type: "object", additionalProperties: { type: "string" } },
        },
      },
    ],
  },
});

test("paths of a response schema: breadth first, arrays marked, refs and allOf followed, open objects as .*", () => {
  const paths = listOutputFields({ type: "array", items: { $ref: "#/$defs/Pull" } }, defs);
  assert.equal(paths, [
    "number",
    "title",
    "user",
    "labels[]",
    "head",
    "extra.*",
    "user.login",
    "user.id",
    "labels[].name",
    "head.repo",
    "head.repo.name",
    "head.repo.owner.*",
  ]);
});

test("the count is bounded, and the argument is an enum only when few and exact", () => {
  const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, {}])) };
  assert.is(listOutputFields(wide, defs).length, MAX_FIELD_PATHS);
  assert.equal((fieldsProperty(["a", "b"]).items as { enum: string[] }).enum, ["a", "b"]);
  assert.is(fieldsProperty(["a", "b"]).description, "Fields to return");
  // Not exact (an open path, too many, or none known): any strings.
  assert.equal(fieldsProperty(["a", "b.*"]).items, { type: "string" });
  const nine = Array.from({ length: MAX_ENUM_PATHS + 1 }, (_, i) => `f${i}`);
  assert.equal(fieldsProperty(nine).items, { type: "string" });
  assert.equal(fieldsProperty([]), { type: "array", description: "Fields to return", items: { type: "string" } });
  // The runtime checks the list's length and paths (result-step.ts), not the schema.
  assert.not.ok("minItems" in fieldsProperty(["a", "b.*"]) || "minItems" in fieldsProperty(["a", "b"]));
  // An operation with a parameter named _fields keeps it: the argument takes another underscore.
  assert.is(fieldsArgumentName({ type: "object", properties: { _fields: {} } }), "__fields");
  assert.is(fieldsArgumentName({ type: "object" }), "_fields");
});

test("paths are written once per shared prefix, as brace expansion reads", () => {
  const paths = listOutputFields({ type: "array", items: { $ref: "#/$defs/Pull" } }, defs);
  assert.is(compactPaths(paths), "number, title, user.{login, id}, labels[].name, head.repo.{name, owner.*}, extra.*");
  // Past the enum's size, the description carries the listing while it is short.
  assert.is(
    fieldsProperty(paths).description,
    "Fields to return: number, title, user.{login, id}, labels[].name, head.repo.{name, owner.*}, extra.*",
  );
});

test("the listing is left out from its paths' names alone once they pass its length", () => {
  // 11 names of 8 characters, one of 10 and 11 separators: 120 characters, listed; one more is too many.
  const eleven = Array.from({ length: 11 }, (_, i) => `field_${i + 10}`);
  const fits = [...eleven, "field_last"];
  assert.is(compactPaths(fits).length, MAX_LISTING_CHARS);
  assert.is(fieldsProperty(fits).description, `Fields to return: ${compactPaths(fits)}`);
  const over = [...eleven, "field_lastt"];
  assert.is(compactPaths(over).length, MAX_LISTING_CHARS + 1);
  assert.is(fieldsProperty(over).description, "Fields to return");
  // Nested and open paths around the length: listed exactly when the listing fits.
  for (let width = 1; width <= 12; width++) {
    const names = Array.from({ length: 9 }, (_, i) => `${"n".repeat(width)}${i}`);
    const nested = ["data", ...names.map((name) => `data.${name}`), "meta.*", "links.self.*"];
    const listing = compactPaths(nested);
    const expected = listing.length <= MAX_LISTING_CHARS ? `Fields to return: ${listing}` : "Fields to return";
    assert.is(fieldsProperty(nested).description, expected, `width ${width}: ${listing.length} characters`);
  }
});

test("a large response's argument stays small: its paths are not listed past the listing's length", () => {
  // 100 paths three names deep, as a big API's responses give (GitHub: 192 of its 926 tools).
  const object = (names: string[], below?: JsonSchema) => ({
    type: "object",
    properties: Object.fromEntries(names.map((name) => [name, below ?? { type: "string" }])),
  });
  const names = Array.from({ length: 12 }, (_, i) => `property_${i}`);
  const big = object(names, object(names, object(names)));
  const paths = listOutputFields(big, defs);
  assert.is(paths.length, MAX_FIELD_PATHS);
  assert.ok(compactPaths(paths).length > MAX_LISTING_CHARS);
  const property = fieldsProperty(paths);
  assert.equal(property, { type: "array", description: "Fields to return", items: { type: "string" } });
  // Every tool of a big API carries it: 80 bytes of JSON, where the enum of 40 paths it replaced took ~1 KB.
  assert.ok(JSON.stringify(property).length <= 80, JSON.stringify(property));
  // A listing just within the length is kept whole.
  const short = Array.from({ length: 20 }, (_, i) => `n${i}`);
  assert.ok(compactPaths(short).length <= MAX_LISTING_CHARS);
  assert.match(String(fieldsProperty(short).description), /^Fields to return: n0, n1, .*, n19$/);
});

test.run();
