/**
 * The declarations written as text (emit/typescript/structure-text.ts, text-writer.ts `joinStatements`,
 * `textPieces`) are what ts-morph prints for the same structures and statements: the generated files
 * were printed by ts-morph before, and stay byte for byte the same.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { InterfaceDeclarationStructure, TypeAliasDeclarationStructure } from "ts-morph";
import {
  interfaceText,
  propertySignature,
  typeAliasText,
  typeImportText,
} from "../../generator/pipeline/emit/typescript/structure-text.js";
import { joinStatements, textPieces } from "../../generator/pipeline/emit/typescript/text-writer.js";
import { loadTsMorph, printStatements } from "../../generator/pipeline/emit/typescript/ts-morph.js";

const tsMorph = loadTsMorph();
const kinds = tsMorph.StructureKind;

/** Doc texts as specs write them: one line, several, blank lines, a leading break, trailing spaces, a lone CR. */
const DOCS = [
  "One line.",
  "First line.\nSecond line.",
  "A paragraph.\n\nAnother, with a `code` span and 'quotes'.",
  "\nStarts with a line break.",
  "Trailing spaces  \n   indented line\n",
  "Ends with a space ",
  "A lone\rcarriage return.",
  "GET /ping\n// not code\n",
];

test("an interface of properties, with docs or none, is ts-morph's printing of its structure", () => {
  for (const doc of DOCS) {
    const properties = [
      { name: "plain", type: "string", hasQuestionToken: false, docs: [] },
      { name: '"odd-key"', type: '{ a?: "x" | "y"; }', hasQuestionToken: true, docs: [doc] },
      { name: "last", type: "Array<Pet>", hasQuestionToken: true, docs: [doc, "Second doc."] },
    ];
    const structure: InterfaceDeclarationStructure = {
      kind: kinds.Interface,
      name: "PetInput",
      isExported: true,
      docs: [doc],
      properties,
    };
    const ours = interfaceText(
      "PetInput",
      properties.map((p) => ({ signature: `${p.name}${p.hasQuestionToken ? "?" : ""}: ${p.type};`, docs: p.docs })),
      { exported: true, docs: [doc] },
    );
    assert.is(`${ours}\n`, printStatements(tsMorph, [structure]), JSON.stringify(doc));
  }
  const empty: InterfaceDeclarationStructure = { kind: kinds.Interface, name: "Empty", properties: [] };
  assert.is(`${interfaceText("Empty", [], { exported: false, docs: [] })}\n`, printStatements(tsMorph, [empty]));
});

test("an interface of one method is ts-morph's printing of its structure", () => {
  for (const optional of [true, false]) {
    const structure: InterfaceDeclarationStructure = {
      kind: kinds.Interface,
      name: "Api",
      methods: [
        {
          name: '"odd-name"',
          parameters: [{ name: "args", type: "OddInput", hasQuestionToken: optional }],
          returnType: "Promise<unknown>",
          docs: [DOCS[2]!],
        },
      ],
    };
    const ours = interfaceText(
      "Api",
      [{ signature: `"odd-name"(args${optional ? "?" : ""}: OddInput): Promise<unknown>;`, docs: [DOCS[2]!] }],
      { exported: false, docs: [] },
    );
    assert.is(`${ours}\n`, printStatements(tsMorph, [structure]));
  }
});

test("type aliases and text statements are joined as ts-morph joins them", () => {
  for (const doc of DOCS) {
    const alias: TypeAliasDeclarationStructure = {
      kind: kinds.TypeAlias,
      name: "PetOutput",
      isExported: true,
      type: "{ id: number; } | null",
      docs: [doc],
    };
    const text = typeAliasText("PetOutput", "{ id: number; } | null", [doc]);
    assert.is(`${text}\n`, printStatements(tsMorph, [alias]), JSON.stringify(doc));
  }
  // After a `}` a blank line, after anything else a line break; texts that already end so get none more.
  const statements = [
    "export interface A {\n}",
    "export type B = string;",
    "export interface C {\n}\n",
    "export type D = number;\n",
    "/** E */\nexport interface E {\n}\n\n",
    "export type F = 1;",
    "",
    "export type G = 2;\r",
    "export type H = 3;",
  ];
  assert.is(`${joinStatements(statements)}\n`, printStatements(tsMorph, statements));
  assert.is(joinStatements([]), "");
});

test("each item's pieces are its statements joined, trimmed, ending with one line break", () => {
  const pieces = textPieces(
    [["\n\nexport interface A {\n}", "export type B = 1;  \n\n"], ["export type C = 2;"]],
    (statements) => statements,
  );
  assert.equal(pieces, ["export interface A {\n}\n\nexport type B = 1;\n", "export type C = 2;\n"]);
});

test("type-only imports of names, and property signatures, are what ts-morph prints", () => {
  const specifiers = ["./tools.js", '../odd "quoted".js', "./line\nbreak.js", "./crlf\r\n.js", "./back\\slash.js"];
  for (const moduleSpecifier of specifiers)
    for (const namedImports of [["One"], ["One", "Two", "Three"], []]) {
      const structure = { kind: kinds.ImportDeclaration, isTypeOnly: true, namedImports, moduleSpecifier } as const;
      assert.is(`${typeImportText(namedImports, moduleSpecifier)}\n`, printStatements(tsMorph, [structure]));
    }
  const properties = [
    { name: "plain", type: "string", hasQuestionToken: false },
    { name: '"odd-key"', type: "Array<unknown>", hasQuestionToken: true },
    { name: "untyped", type: " ", hasQuestionToken: true },
  ];
  const structure: InterfaceDeclarationStructure = { kind: kinds.Interface, name: "Map", properties };
  const members = properties.map((p) => ({
    signature: propertySignature(p.name, p.type, p.hasQuestionToken),
    docs: [],
  }));
  assert.is(`${interfaceText("Map", members, { exported: false, docs: [] })}\n`, printStatements(tsMorph, [structure]));
});

test.run();
