/**
 * Issue 36, item 6: an API that only grows must not change the tools it already had. A tool keeps
 * the output budget it was first given (the tool lock records it), and the diff compares output
 * schemas only as deep as both versions describe them, so a change of compaction is never read as a
 * change of the API.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { contractsOf } from "../../generator/pipeline/plan/changes/contracts-of.js";
import { diffTools } from "../../generator/pipeline/plan/changes/diff-tools.js";
import { compareSchemas } from "../../generator/pipeline/plan/changes/schema-changes.js";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import type { OperationIR } from "../../generator/pipeline/ir/ir-types.js";
import { outputNodeBudget } from "../../generator/pipeline/plan/output-compact.js";
import { planProject } from "../../generator/pipeline/plan/plan-project.js";
import { buildToolLock, parseToolLock } from "../../generator/pipeline/plan/tool-lock.js";
import { api, jsonBody, jsonResponse, operation, parameter, schemas } from "../support/factories.js";

/** A response of 80 typed properties: 81 typed nodes at depth 1, within a budget of 128 but not of 64. */
function thing(properties = 80): ReturnType<typeof schemas> {
  const props: Record<string, unknown> = {};
  for (let i = 0; i < properties; i++) props[`field${i}`] = { type: i % 2 === 0 ? "string" : "integer" };
  return schemas({
    Thing: { type: "object", required: ["field0"], properties: props },
    NewThing: { type: "object", required: ["name"], properties: { name: { type: "string", minLength: 1 } } },
  });
}

function ops(count: number): OperationIR[] {
  return Array.from({ length: count }, (_, i) =>
    operation({
      pointer: `#/paths/~1things${i}~1{id}/post`,
      method: "post",
      path: `/things${i}/{id}`,
      operationId: `thing${i}`,
      parameters: [parameter({ name: "id", in: "path" }), parameter({ name: "q", in: "query" })],
      requestBody: jsonBody({ $ref: "#/$defs/NewThing" }),
      responses: [jsonResponse("200", { $ref: "#/$defs/Thing" })],
    }),
  );
}

const unrelated = operation({
  pointer: "#/paths/~1health/get",
  method: "get",
  path: "/health",
  operationId: "health",
  responses: [jsonResponse("200", { type: "object", properties: { ok: { type: "boolean" } } })],
});

/** The lock as a regeneration reads it back from `.mcp-gen/tool-names.json`. */
const lockOf = (tools: Parameters<typeof buildToolLock>[0]) =>
  parseToolLock(JSON.parse(JSON.stringify(buildToolLock(tools))))!;

test("adding an unrelated operation leaves every other tool's inputSchema and outputSchema byte-identical", () => {
  const defs = thing();
  const first = planProject(api(ops(64), defs), {}, new DiagnosticBag());
  assert.is(first.tools[0]!.outputBudget, outputNodeBudget(64));
  // The new operation sits among the others, and the API crosses 64 tools (a new tool's share halves).
  const grown = ops(64);
  grown.splice(30, 0, unrelated);
  const second = planProject(api(grown, defs), { toolLock: lockOf(first.tools) }, new DiagnosticBag());
  assert.is(second.tools.length, 65);
  const after = new Map(second.tools.map((tool) => [tool.name, tool]));
  for (const tool of first.tools) {
    const again = after.get(tool.name)!;
    assert.is(JSON.stringify(again.inputSchema), JSON.stringify(tool.inputSchema), `${tool.name} inputSchema`);
    assert.is(JSON.stringify(again.outputSchema), JSON.stringify(tool.outputSchema), `${tool.name} outputSchema`);
  }
  // The newcomer gets the share of the grown API.
  assert.is(after.get("health")!.outputBudget, outputNodeBudget(65));
  // Without the lock the grown API's smaller share would have cut every output schema to names.
  const fresh = planProject(api(grown, defs), {}, new DiagnosticBag());
  const freshThing = fresh.tools.find((tool) => tool.name === "thing0")!;
  assert.is.not(JSON.stringify(freshThing.outputSchema), JSON.stringify(first.tools[0]!.outputSchema));
  // The regeneration's diff: one tool added, nothing else, a minor version.
  const diff = diffTools(contractsOf(first.tools), contractsOf(second.tools));
  assert.equal(diff.added, ["health"]);
  assert.equal(diff.changed, []);
  assert.is(diff.bump, "minor");
});

test("the diff reads a change of compaction as no change: a fresh plan of the grown API is not a break", () => {
  const defs = thing();
  const first = planProject(api(ops(64), defs), {}, new DiagnosticBag());
  const grown = [...ops(64), unrelated];
  // No lock (as `mcp-gen diff --no-keep-names`): the old tools get the smaller share, names only.
  const fresh = planProject(api(grown, defs), {}, new DiagnosticBag());
  assert.ok(fresh.tools[0]!.outputDetail! < first.tools[0]!.outputDetail!);
  const diff = diffTools(contractsOf(first.tools), contractsOf(fresh.tools));
  assert.equal(diff.changed, []);
  assert.is(diff.breaking, false);
  // A real change still shows at the detail both keep: a removed field is a break.
  const shrunk = planProject(api(grown, thing(79)), {}, new DiagnosticBag());
  const real = diffTools(contractsOf(first.tools), contractsOf(shrunk.tools));
  assert.is(real.breaking, true);
  assert.equal(
    real.changed.find((c) => c.name === "thing0")?.output.map((c) => `${c.at}: ${c.message}`),
    ["field79: field removed"],
  );
});

test("compareSchemas with a detail: types at the cut, nothing below, required names at -1", () => {
  const deep = {
    type: "object",
    properties: { owner: { type: "object", properties: { login: { type: "string" } } }, id: { type: "integer" } },
  };
  const cut = { type: "object", properties: { owner: { type: "object" }, id: { type: "integer" } } };
  // Whole comparison: the cut reads as a removed field.
  assert.equal(
    compareSchemas(deep, cut, "output").map((c) => c.message),
    ["field removed"],
  );
  assert.equal(compareSchemas(deep, cut, "output", "", undefined, 1), []);
  // At the cut a changed type is still a change.
  const retyped = { type: "object", properties: { owner: { type: "string" }, id: { type: "integer" } } };
  assert.equal(
    compareSchemas(deep, retyped, "output", "", undefined, 1).map((c) => `${c.at}: ${c.message}`),
    ["owner: type changed from object to string"],
  );
  // A union at the cut reads as the union of its types, as the compaction's typeOnly writes it.
  assert.equal(
    compareSchemas(
      { properties: { v: { anyOf: [{ type: "string" }, { type: "integer", minimum: 1 }] } } },
      { properties: { v: { type: ["string", "integer"] } } },
      "output",
      "",
      undefined,
      1,
    ),
    [],
  );
  // Names only: property names and required compared, their types not.
  const names = { type: "object", properties: { owner: {}, id: {} } };
  assert.equal(compareSchemas(deep, names, "output", "", undefined, 0), []);
  assert.equal(
    compareSchemas(deep, { type: "object", properties: { owner: {} } }, "output", "", undefined, 0).map(
      (c) => `${c.at}: ${c.message}`,
    ),
    ["id: field removed"],
  );
  // Required names only: a name no longer required is a break for consumers, a new one is not.
  assert.equal(
    compareSchemas(
      { required: ["a", "b"], properties: { a: {}, b: {} } },
      { required: ["b", "c"], properties: { b: {}, c: {} } },
      "output",
      "",
      undefined,
      -1,
    ).map((c) => `${c.at}: ${c.verdict} ${c.message}`),
    ["a: breaking field is no longer required", "c: compatible field is now required"],
  );
});

test("a lock entry's output budget is kept when valid and dropped when not", () => {
  const lock = parseToolLock({
    lockVersion: 1,
    tools: [
      { operation: "GET /a", tool: "a", outputBudget: 8 },
      { operation: "GET /b", tool: "b", outputBudget: 1_000 },
      { operation: "GET /c", tool: "c", outputBudget: "8" },
    ],
  })!;
  assert.equal(
    lock.tools.map((entry) => entry.outputBudget),
    [8, undefined, undefined],
  );
});

test.run();
