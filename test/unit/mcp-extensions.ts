import { test } from "uvu";
import * as assert from "uvu/assert";
import { Codes, DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { buildIR } from "../../generator/pipeline/ir/build-ir.js";
import { planProject } from "../../generator/pipeline/plan/plan-project.js";
import type { ProjectPlan, ToolPlan } from "../../generator/pipeline/plan/plan-types.js";
import { toolDefinition } from "../../generator/pipeline/emit/typescript/tool-file.js";
import { diffTools } from "../../generator/pipeline/plan/changes/diff-tools.js";
import { contractsOf } from "../../generator/pipeline/plan/changes/contracts-of.js";
import { buildToolLock } from "../../generator/pipeline/plan/tool-lock.js";
import { outputNodeBudget } from "../../generator/pipeline/plan/output-compact.js";
import { api, operation } from "../support/factories.js";

type Obj = Record<string, unknown>;

/** A small API; `get`, `post` and `del` add extensions to its operations, `tags` to its tag list. */
function document(extra: { get?: Obj; post?: Obj; del?: Obj; tags?: Obj } = {}): Obj {
  return {
    openapi: "3.1.0",
    info: { title: "Pets", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    tags: [{ name: "pets", ...extra.tags }, { name: "store" }],
    paths: {
      "/pets": {
        get: { operationId: "listPets", tags: ["pets"], summary: "List pets", responses: {}, ...extra.get },
        post: { operationId: "createPet", tags: ["pets"], summary: "Create a pet", responses: {}, ...extra.post },
      },
      "/pets/{id}": {
        delete: {
          operationId: "deletePet",
          tags: ["pets"],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {},
          ...extra.del,
        },
      },
      "/store": { get: { operationId: "getInventory", tags: ["store"], responses: {} } },
    },
  };
}

function plan(doc: Obj, bag = new DiagnosticBag(), options: Parameters<typeof planProject>[1] = {}): ProjectPlan {
  const ir = buildIR({ location: "spec.json", version: "3.1", document: doc, sha256: "" }, bag);
  return planProject(ir, options, bag);
}
const tool = (p: ProjectPlan, name: string): ToolPlan => p.tools.find((t) => t.name === name)!;
const invalid = (bag: DiagnosticBag) =>
  bag.items.filter((d) => d.code === Codes.extensionInvalid).map((d) => [d.severity, d.pointer]);

test("x-mcp-name renames the tool and wins over the name lock; the diff reports a rename", () => {
  const before = plan(document());
  const p = plan(document({ post: { "x-mcp-name": "add_pet" } }), new DiagnosticBag(), {
    toolLock: buildToolLock(before.tools),
  });
  assert.equal(
    p.tools.map((t) => t.name),
    ["listPets", "add_pet", "deletePet", "getInventory"],
  );
  const diff = diffTools(contractsOf(before.tools), contractsOf(p.tools));
  assert.equal(
    diff.changed.map((c) => [c.previousName, c.name]),
    [["createPet", "add_pet"]],
  );
  assert.is(diff.bump, "major");
});

test("x-mcp-name: an invalid or taken name is MG122 (warning) and the tool keeps its own name", () => {
  const bag = new DiagnosticBag();
  const p = plan(document({ get: { "x-mcp-name": "bad name!" }, post: { "x-mcp-name": "deletepet" } }), bag);
  assert.equal(
    p.tools.map((t) => t.name),
    ["listPets", "deletepet", "deletePet_2", "getInventory"],
    "a name given wins over an operationId (case-insensitive uniqueness)",
  );
  const second = new DiagnosticBag();
  plan(document({ get: { "x-mcp-name": "same" }, post: { "x-mcp-name": "same" } }), second);
  assert.equal(invalid(bag), [["warning", "#/paths/~1pets/get/x-mcp-name"]]);
  assert.equal(invalid(second), [["warning", "#/paths/~1pets/post/x-mcp-name"]]);
});

test("x-mcp-title and x-mcp-description replace the summary and description; deprecation is still said", () => {
  const p = plan(
    document({
      get: { "x-mcp-title": "Pets", "x-mcp-description": "Every pet, newest first.", deprecated: true },
    }),
  );
  const listed = tool(p, "listPets");
  assert.is(listed.title, "Pets");
  assert.match(listed.description, /^Every pet, newest first\.\n\nDeprecated/);
  assert.not.match(listed.description, "List pets");
  const bag = new DiagnosticBag();
  plan(document({ get: { "x-mcp-title": "", "x-mcp-description": 3 } }), bag);
  assert.equal(invalid(bag), [
    ["warning", "#/paths/~1pets/get/x-mcp-title"],
    ["warning", "#/paths/~1pets/get/x-mcp-description"],
  ]);
});

test("x-mcp-annotations replaces the method's hints (MCP names accepted too); wrong hints are MG122", () => {
  const p = plan(
    document({
      post: { "x-mcp-annotations": { destructive: true, idempotentHint: true, openWorld: false } },
      del: { "x-mcp-annotations": { readOnly: true } },
    }),
  );
  assert.equal(tool(p, "createPet").annotations, {
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  });
  assert.equal(tool(p, "deletePet").annotations, { readOnlyHint: true }, "read-only drops the write hints");
  assert.equal(tool(p, "listPets").annotations, { readOnlyHint: true });
  const bag = new DiagnosticBag();
  const kept = plan(document({ post: { "x-mcp-annotations": { destructive: "yes" } } }), bag);
  assert.equal(tool(kept, "createPet").annotations, { destructiveHint: false });
  plan(document({ post: { "x-mcp-annotations": { dangerous: true } } }), bag);
  assert.equal(invalid(bag).length, 2);
});

test("x-mcp-hidden on an operation or on a tag leaves its tools out; false on an operation overrides its tag", () => {
  const bag = new DiagnosticBag();
  const hidden = plan(document({ del: { "x-mcp-hidden": true } }), bag);
  assert.equal(
    hidden.tools.map((t) => t.name),
    ["listPets", "createPet", "getInventory"],
  );
  assert.ok(bag.items.some((d) => d.code === Codes.operationSkipped && /x-mcp-hidden hides 1 of 4/.test(d.message)));
  const byTag = plan(document({ tags: { "x-mcp-hidden": true }, get: { "x-mcp-hidden": false } }));
  assert.equal(
    byTag.tools.map((t) => t.name),
    ["listPets", "getInventory"],
  );
  const none = new DiagnosticBag();
  plan(document({ tags: { "x-mcp-hidden": "yes" } }), none);
  assert.equal(invalid(none), [["warning", "#/tags/0/x-mcp-hidden"]]);
});

test("hiding leaves the other tools' output-schema budget as it was (sized by the operations before hiding)", () => {
  // 128 operations share the API's output budget (64 nodes each); hiding half must not double the rest's.
  const ops = (hide: boolean) =>
    Array.from({ length: 128 }, (_, i) =>
      operation({
        pointer: `#/paths/~1r${i}/get`,
        path: `/r${i}`,
        operationId: `op${i}`,
        ...(hide && i % 2 === 1 ? { mcp: { hidden: true } } : {}),
      }),
    );
  const budgets = (p: ProjectPlan) => new Set(p.tools.map((t) => t.outputBudget));
  const all = planProject(api(ops(false)), {}, new DiagnosticBag());
  const halfHidden = planProject(api(ops(true)), {}, new DiagnosticBag());
  assert.is(halfHidden.tools.length, 64);
  assert.equal(budgets(halfHidden), budgets(all));
  assert.equal([...budgets(all)], [outputNodeBudget(128)]);
});

test("hiding keeps the other tools' names: a hidden operation's name is not given to another", () => {
  const doc = document({ post: { operationId: "listPets" }, get: { "x-mcp-hidden": true } });
  assert.equal(
    plan(doc).tools.map((t) => t.name),
    ["listPets_2", "deletePet", "getInventory"],
  );
});

test("x-mcp-toolset lists a tool under that toolset instead of its tags; a tag's is its operations' default", () => {
  const p = plan(document({ tags: { "x-mcp-toolset": "animals" }, post: { "x-mcp-toolset": "writes" } }));
  assert.equal(tool(p, "listPets").tags, ["animals"]);
  assert.equal(tool(p, "createPet").tags, ["writes"]);
  assert.equal(tool(p, "getInventory").tags, ["store"]);
  assert.equal(toolDefinition(tool(p, "createPet")).tags, ["writes"]);
  const bag = new DiagnosticBag();
  plan(document({ post: { "x-mcp-toolset": "a,b" } }), bag);
  assert.equal(invalid(bag), [["warning", "#/paths/~1pets/post/x-mcp-toolset"]]);
});

test("x-mcp-confirm marks the tool's definition and brings in the confirm feature", () => {
  const p = plan(document({ post: { "x-mcp-confirm": true } }));
  assert.is(toolDefinition(tool(p, "createPet")).confirm, true);
  assert.is(toolDefinition(tool(p, "listPets")).confirm, undefined);
  assert.ok(p.features.includes("confirm"));
  assert.match(p.addedFeatures.confirm!, "x-mcp-confirm");
  assert.not.ok(plan(document()).features.includes("confirm"));
  const bag = new DiagnosticBag();
  plan(document({ post: { "x-mcp-confirm": "always" } }), bag);
  assert.equal(invalid(bag), [["warning", "#/paths/~1pets/post/x-mcp-confirm"]]);
});

test("x-mcp-fields and x-mcp-result-budget become the tool's result defaults; bad values are MG122", () => {
  const json = {
    "200": {
      description: "ok",
      content: {
        "application/json": {
          schema: {
            type: "array",
            items: { type: "object", properties: { id: { type: "integer" }, owner: { properties: { name: {} } } } },
          },
        },
      },
    },
  };
  const p = plan(
    document({ get: { responses: json, "x-mcp-fields": ["id", "owner.name"], "x-mcp-result-budget": 2000 } }),
  );
  const response = toolDefinition(tool(p, "listPets")).http.response;
  assert.equal(response.defaultFields, ["id", "owner.name"]);
  assert.is(response.budgetTokens, 2000);
  assert.is(toolDefinition(tool(p, "createPet")).http.response.defaultFields, undefined);

  const bag = new DiagnosticBag();
  const bad = plan(
    document({
      get: { responses: json, "x-mcp-fields": ["idd"], "x-mcp-result-budget": 10 },
      post: { "x-mcp-fields": ["id"] },
      del: { "x-mcp-fields": "id", "x-mcp-result-budget": 1.5 },
    }),
    bag,
  );
  assert.equal(invalid(bag), [
    ["warning", "#/paths/~1pets/get/x-mcp-result-budget"],
    ["warning", "#/paths/~1pets~1{id}/delete/x-mcp-fields"],
    ["warning", "#/paths/~1pets~1{id}/delete/x-mcp-result-budget"],
    ["warning", "#/paths/~1pets/get/x-mcp-fields"],
    ["warning", "#/paths/~1pets/post/x-mcp-fields"],
  ]);
  const unknown = bag.items.find((d) => d.pointer === "#/paths/~1pets/get/x-mcp-fields");
  assert.match(unknown!.message, /unknown path\(s\) "idd" \(known near them: id/);
  const response2 = toolDefinition(tool(bad, "listPets")).http.response;
  assert.is(response2.defaultFields, undefined);
  assert.is(response2.budgetTokens, undefined);
});

test.run();
