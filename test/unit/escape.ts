/**
 * Per-format escaping of spec text (generator/pipeline/emit/publishing/escape.ts), and a lint of the templates: every
 * interpolation goes through a format helper unless it prints a value the generator itself made safe.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  envValue,
  markdownCell,
  markdownCode,
  markdownFence,
  oneLine,
  shellWord,
} from "../../generator/pipeline/emit/publishing/escape.js";

test("oneLine turns every line terminator and control character into a space", () => {
  assert.is(oneLine("a\nb\r\nc\rd\u2028e\u2029f\u0085g\u000bh\u000ci\u0000j"), "a b c d e f g h i j");
  assert.is(oneLine(undefined), "");
});

test("markdownFence: spec text with backtick runs cannot close the code block", () => {
  assert.is(markdownFence("json", "{}"), "```json\n{}\n```");
  const block = markdownFence("json", '{"x": "a ```` b"}');
  assert.ok(block.startsWith("`````json\n") && block.endsWith("\n`````"), block);
});

test("markdownCell and markdownCode keep the text inside its cell and span", () => {
  assert.is(markdownCell("a | b\nc"), "a \\| b c");
  assert.is(markdownCode("plain"), "`plain`");
  assert.is(markdownCode("a`b"), "``a`b``");
  assert.is(markdownCode("`x``"), "``` `x`` ```");
});

test("shellWord quotes anything a POSIX shell would interpret", () => {
  assert.is(shellWord("https://api.example.com/v1"), "https://api.example.com/v1");
  assert.is(shellWord("a b"), "'a b'");
  assert.is(shellWord("it's $(rm -rf ~)"), `'it'\\''s $(rm -rf ~)'`);
  assert.is(shellWord("x\nrm -rf ~"), "'x rm -rf ~'");
  assert.is(shellWord(""), "''");
});

test("envValue writes a value every .env reader reads the same way, or refuses", () => {
  assert.is(envValue("https://api.example.com/v1"), "https://api.example.com/v1");
  assert.is(envValue("two words # not a comment"), "'two words # not a comment'");
  assert.is(envValue("line\nINJECTED=1"), undefined);
  assert.is(envValue("$HOME"), undefined);
  assert.is(envValue("it's"), undefined);
  assert.is(envValue(""), "");
});

/** Helpers that escape for their format, and fields the generator makes safe itself. */
const ESCAPING_HELPERS = new Set([
  "line",
  "cell",
  "code",
  "cellCode",
  "route",
  "sh",
  "envAssign",
  "block",
  "json",
  "hints",
  "fenced",
  "html",
]);
/**
 * Fields printed as they are: names the generator derives and validates (npm package and bin names
 * match npm's rules; `name`/`env` are tool and environment variable names, [A-Za-z0-9_.-]; spec
 * server-variable names are printed with `cellCode`), and prose the generator writes itself. The
 * custom-code README's `exampleTool` is TypeScript made from a tool name and its type names
 * (identifiers), nothing else of the spec (templates.ts).
 */
const SAFE_FIELDS = new Set([
  "packageName",
  "binName",
  "name",
  "env",
  "specLabel",
  ...["key", "access", "inputTypeName", "outputType", "arguments"].map((field) => `exampleTool.${field}`),
]);

test("templates: every interpolation is escaped for its format or prints a generator-made safe value", () => {
  const dir = fileURLToPath(new URL("../../../templates/", import.meta.url));
  const offenders: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".hbs"))) {
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== "object") return;
      const n = node as {
        type?: string;
        path?: { original?: string };
        params?: unknown[];
        loc?: { start: { line: number } };
      };
      if (n.type === "MustacheStatement") {
        const head = n.path?.original ?? "";
        const isHelper = (n.params?.length ?? 0) > 0;
        if (isHelper ? !ESCAPING_HELPERS.has(head) : !SAFE_FIELDS.has(head))
          offenders.push(`${file}:${n.loc?.start.line}: {{${head}}}`);
      }
      for (const value of Object.values(node)) if (value && typeof value === "object") visit(value);
    };
    visit(Handlebars.parse(readFileSync(join(dir, file), "utf8")));
  }
  assert.equal(offenders, []);
});

test.run();
