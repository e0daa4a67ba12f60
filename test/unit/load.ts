import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { DiagnosticBag } from "../../generator/shared/diagnostics.js";
import { loadSpec } from "../../generator/pipeline/load/load-spec.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-gen-load-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

test("detects Swagger 2.0, OpenAPI 3.0 and 3.1", async () => {
  for (const [header, version] of [
    ["swagger: '2.0'", "2.0"],
    ["openapi: 3.0.3", "3.0"],
    ["openapi: 3.1.0", "3.1"],
  ] as const) {
    const bag = new DiagnosticBag();
    const spec = await loadSpec(
      file(`v${version}.yaml`, `${header}\ninfo: {title: T, version: '1'}\npaths: {}\n`),
      {},
      bag,
    );
    assert.is(spec?.version, version);
    assert.not.ok(bag.hasErrors);
  }
});

test("an unresolved $ref is an error at the pointer of the reference", async () => {
  const bag = new DiagnosticBag();
  const spec = await loadSpec(
    file(
      "broken.json",
      JSON.stringify({
        openapi: "3.0.0",
        info: { title: "T", version: "1" },
        paths: { "/a/{b}": { get: { responses: { "200": { $ref: "#/components/responses/Nope" } } } } },
      }),
    ),
    {},
    bag,
  );
  assert.is(spec, undefined);
  assert.equal(
    bag.items.map((d) => [d.severity, d.code, d.pointer]),
    [["error", "MG005", "#/paths/~1a~1{b}/get/responses/200"]],
  );
});

test("a $ref inside an example is data, not a reference", async () => {
  const bag = new DiagnosticBag();
  const doc = {
    openapi: "3.1.0",
    info: { title: "T", version: "1" },
    paths: {},
    components: { schemas: { A: { type: "object", example: { $ref: "#/nowhere" } } } },
  };
  assert.ok(await loadSpec(file("example-ref.json", JSON.stringify(doc)), {}, bag));
  assert.not.ok(bag.hasErrors);
});

test("syntax errors name the line; non-OpenAPI documents and missing files are errors", async () => {
  let bag = new DiagnosticBag();
  await loadSpec(file("bad.yaml", "openapi: 3.0.0\ninfo:\n  title: [oops\n"), {}, bag);
  assert.is(bag.items[0]!.code, "MG002");
  assert.match(bag.items[0]!.message, /bad\.yaml:\d+:\d+/);
  // One indentation error: the parser reports 2 (5 for a longer file), all at or after it; the first only is shown.
  bag = new DiagnosticBag();
  const indented =
    "openapi: 3.0.3\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n         description: ok\n          content: {}\n";
  await loadSpec(file("indent.yaml", indented), {}, bag);
  assert.equal(
    bag.items.map((d) => [d.code, d.message.replace(/^.*indent\.yaml/, "")]),
    [["MG002", ":7:23: Nested mappings are not allowed in compact mappings"]],
  );
  bag = new DiagnosticBag();
  await loadSpec(file("other.yaml", "name: not an api\n"), {}, bag);
  assert.is(bag.items[0]!.code, "MG003");
  bag = new DiagnosticBag();
  await loadSpec(join(dir, "missing.yaml"), {}, bag);
  assert.is(bag.items[0]!.code, "MG001");
});

test("remote specs and remote $refs need --allow-remote", async () => {
  let bag = new DiagnosticBag();
  assert.is(await loadSpec("https://example.invalid/openapi.yaml", {}, bag), undefined);
  assert.is(bag.items[0]!.code, "MG006");
  bag = new DiagnosticBag();
  const doc = {
    openapi: "3.0.0",
    info: { title: "T", version: "1" },
    paths: {},
    components: { schemas: { A: { $ref: "https://example.invalid/a.json" } } },
  };
  await loadSpec(file("remote-ref.json", JSON.stringify(doc)), {}, bag);
  assert.equal(
    bag.items.map((d) => [d.code, d.pointer]),
    [["MG006", "#/components/schemas/A"]],
  );
});

test("schema violations are warnings with pointers, not errors", async () => {
  const bag = new DiagnosticBag();
  const spec = await loadSpec(
    file(
      "invalid.yaml",
      "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {}\n",
    ),
    {},
    bag,
  );
  assert.ok(spec);
  assert.ok(bag.items.length > 0);
  assert.ok(bag.items.every((d) => d.severity === "warning" && d.code === "MG101"));
  assert.ok(
    bag.items.some((d) => d.pointer?.startsWith("#/paths/~1a/get/responses/200")),
    JSON.stringify(bag.items),
  );
});

test("external file $refs are bundled into one document", async () => {
  file("pet.yaml", "type: object\nproperties:\n  name: {type: string}\n");
  const bag = new DiagnosticBag();
  const spec = await loadSpec(
    file(
      "main.yaml",
      "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /p:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: './pet.yaml'}\n",
    ),
    {},
    bag,
  );
  assert.not.ok(bag.hasErrors, JSON.stringify(bag.items));
  const json = JSON.stringify(spec!.document);
  assert.not.match(json, /pet\.yaml/);
  assert.match(json, /"name":\{"type":"string"\}/);
});

test.run();
