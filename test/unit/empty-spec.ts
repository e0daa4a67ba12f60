import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { GenerationError } from "../../generator/shared/diagnostics.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-gen-empty-"));
const specs = {
  "version-only.yaml": "openapi: 3.0.0\n",
  "swagger.json": '{"swagger":"2.0"}',
  "no-methods.yaml": "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    summary: nothing to call\n",
};
for (const [name, text] of Object.entries(specs)) writeFileSync(join(dir, name), text);

test("a spec without operations is an error (MG102 at #/paths), whatever its version", async () => {
  for (const name of Object.keys(specs)) {
    const error = await generate({ spec: join(dir, name), planOnly: true }).then(
      () => assert.unreachable(`${name} must not generate`),
      (e: unknown) => e,
    );
    assert.instance(error, GenerationError, name);
    const errors = (error as GenerationError).diagnostics.filter((d) => d.severity === "error");
    assert.equal(
      errors.map((d) => [d.code, d.pointer]),
      [["MG102", "#/paths"]],
      name,
    );
    assert.match(errors[0]!.help!, /--allow-empty/);
  }
});

test("--allow-empty generates the server without tools, with a warning", async () => {
  const result = await generate({ spec: join(dir, "version-only.yaml"), planOnly: true, allowEmpty: true });
  assert.is(result.plan.tools.length, 0);
  assert.ok(result.diagnostics.some((d) => d.code === "MG102" && d.severity === "warning"));
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
