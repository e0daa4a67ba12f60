/**
 * The Handlebars templates precompiled by `npm run build` (scripts/build-templates.js, emit/publishing/
 * templates.ts): every template is in the module with the source it was compiled from (a template edited
 * since is compiled again), and the module loads as CommonJS with each template's code.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { precompiledTemplatesModule } from "../../generator/pipeline/emit/publishing/templates.js";

const root = new URL("../../../", import.meta.url).pathname;
const require = createRequire(import.meta.url);

type Precompiled = Record<string, { source: string; spec: { main?: unknown } }>;

/** Each template's name and text, from templates/. */
function templates(): Array<[string, string]> {
  const folder = join(root, "templates");
  return readdirSync(folder)
    .filter((name) => name.endsWith(".hbs"))
    .sort()
    .map((name) => [name, readFileSync(join(folder, name), "utf8")]);
}

test("the precompiled module holds every template with its source and code", () => {
  const file = join(mkdtempSync(join(tmpdir(), "mcp-gen-templates-")), "templates.cjs");
  writeFileSync(file, precompiledTemplatesModule());
  const loaded = require(file) as Precompiled;
  assert.equal(
    Object.keys(loaded),
    templates().map(([name]) => name),
  );
  for (const [name, source] of templates()) {
    assert.is(loaded[name]!.source, source, name);
    assert.type(loaded[name]!.spec.main, "function", name);
  }
});

test.run();
