/**
 * The type declarations' text writer (emit/typescript/text-writer.ts) writes what ts-morph's
 * code-block-writer writes for the same calls, and a declaration's text printed as a ts-morph
 * statement comes out as it is (the generated types were printed by code-block-writer before).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CodeBlockWriter } from "ts-morph";
import { TextWriter } from "../../generator/pipeline/emit/typescript/text-writer.js";
import { typeDeclaration, typeNode } from "../../generator/pipeline/emit/typescript/type-expression.js";
import { loadTsMorph, printStatements } from "../../generator/pipeline/emit/typescript/ts-morph.js";

/** The calls both writers take. */
interface Writer {
  write(text: string): Writer;
  newLine(): Writer;
  writeLine(text: string): Writer;
  inlineBlock(block: () => void): Writer;
}

/** Runs the same script on code-block-writer (nested levels through its own API) and on TextWriter. */
function both(script: (writer: Writer, nested: (action: () => void) => void) => void): [string, string] {
  const reference = new CodeBlockWriter({ indentNumberOfSpaces: 2, newLine: "\n" });
  script(reference, (action) => reference.withIndentationLevel(reference.getIndentationLevel() + 1, action));
  const ours = new TextWriter();
  script(ours, (action) => ours.indented(ours.indentation + 1, action));
  return [ours.toString(), reference.toString()];
}

test("blocks, doc lines and unions are indented as code-block-writer indents them", () => {
  const [ours, reference] = both((writer, nested) => {
    writer.writeLine("/** A doc. */");
    writer.write("export interface A ").inlineBlock(() => {
      writer.writeLine("/**");
      writer.writeLine(" * Two lines,");
      writer.writeLine(" */");
      writer.write("a: ").inlineBlock(() => {
        writer.write("b?: string;").newLine();
      });
      writer.write(";").newLine();
      writer.write("kind:");
      nested(() => {
        writer.newLine().write("| ");
        writer.inlineBlock(() => writer.write('"x": 1;').newLine());
        writer.newLine().write('| "y"');
      });
      writer.write(";").newLine();
    });
    writer.newLine();
  });
  assert.is(ours, reference);
  assert.ok(ours.includes('\n    | {\n      "x": 1;\n    }\n'), ours);
});

test("text with line breaks, empty text and a block left open write what code-block-writer writes", () => {
  const [ours, reference] = both((writer) => {
    writer.write("x").inlineBlock(() => {
      writer.write("one\ntwo\r\n\nthree");
      writer.write("");
      writer.newLine();
      writer.write("");
      writer.write("four\r");
      writer.write("five");
      writer.writeLine("six");
      writer.write("seven");
    });
    writer.write("");
    writer.writeLine("eight");
  });
  assert.is(ours, reference);
});

test("a declaration's text is printed by ts-morph as it is", () => {
  const node = typeNode(
    {
      type: "object",
      description: "A pet.",
      required: ["name"],
      properties: {
        name: { type: "string", description: "Its name." },
        tags: { type: "array", items: { type: "object", properties: { label: { type: "string" } } } },
        kind: { enum: ["a-very-long-value-one", "a-very-long-value-two", "a-very-long-value-three", "four"] },
      },
    },
    (def) => def,
  );
  const text = typeDeclaration("Pet", node, ["A pet."]);
  assert.is(printStatements(loadTsMorph(), [text, text]), `${text}\n${text}`);
  assert.ok(text.startsWith("/** A pet. */\nexport interface Pet {\n  /** Its name. */\n  name: string;\n"), text);
});

test.run();
