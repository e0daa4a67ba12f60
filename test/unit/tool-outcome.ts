import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  textResult,
  outcomeText,
  readToolResult,
  renderToolResult,
  textOutcome,
  valueOutcome,
  type ToolOutcome,
} from "../../runtime/src/api/tool-outcome.js";
import { mapResponse } from "../../runtime/src/upstream/result.js";
import { SchemaValidator } from "../../runtime/src/api/validation.js";
import { sampleTools } from "../support/runtime-fixture.js";

test("one model renders the 2025-06-18…2026-07-28 shape: content blocks, structuredContent, isError", () => {
  const outcome: ToolOutcome = {
    ok: false,
    parts: [
      { kind: "text", text: "t" },
      { kind: "media", media: "image", data: "AA==", mimeType: "image/png" },
      { kind: "media", media: "audio", data: "AA==", mimeType: "audio/wav" },
      { kind: "resource", uri: "upstream:/x", mimeType: "application/pdf", blob: "AA==" },
      { kind: "link", uri: "openapi://document", name: "doc", mimeType: "application/json" },
    ],
    value: { a: 1 },
    extra: { _meta: { k: "v" } },
  };
  const wire = renderToolResult(outcome);
  assert.equal(wire, {
    _meta: { k: "v" },
    content: [
      { type: "text", text: "t" },
      { type: "image", data: "AA==", mimeType: "image/png" },
      { type: "audio", data: "AA==", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "upstream:/x", mimeType: "application/pdf", blob: "AA==" } },
      { type: "resource_link", uri: "openapi://document", name: "doc", mimeType: "application/json" },
    ],
    structuredContent: { a: 1 },
    isError: true,
  });
  // Reading the wire shape back gives the model: code mode and page collection read it, never the wire fields.
  assert.equal(readToolResult(wire), outcome);
  assert.equal(renderToolResult(textOutcome("ok")), { content: [{ type: "text", text: "ok" }] });
  assert.equal(textResult("no", true), { content: [{ type: "text", text: "no" }], isError: true });
  assert.equal(renderToolResult(valueOutcome([1, 2])), {
    content: [{ type: "text", text: "[1,2]" }],
    structuredContent: [1, 2],
  });
  assert.is(
    outcomeText(
      readToolResult({
        content: [
          { type: "text", text: "a" },
          { type: "image", data: "", mimeType: "image/png" },
          { type: "text", text: "b" },
        ],
      }),
    ),
    "a\n\nb",
  );
});

test("upstream responses become outcomes first, rendered by the same renderer", () => {
  const tool = sampleTools().find((t) => t.name === "getPet")!;
  const result = mapResponse(
    tool,
    {
      status: 200,
      contentType: "application/json",
      body: Buffer.from('{"id":7,"name":"Rex"}'),
      method: "GET",
      path: "/pets/7",
    },
    new SchemaValidator(),
  );
  assert.equal(readToolResult(result).value, { id: 7, name: "Rex" });
  assert.ok(readToolResult(result).ok);
  // The text block holds the JSON as the API sent it, compact or indented, not serialised again.
  assert.is(outcomeText(readToolResult(result)), '{"id":7,"name":"Rex"}');
  const indented = '{\n    "id": 7,\n    "name": "Rex"\n}\n';
  const sent = { status: 200, contentType: "application/json", method: "GET", path: "/pets/7" };
  const shown = mapResponse(tool, { ...sent, body: Buffer.from(indented) }, new SchemaValidator());
  assert.is(outcomeText(readToolResult(shown)), indented);
  const failed = mapResponse(
    tool,
    { status: 404, contentType: "text/plain", body: Buffer.from("nope"), method: "GET", path: "/pets/8" },
    new SchemaValidator(),
  );
  assert.equal(failed, {
    content: [{ type: "text", text: "Upstream HTTP 404 Not Found for GET /pets/8: nope" }],
    isError: true,
  });
});

test.run();
