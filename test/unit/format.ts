import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { formatFiles, markdownPieces } from "../../generator/pipeline/emit/format.js";
import { repoRoot } from "../support/e2e.js";

/** The TypeScript files mcp-gen formats in a golden example (not the vendored runtime, nor the user's src/custom/). */
function goldenTypeScript(example: string): Array<{ path: string; content: string }> {
  const root = join(repoRoot, "generated", example);
  return readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts") && !path.startsWith("runtime") && !path.startsWith("custom"))
    .map((path) => ({ path: `src/${path}`, content: readFileSync(join(root, "src", path), "utf8") }));
}

test("prettier's TypeScript parser leaves the goldens' TypeScript (formatted with Babel's) as it is", async () => {
  const prettier = await import("prettier");
  const files = goldenTypeScript("petstore").concat(goldenTypeScript("oas31-library"));
  assert.ok(files.length >= 10, `${files.length} files`);
  for (const file of files) {
    const options = { printWidth: 100, trailingComma: "all", endOfLine: "lf", parser: "typescript" } as const;
    assert.fixture(await prettier.format(file.content, options), file.content, file.path);
  }
});

test("a TypeScript file Babel refuses is formatted by the TypeScript parser", async () => {
  // Babel refuses `override` in a class without a base class; TypeScript's parser leaves that to the type checker.
  const [file] = await formatFiles([{ path: "src/a.ts", content: "class A {   override m() {} }" }]);
  assert.is(file!.content, "class A {\n  override m() {}\n}\n");
});

test("the format stage leaves the vendored runtime, final data and (above 150 tools) the tool modules as they are", async () => {
  const messy = "export const a = {b:1}";
  const files = [
    { path: "src/index.ts", content: messy },
    { path: "src/runtime/server.ts", content: messy },
    { path: "data/tools.json", content: '{"a":1}', formatted: true },
    { path: "src/tools/pets.ts", content: messy },
    { path: "Dockerfile", content: "FROM  node" },
  ];
  const few = await formatFiles(files, 150);
  assert.equal(
    few.map((file) => file.content),
    ["export const a = { b: 1 };\n", messy, '{"a":1}', "export const a = { b: 1 };\n", "FROM  node"],
  );
  const many = await formatFiles(files, 151);
  assert.is(many[3]!.content, messy, "a tool module of a big API is left as printed");
  assert.is(many[0]!.content, "export const a = { b: 1 };\n");
});

const MARKDOWN = { printWidth: 100, trailingComma: "all", endOfLine: "lf", parser: "markdown" } as const;

/** The goldens' READMEs with each JSON code block laid out as JSON.stringify does (as the emit stage writes them). */
function goldenReadmes(): Array<{ path: string; formatted: string; raw: string }> {
  return readdirSync(join(repoRoot, "generated")).flatMap((example) =>
    ["README.md", "src/custom/README.md"]
      .filter((path) => existsSync(join(repoRoot, "generated", example, path)))
      .map((path) => {
        const formatted = readFileSync(join(repoRoot, "generated", example, path), "utf8");
        const raw = formatted.replace(/^```json\n([\s\S]*?)\n```$/gm, (_, body: string) =>
          ["```json", JSON.stringify(JSON.parse(body), null, 2), "```"].join("\n"),
        );
        return { path: `${example}/${path}`, formatted, raw };
      }),
  );
}

test("Markdown: code blocks formatted here, the rest by prettier, print what prettier's own embedding prints", async () => {
  const prettier = await import("prettier");
  const readmes = goldenReadmes();
  assert.ok(readmes.length >= 6);
  let changed = 0;
  for (const { path, formatted, raw } of readmes) {
    const pieces = markdownPieces(raw);
    assert.ok(pieces, `${path}: its code blocks are formatted here`);
    assert.ok(
      pieces!.some((piece) => "code" in piece),
      `${path} has a ts or json block`,
    );
    assert.fixture(await prettier.format(raw, MARKDOWN), formatted, `${path}, prettier alone`);
    const [file] = await formatFiles([{ path: "README.md", content: raw }], 1);
    assert.fixture(file!.content, formatted, path);
    if (raw !== formatted) changed += 1;
  }
  assert.ok(changed >= 5, `${changed} READMEs had JSON blocks to reformat`);
});

test("Markdown: a block prettier formats but this module does not (yaml), or a fence after text, leaves the file to prettier", async () => {
  const prettier = await import("prettier");
  for (const content of [
    "# T\n\n```yaml\na:   1\n```\n\n```ts\nconst a = {b:1}\n```\n",
    "# T\n\n- item\n\n  ```ts\n  const a = {b:1}\n  ```\n",
  ]) {
    assert.is(markdownPieces(content), undefined);
    const [file] = await formatFiles([{ path: "README.md", content }], 1);
    assert.is(file!.content, await prettier.format(content, MARKDOWN));
  }
});

test("Markdown: a code block that does not parse stays as written, as prettier leaves it", async () => {
  const prettier = await import("prettier");
  const content = '# T\n\n```ts\nconst = ;\n```\n\n```json\n{"a":[1,2]}\n```\n';
  const [file] = await formatFiles([{ path: "README.md", content }], 1);
  assert.is(file!.content, await prettier.format(content, MARKDOWN));
  assert.match(file!.content, /const = ;/);
  assert.match(file!.content, /\{ "a": \[1, 2\] \}/);
});

test.run();
