/**
 * Issue 36, class 1: boolean subschemas. OpenAPI 3.0 allows a boolean only as
 * `additionalProperties`; elsewhere it is read with a warning (MG116, with its pointer): `true` as
 * `{}`, a `false` property as one that cannot be sent (left out). In 3.1 booleans are valid and stay,
 * except as an argument's own schema. Either way the official SDK client lists every tool.
 */
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { generate } from "../../generator/pipeline/generate.js";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { listedTool } from "../../runtime/src/server/tool-catalog.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
type Obj = Record<string, unknown>;

/** The tools/list answer of a plan, parsed by the SDK (throws as the SDK client would). */
function sdkListing(tools: Parameters<typeof toolDefinition>[0][]): unknown {
  return ListToolsResultSchema.parse({ tools: tools.map((tool) => listedTool(toolDefinition(tool))) });
}

test("OpenAPI 3.0: booleans become objects, a false property is left out, each with a warning and its pointer", async () => {
  const { plan, diagnostics } = await generate({ spec: `${root}specs/fixtures/boolean-schemas.yaml`, planOnly: true });
  const warnings = diagnostics.filter((d) => d.code === "MG116");
  assert.equal(warnings.map((d) => d.pointer).sort(), [
    "#/components/schemas/NewPet/properties/additionalProperties",
    "#/components/schemas/Pet/allOf/1/properties/owner",
    "#/paths/~1pets~1{id}~1tags/put/requestBody/content/application~1json/schema/properties/extra",
    "#/paths/~1pets~1{id}~1tags/put/requestBody/content/application~1json/schema/properties/legacy",
    "#/paths/~1pets~1{id}~1tags/put/requestBody/content/application~1json/schema/properties/tags/items",
  ]);
  assert.ok(warnings.every((d) => d.severity === "warning"));
  assert.match(
    warnings.find((d) => d.pointer!.endsWith("/additionalProperties"))!.help!,
    /keyword additionalProperties written inside properties/,
  );
  const create = plan.tools.find((tool) => tool.name === "createPet")!;
  assert.equal(Object.keys(create.inputSchema.properties!), ["name", "age", "_fields"]);
  const tags = plan.tools.find((tool) => tool.name === "setTags")!;
  const properties = tags.inputSchema.properties as Obj;
  assert.equal(Object.keys(properties), ["id", "tags", "extra"]);
  assert.equal((properties.tags as Obj).items, {});
  assert.equal(properties.extra, {});
  // `legacy: false` was required: a property that cannot be sent is not required either.
  assert.equal(tags.inputSchema.required, ["id", "tags"]);
  sdkListing(plan.tools);
});

test("OpenAPI 3.1: booleans stay valid JSON Schema, but never as an argument's own schema", async () => {
  const { plan, diagnostics } = await generate({
    spec: `${root}specs/fixtures/boolean-schemas-31.yaml`,
    planOnly: true,
  });
  assert.equal(
    diagnostics.filter((d) => d.code === "MG116"),
    [],
  );
  const tool = plan.tools[0]!;
  const properties = tool.inputSchema.properties as Obj;
  // `true` read as `{}` (then the empty-value rule of query parameters: docs/guide/generated-project.md, How inputs are built).
  assert.equal(properties.trace, { minLength: 1 });
  assert.equal(properties.meta, {});
  assert.not.ok("internal" in properties);
  assert.equal((properties.tags as Obj).items, false);
  for (const [name, schema] of Object.entries(properties))
    assert.ok(schema !== null && typeof schema === "object", `${name} is an object`);
  sdkListing(plan.tools);
});

test.run();
