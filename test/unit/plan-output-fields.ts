import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  fieldsArgumentName,
  fieldsProperty,
  listOutputFields,
  MAX_FIELD_PATHS,
} from "../../generator/pipeline/plan/output-fields.js";
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
  // Not exact (an open path, or none known): any strings, whose form the description shows.
  assert.equal(fieldsProperty(["a", "b.*"]).items, { type: "string" });
  assert.equal(fieldsProperty([]).items, { type: "string" });
  // Every tool lists the argument: an enum shows the paths' form itself, only the open form carries
  // examples; the runtime checks the list's length and paths (result-step.ts), not the schema.
  const open = fieldsProperty(["a", "b.*"]);
  assert.match(String(open.description), /"items\[\]\.name"/);
  assert.not.match(String(fieldsProperty(["a", "b"]).description), /such as/);
  assert.not.ok("minItems" in open || "minItems" in fieldsProperty(["a", "b"]));
  // An operation with a parameter named _fields keeps it: the argument takes another underscore.
  assert.is(fieldsArgumentName({ type: "object", properties: { _fields: {} } }), "__fields");
  assert.is(fieldsArgumentName({ type: "object" }), "_fields");
});

test.run();
