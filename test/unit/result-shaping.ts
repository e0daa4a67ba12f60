import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  checkFields,
  nearestPaths,
  pathSegments,
  projectFields,
  topLevelPaths,
} from "../../runtime/src/upstream/result-fields.js";
import { identifyingKeys, isIdentifyingName } from "../../runtime/src/upstream/result-identity.js";
import { dropEmpty, shrinkToBudget } from "../../runtime/src/upstream/result-budget.js";
import { shapeResult } from "../../runtime/src/upstream/result-shape.js";
import { jsonAnswer } from "../support/runtime-fixture.js";
import { charsOfTokens, estimateTokens } from "../../runtime/src/upstream/result-tokens.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import type { CallToolResult } from "../../runtime/src/api/mcp-types.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";

/** A list item like an API's: identifiers, long prose, URLs, nested objects and arrays of them. */
function item(i: number): Record<string, unknown> {
  return {
    id: 1000 + i,
    node_id: `N_${i}`,
    number: i + 1,
    title: `Item ${i + 1}`,
    state: i % 2 ? "open" : "closed",
    body: "x".repeat(3_000),
    html_url: `https://example.test/items/${i + 1}`,
    closed_at: null,
    user: { login: `user${i}`, id: 50 + i, avatar_url: "https://example.test/a.png", site_admin: false },
    labels: [{ id: 7, name: "bug", color: "f00", description: "something broke".repeat(10) }],
    head: { ref: "main", sha: "a".repeat(40), repo: { id: 9, full_name: "o/r", owner: { login: "o" } } },
    meta: {},
  };
}

const validator = new SchemaValidator();

function listTool(outputSchema?: Record<string, unknown>): ToolDefinition {
  return {
    name: "items_list",
    description: "",
    inputSchema: { type: "object" },
    ...(outputSchema ? { outputSchema: outputSchema as ToolDefinition["outputSchema"] } : {}),
    http: {
      method: "get",
      path: "/items",
      parameters: [],
      response: { accept: ["application/json"], wrapKey: "result", fallbackKey: "unexpectedResponse" },
    },
  };
}

const wrappedListSchema = {
  type: "object",
  anyOf: [
    {
      properties: { result: { type: "array", items: { type: "object", required: ["id", "body"] } } },
      required: ["result"],
    },
    { properties: { unexpectedResponse: {} }, required: ["unexpectedResponse"] },
  ],
};

function listResult(body: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: { result: body } };
}

test("paths: [] markers are optional, unknown paths name the nearest known ones", () => {
  assert.equal(pathSegments("labels[].name"), ["labels", "name"]);
  const known = ["number", "title", "user", "user.login", "labels[]", "labels[].name", "head.repo.*"];
  const ok = checkFields(["number", "labels.name", "head.repo.owner.login"], known);
  assert.equal(ok, { ok: true, paths: [["number"], ["labels", "name"], ["head", "repo", "owner", "login"]] });
  const bad = checkFields(["titel", "user.logn", "head.sha"], known);
  assert.ok(!bad.ok);
  if (!bad.ok) {
    assert.equal(bad.unknown, ["titel", "user.logn", "head.sha"]);
    assert.ok(bad.nearest.includes("title") && bad.nearest.includes("user.login"), bad.nearest.join());
  }
  assert.equal(checkFields([""], known).ok, false);
  // Without a list (no schema), any path goes.
  assert.equal(checkFields(["a.b"], []).ok, true);
  assert.equal(nearestPaths(["nmber"], known, 1), ["number"]);
  // A refusal also lists the fields one name deep, lists and open objects as they are listed.
  assert.equal(topLevelPaths([...known, "extra.*"]), ["number", "title", "user", "labels[]", "extra.*"]);
});

test("projection crosses arrays and keeps the selected properties only", () => {
  const body = [item(0), item(1)];
  const projected = projectFields(body, [["number"], ["title"], ["user", "login"], ["labels", "name"]]);
  assert.equal(projected, [
    { number: 1, title: "Item 1", user: { login: "user0" }, labels: [{ name: "bug" }] },
    { number: 2, title: "Item 2", user: { login: "user1" }, labels: [{ name: "bug" }] },
  ]);
  // A name inherited from Object.prototype selects nothing it does not own.
  assert.equal(projectFields({ a: 1 }, [["constructor"]]), {});
});

test("identifying fields: a general rule on names, the schema's names first", () => {
  for (const name of ["id", "node_id", "displayName", "issue-key", "title", "number", "state", "login"])
    assert.ok(isIdentifyingName(name), name);
  for (const name of ["body", "avatar_url", "description", "identity"]) assert.not.ok(isIdentifyingName(name), name);
  const value = { id: 1, name: "n", url: "u", nested: { id: 2 } };
  assert.equal(identifyingKeys(value), ["id", "name"]);
  assert.equal(identifyingKeys(value, { type: "object", properties: { name: {}, url: {} } }), ["name"]);
});

test("the budget: empties, then nested objects, then strings, then identifiers, items dropped last", () => {
  assert.equal(dropEmpty({ a: null, b: "", c: [], d: {}, e: [null, 1], f: { g: null } }), { e: [1] });
  const body = Array.from({ length: 30 }, (_, i) => item(i));
  const small = shrinkToBudget(body, 1_000_000);
  assert.equal(small.steps, []);
  assert.is(small.value, body);

  const collapsed = shrinkToBudget(body, 100_000);
  assert.equal(collapsed.steps.length, 2);
  const first = (collapsed.value as Record<string, unknown>[])[0]!;
  assert.equal(first.user, { login: "user0", id: 50 });
  assert.equal(first.labels, [{ id: 7, name: "bug" }]);
  assert.is(first.closed_at, undefined);

  const identified = shrinkToBudget(body, 3_000);
  assert.ok(identified.text.length <= 3_000);
  const items = identified.value as Record<string, unknown>[];
  assert.is(items.length, 30, "every item is kept with its identifiers before any is dropped");
  assert.equal(items[29], { id: 1029, node_id: "N_29", number: 30, title: "Item 30", state: "open" });
  assert.ok(identified.fieldsLeftOut.includes("body") && identified.fieldsLeftOut.includes("user"));

  // What the budget leaves room for beyond the identifiers is filled with the same fields for every item.
  const filled = shrinkToBudget(body, 6_000);
  const filledItems = filled.value as Record<string, unknown>[];
  assert.ok(filled.text.length <= 6_000 && filled.text.length > 3_000, String(filled.text.length));
  assert.ok(filledItems.every((one) => typeof one.html_url === "string" && one.number !== undefined));

  const dropped = shrinkToBudget(body, 1_000);
  assert.ok(dropped.text.length <= 1_000);
  assert.ok(dropped.items && dropped.items.total === 30 && dropped.items.shown > 0 && dropped.items.shown < 30);
});

test("the budget keeps the fields a view shows (keep) before the others, in every item", () => {
  const body: Array<Record<string, unknown>> = Array.from({ length: 30 }, (_, i) => ({
    ...item(i),
    locked: i % 3 === 0,
    draft: false,
  }));
  const plain = shrinkToBudget(body, 3_500).value as Record<string, unknown>[];
  // Without a view the room beyond the identifiers goes to the fields that come first (user…).
  assert.ok(plain.every((one) => one.user !== undefined && one.locked === undefined && one.draft === undefined));
  const shown = shrinkToBudget(body, 3_500, undefined, ["draft", "locked"]);
  const items = shown.value as Record<string, unknown>[];
  assert.ok(shown.text.length <= 3_500);
  assert.is(items.length, 30);
  assert.equal(
    items.map((one) => [one.number, one.locked, one.draft]),
    body.map((one) => [one.number, one.locked, one.draft]),
  );
});

test("the budget keeps an envelope and shrinks its longest list (a page object)", () => {
  const page = {
    object: "list",
    has_more: true,
    url: "/v1/things",
    data: Array.from({ length: 30 }, (_, i) => item(i)),
  };
  const shrunk = shrinkToBudget(page, 4_000);
  const value = shrunk.value as { has_more: boolean; data: unknown[] };
  assert.is(value.has_more, true);
  assert.is(value.data.length, 30);
  assert.ok(shrunk.text.length <= 4_000);
});

/** Every class of body a tool may return: never cut in the middle of its JSON, always within the budget. */
test("no result is cut mid-JSON: objects, arrays, deep nesting, huge strings, non-JSON text", () => {
  let deep: Record<string, unknown> = { id: 0, leaf: "v".repeat(500) };
  for (let i = 1; i < 200; i++) deep = { id: i, name: `level ${i}`, child: deep, extra: "e".repeat(100) };
  const classes: Record<string, unknown> = {
    object: { ...item(0), many: Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`k${i}`, i])) },
    array: Array.from({ length: 500 }, (_, i) => item(i)),
    scalars: Array.from({ length: 20_000 }, (_, i) => i),
    deep,
    hugeString: { id: 1, text: "s".repeat(200_000) },
    hugeIdentifier: [{ id: "i".repeat(50_000) }],
    bareString: "b".repeat(100_000),
  };
  const budget = 1_000;
  for (const [name, body] of Object.entries(classes)) {
    const shaped = shapeResult(listTool(), listResult(body), { budgetTokens: budget }, validator);
    const text = (shaped.result.content[0] as { text: string }).text;
    assert.ok(text.length <= charsOfTokens(budget), `${name}: ${text.length}`);
    JSON.parse(text); // throws when cut mid-JSON
    assert.ok(shaped.leftOut === JSON.stringify(body), `${name}: the full body is kept for the link`);
  }
  const prose = "line of prose\n".repeat(10_000);
  const textOnly = shapeResult(
    listTool(),
    { content: [{ type: "text", text: prose }] },
    { budgetTokens: budget },
    validator,
  );
  const shown = (textOnly.result.content[0] as { text: string }).text;
  assert.ok(shown.length < charsOfTokens(budget) + 200 && shown.includes("more characters left out"));
  assert.is(textOnly.leftOut, prose);
});

test("within the budget and without fields, a result is returned as it came", () => {
  const result = listResult([item(0)]);
  const shaped = shapeResult(listTool(wrappedListSchema), result, { budgetTokens: 10_000 }, validator);
  assert.is(shaped.result, result);
  assert.is(shaped.leftOut, undefined);
  assert.is(estimateTokens("abcdef"), 2);
});

test("structuredContent stays valid: shaped in place, or in the fallback shape when required fields go", () => {
  const body = Array.from({ length: 30 }, (_, i) => item(i));
  const tool = listTool(wrappedListSchema);
  const fine = shapeResult(tool, listResult(body), { budgetTokens: 100_000, fields: [["id"], ["body"]] }, validator);
  assert.equal((fine.result.structuredContent as { result: unknown[] }).result[0], {
    id: 1000,
    body: "x".repeat(3_000),
  });
  const projected = shapeResult(tool, listResult(body), { budgetTokens: 10_000, fields: [["number"]] }, validator);
  const fallback = (
    projected.result.structuredContent as { unexpectedResponse: { body: unknown[]; problems: string[] } }
  ).unexpectedResponse;
  assert.equal(fallback.body[0], { number: 1 });
  assert.match(fallback.problems[0]!, /chosen fields/);
  assert.ok(validator.validate(tool.outputSchema!, projected.result.structuredContent, "output").ok);
  const text = JSON.parse((projected.result.content[0] as { text: string }).text) as unknown[];
  assert.is(text.length, 30);
  // The budget's note says what was left out and how to get it.
  const shrunk = shapeResult(tool, listResult(body), { budgetTokens: 1_000, fieldsArgument: "_fields" }, validator);
  const note = (shrunk.result.content[1] as { text: string }).text;
  assert.match(note, /Fields left out: .*body/);
  assert.match(note, /_fields/);
});

test("a page that goes into the fallback shape keeps its nextCursor beside it", () => {
  const body = Array.from({ length: 30 }, (_, i) => item(i));
  const schema = { ...wrappedListSchema, properties: { nextCursor: { type: "string" } } };
  const paged: CallToolResult = { ...listResult(body), structuredContent: { result: body, nextCursor: "c2" } };
  const shaped = shapeResult(listTool(schema), paged, { budgetTokens: 10_000, fields: [["number"]] }, validator);
  const structured = shaped.result.structuredContent as Record<string, unknown>;
  assert.ok("unexpectedResponse" in structured);
  assert.is(structured.nextCursor, "c2");
  assert.ok(validator.validate(schema, structured, "output").ok);
});

/** The fallback shape of a shaped result's `structuredContent` (the test's tools name it unexpectedResponse). */
function fallbackOf(result: CallToolResult): Record<string, unknown> {
  const structured = result.structuredContent as { unexpectedResponse?: Record<string, unknown> };
  assert.ok(structured.unexpectedResponse, JSON.stringify(structured).slice(0, 200));
  return structured.unexpectedResponse;
}

test("the fallback shape says why it is used: the budget (and the items it kept), the chosen fields", () => {
  const body = Array.from({ length: 30 }, (_, i) => item(i));
  const tool = listTool(wrappedListSchema);
  // A budget that keeps every item but not their required `body`: no items left out, so no `items`.
  const fieldsOut = fallbackOf(shapeResult(tool, listResult(body), { budgetTokens: 1_500 }, validator).result);
  assert.is(fieldsOut.reason, "budget");
  assert.is((fieldsOut.body as unknown[]).length, 30);
  assert.is(fieldsOut.items, undefined);
  // A smaller one leaves items out too: `items` says how many are shown of how many, as the note does.
  const shrunk = shapeResult(tool, listResult(body), { budgetTokens: 600 }, validator).result;
  const fewer = fallbackOf(shrunk);
  const shown = (fewer.body as unknown[]).length;
  assert.ok(shown > 0 && shown < 30, String(shown));
  assert.is(fewer.reason, "budget");
  assert.equal(fewer.items, { shown, total: 30 });
  assert.match((shrunk.content[1] as { text: string }).text, `${shown} of 30 items are shown`);
  assert.ok(validator.validate(tool.outputSchema!, shrunk.structuredContent, "output").ok);
  // The caller's fields leave out a required one: "fields", however large the budget.
  const projected = shapeResult(tool, listResult(body), { budgetTokens: 100_000, fields: [["number"]] }, validator);
  assert.is(fallbackOf(projected.result).reason, "fields");
});

test("a response that did not match is marked so, and keeps that reason when the budget shortens it", () => {
  const tool = listTool(wrappedListSchema);
  // The API's items lack the documented `body`: the response itself misses the shape.
  const body = Array.from({ length: 30 }, (_, i) => ({ ...item(i), body: undefined, text: "y".repeat(3_000) }));
  const mapped = jsonAnswer(tool, body, validator);
  const received = fallbackOf(mapped);
  assert.is(received.reason, "response");
  assert.is(received.status, 200);
  const shrunk = shapeResult(tool, mapped, { budgetTokens: 600 }, validator).result;
  const fallback = fallbackOf(shrunk);
  assert.is(fallback.reason, "response");
  assert.is(fallback.status, 200);
  const shown = (fallback.body as unknown[]).length;
  assert.ok(shown > 0 && shown < 30, String(shown));
  assert.equal(fallback.items, { shown, total: 30 });
});

test.run();
