import { test } from "uvu";
import * as assert from "uvu/assert";
import { cutAtBoundary, describeOperation } from "../../generator/pipeline/plan/describe.js";
import { operation } from "../support/factories.js";
import { ResourceCatalog } from "../../runtime/src/server/resources.js";
import type { ToolDefinition } from "../../runtime/src/api/types.js";

test("short descriptions are summary + description, the summary not repeated; deprecation marked", () => {
  assert.equal(describeOperation(operation({ summary: "List pets", description: "Returns all pets." }), "listPets"), {
    description: "List pets\n\nReturns all pets.",
  });
  assert.equal(
    describeOperation(operation({ summary: "List pets", description: "List pets of the store." }), "listPets"),
    { description: "List pets of the store." },
  );
  const deprecated = describeOperation(operation({ summary: "Old", deprecated: true }), "old");
  assert.is(deprecated.description, "Old\n\nDeprecated: this operation may be removed from the API.");
});

test("a long description is cut at a paragraph end and points to the documentation resource, which keeps the full text", () => {
  const paragraph = "This endpoint does many things. ".repeat(20).trim();
  const op = operation({
    summary: "Big one",
    description: `${paragraph}\n\n${paragraph}\n\n${paragraph}`,
    deprecated: true,
  });
  const plan = describeOperation(op, "big_one", 1_500);
  assert.ok(plan.description.length <= 1_500, String(plan.description.length));
  assert.match(plan.description, /things\.… \(full text: resource openapi:\/\/operations\/big_one\)\n\nDeprecated:/);
  assert.ok(plan.documentation?.startsWith("Big one\n\nThis endpoint"));
  assert.ok(plan.documentation?.endsWith("Deprecated: this operation may be removed from the API."));
  assert.is(plan.documentation!.length, 7 + 2 + paragraph.length * 3 + 4 + 2 + 55);
});

test("cutAtBoundary prefers paragraph, then sentence, then word ends", () => {
  assert.is(cutAtBoundary("aaaa aaaa.\n\nbbbb", 14), "aaaa aaaa.");
  assert.is(cutAtBoundary("One two three. Four five six seven", 24), "One two three.");
  assert.is(cutAtBoundary("alpha beta gamma delta", 15), "alpha beta");
});

test("the operation's documentation resource serves the original text; tools/list the model's", () => {
  const original = 'Lists things. For more information, see "[Paging](https://docs.example.com/paging)."';
  const plan = describeOperation(operation({ summary: "List things", description: original }), "list_things");
  assert.is(plan.description, "List things\n\nLists things.");
  assert.is(plan.documentation, `List things\n\n${original}`);
  const tool: ToolDefinition = {
    name: "list_things",
    ...plan,
    inputSchema: { type: "object", properties: {} },
    http: { method: "get", path: "/things", parameters: [], response: { accept: ["application/json"] } },
  };
  const [doc] = new ResourceCatalog([tool]).read("openapi://operations/list_things") ?? [];
  assert.match(doc!.text, /\[Paging\]\(https:\/\/docs\.example\.com\/paging\)/);
});

test.run();
