/**
 * The TypeScript of the generated project, printed by ts-morph from structures (ts-morph.ts): the
 * tool type modules, the shared schema types, the tool index with the `ToolInputs`/`ToolOutputs`
 * maps, the typed client types (`src/api.ts`), server info, the entry point and the user's
 * extension file (created once). Its input is plain data, so the printing can run in a worker
 * thread (emit-worker.ts) while the main thread emits the data files; the operation declarations
 * for the model (declarations.ts) come from the same printed tool types (tool-types.ts). Without
 * feature `custom` only server info, the entry point and a short tool index are needed, and they are
 * written as text (plain-files.ts) without loading ts-morph.
 */
import type {
  OptionalKind,
  ParameterDeclarationStructure,
  SourceFileStructure,
  StatementStructures,
  WriterFunction,
} from "ts-morph";
import type { ServerInfo } from "../../../shared/contract.js";
import type { TypesPlan } from "../../plan/plan-types.js";
import { CATALOG_DATA_PATH, DEFINITIONS_DATA_PATH, TOOL_NAMES_DATA_PATH, TOOLS_DATA_PATH } from "../data/data-paths.js";
import type { EmittedFile } from "../emitted-file.js";
import { brief, docText, propertyKey } from "./schema-to-ts.js";
import { TypeNames } from "./named-types.js";
import type { ToolTypeSource } from "./tool-type-source.js";
import { contentType, errorNode } from "./tool-module.js";
import { operationDeclarations, printToolTypes } from "./tool-types.js";
import { oneLine } from "./type-expression.js";
import { interfaceText, propertySignature, typeImportText } from "./structure-text.js";
import {
  dataModule,
  entryParts,
  entryPointText,
  exportedConstText,
  serverInfoText,
  toolIndexText,
  type NamedImport,
} from "./plain-files.js";
import { BLANK_LINE, loadTsMorph, printFile, sourceFile, type Statement, type TsMorph } from "./ts-morph.js";

/** What the TypeScript is printed from: plain data (structured-cloned to the worker thread). */
export interface TypeScriptInput {
  tools: ToolTypeSource[];
  /** The named types (src/schemas.ts). */
  types: TypesPlan;
  /** `src/server-info.ts`'s value. */
  serverInfo: ServerInfo;
  /** Whether data/openapi.json is written (the entry point then serves it as a resource). */
  apiDocument: boolean;
  /** The runtime features the project vendors (runtime/src/features/<name>/), handed to `main`. */
  features: readonly string[];
}

/** The printed files and the operation declarations (tool name → text). */
export interface PrintedTypeScript {
  files: EmittedFile[];
  declarations: Record<string, string>;
  /** What printed the files: ts-morph (feature `custom`) or plain text (plain-files.ts), ts-morph then not loaded. */
  printer: "ts-morph" | "text";
}

/** The user's extension file: created once, then theirs (see CUSTOM_INTRO). */
export const CUSTOM_INDEX_PATH = "src/custom/index.ts";
/** The typed client and extension helpers of the project. */
export const API_TYPES_PATH = "src/api.ts";

/** The first lines of the user's extension file (no "Do not edit" header: the file is theirs). */
const CUSTOM_INTRO = `// Your code: created once by mcp-gen and never overwritten, so edit freely.
// Add tools, resources, resource templates and prompts; hook every operation call (beforeCall,
// afterCall) or one tool's, keyed by its name; call operations with the typed \`api\` each handler
// gets. Types and helpers: src/api.ts; examples: README.md in this folder.
`;

/**
 * Prints every TypeScript file of the project and the operation declarations. Deterministic. Without
 * feature `custom` the files are few and small and written as text (plain-files.ts): ts-morph is
 * then not loaded at all.
 */
export function printTypeScript(input: TypeScriptInput): PrintedTypeScript {
  return input.features.includes("custom") ? printWithTsMorph(input) : printAsText(input);
}

/** The project's TypeScript without feature `custom`, as text: the tool index, server info and entry point. */
function printAsText(input: TypeScriptInput): PrintedTypeScript {
  const source = toolSource(input.features);
  const files: EmittedFile[] = [
    { path: "src/tools/index.ts", content: toolIndexText(source.imports, exportedConstText(...source.exportTools)) },
    { path: "src/server-info.ts", content: serverInfoText(input.serverInfo) },
    { path: "src/index.ts", content: entryPointText(entryParts(input.apiDocument, input.features)) },
  ];
  return { files, declarations: operationDeclarations(input.tools), printer: "text" };
}

/** The project's TypeScript with feature `custom`, printed by ts-morph: the tools' and schemas' types, src/api.ts and the user's extension file too. */
function printWithTsMorph(input: TypeScriptInput): PrintedTypeScript {
  const tsMorph = loadTsMorph();
  const printed = printToolTypes(input.tools, input.types, tsMorph);
  const files: EmittedFile[] = [...printed.modules].map(([fileName, content]) => ({
    path: `src/tools/${fileName}.ts`,
    content,
  }));
  files.push(...printed.schemas);
  const source = toolSourceStatements(input.features, tsMorph);
  const index = toolIndex(input.tools, printed.members, printed.errorUses, new TypeNames(input.types), source, tsMorph);
  files.push({ path: "src/tools/index.ts", content: printFile(index) });
  files.push({ path: API_TYPES_PATH, content: printFile(apiTypes(tsMorph)) });
  files.push(...printedSmallFiles(input, tsMorph));
  files.push({ path: CUSTOM_INDEX_PATH, content: printFile(customIndex(tsMorph)), once: true });
  return { files, declarations: printed.declarations, printer: "ts-morph" };
}

/** `src/server-info.ts` and `src/index.ts` printed by ts-morph (plain-files.ts writes the same text). */
export function printedSmallFiles(input: TypeScriptInput, tsMorph: TsMorph): EmittedFile[] {
  return [
    { path: "src/server-info.ts", content: printFile(serverInfoFile(input.serverInfo, tsMorph)) },
    { path: "src/index.ts", content: printFile(entryPoint(input.apiDocument, input.features, tsMorph)) },
  ];
}

/** `src/tools/index.ts` without feature `custom`, printed by ts-morph (plain-files.ts `toolIndexText` writes the same text). */
export function printedToolSourceIndex(features: readonly string[], tsMorph: TsMorph): string {
  const source = toolSourceStatements(features, tsMorph);
  return printFile(sourceFile(tsMorph.StructureKind, [...source.imports, BLANK_LINE, source.exportTools]));
}

/** `export const name: type = initializer;` with a doc comment. */
function exportedConst(
  tsMorph: TsMorph,
  name: string,
  type: string,
  initializer: string,
  doc: string,
): StatementStructures {
  return {
    kind: tsMorph.StructureKind.VariableStatement,
    declarationKind: tsMorph.VariableDeclarationKind.Const,
    isExported: true,
    docs: [docText(doc)],
    declarations: [{ name, type, initializer }],
  };
}

/** An import of names as a ts-morph structure (a name `type X` is a type-only one). */
function importStructure({ names, moduleSpecifier }: NamedImport, tsMorph: TsMorph): StatementStructures {
  const namedImports = names.map((name) =>
    name.startsWith("type ") ? { name: name.slice("type ".length), isTypeOnly: true } : name,
  );
  return { kind: tsMorph.StructureKind.ImportDeclaration, namedImports, moduleSpecifier };
}

/**
 * The import and the export of `tools`, every tool of the server, read from data/ by the runtime:
 * one tool at a time with feature `large-data`, else all at once when first needed.
 */
function toolSource(features: readonly string[]): {
  imports: NamedImport[];
  exportTools: [name: string, type: string, initializer: string, doc: string];
} {
  const ranged = features.includes("large-data");
  const source = ranged ? "rangedToolSource" : "dataToolSource";
  const type = "type ToolSource";
  return {
    imports: ranged
      ? [
          { names: [source], moduleSpecifier: dataModule(features, "..") },
          { names: [type], moduleSpecifier: "../runtime/data/tool-data.js" },
        ]
      : [{ names: [source, type], moduleSpecifier: "../runtime/data/tool-data.js" }],
    exportTools: [
      "tools",
      "ToolSource",
      `${source}(new URL("../../data/", import.meta.url))`,
      `Every tool of this server, in a stable order (the order of the OpenAPI document): their names (${TOOL_NAMES_DATA_PATH}) now; ${CATALOG_DATA_PATH}, ${TOOLS_DATA_PATH} and the schemas they share (${DEFINITIONS_DATA_PATH}) when first needed${ranged ? ", one tool at a time" : ""}.`,
    ],
  };
}

/** `toolSource` as ts-morph structures. */
function toolSourceStatements(
  features: readonly string[],
  tsMorph: TsMorph,
): { imports: Statement[]; exportTools: Statement } {
  const { imports, exportTools } = toolSource(features);
  return {
    imports: imports.map((named) => importStructure(named, tsMorph)),
    exportTools: exportedConst(tsMorph, ...exportTools),
  };
}

/**
 * `src/tools/index.ts` with feature custom: every tool (read from data/ by the runtime), the tools' types, and the maps
 * of tool name → arguments (`ToolInputs`, each entry documented with the operation, which editors
 * show on `api.<tool>`), → what a successful call returns (`ToolOutputs`, what the typed `api`
 * resolves to), → `structuredContent` on the wire (`ToolContents`, what per-tool hooks see) and →
 * the body of an upstream error answer (`ToolErrors`, from the spec's error responses).
 */
function toolIndex(
  tools: readonly ToolTypeSource[],
  modules: ReadonlyMap<string, readonly ToolTypeSource[]>,
  errorUses: readonly string[],
  names: TypeNames,
  { imports, exportTools }: ReturnType<typeof toolSourceStatements>,
  tsMorph: TsMorph,
): SourceFileStructure {
  const kinds = tsMorph.StructureKind;
  const typeNames = (tool: ToolTypeSource) => [tool.inputTypeName, tool.outputTypeName];
  const statements: Statement[] = [
    ...imports,
    // Thousands of names for a big API: written as text (structure-text.ts), as ts-morph prints them.
    ...(errorUses.length > 0 ? [typeImportText(errorUses, "../schemas.js")] : []),
    ...[...modules].map(([fileName, members]) => typeImportText(members.flatMap(typeNames), `./${fileName}.js`)),
    BLANK_LINE,
    // Each module exports only its tools' types: re-exported whole, not listed a second time.
    ...[...modules.keys()].map(
      (fileName): StatementStructures => ({
        kind: kinds.ExportDeclaration,
        isTypeOnly: true,
        moduleSpecifier: `./${fileName}.js`,
      }),
    ),
    BLANK_LINE,
    exportTools,
    // The maps have a member per tool: written as text, as ts-morph prints the interfaces (a blank line before each).
    BLANK_LINE,
    interfaceText(
      "ToolInputs",
      tools.map((tool) => ({
        signature: propertySignature(propertyKey(tool.name), tool.inputTypeName),
        docs: [
          docText(
            `${brief(tool.title ?? tool.description) ?? tool.name} (${tool.http.method.toUpperCase()} ${tool.http.path})`,
          ),
        ],
      })),
      {
        exported: true,
        docs: [
          "Each tool's arguments, by tool name: the typed `api` client and per-tool hooks read them (src/api.ts).",
        ],
      },
    ),
    toolMap(
      "ToolOutputs",
      "What a successful call of each tool returns, by tool name: what the typed `api` resolves to.",
      tools.map((tool) => [tool.name, tool.outputTypeName]),
    ),
    toolMap(
      "ToolContents",
      "Each tool's `structuredContent` on the wire, by tool name: what per-tool hooks see (a result that is\nnot an object wrapped, the fallback shape of an unexpected response; `unknown` without an output schema).",
      tools.map((tool) => [tool.name, contentType(tool)]),
    ),
    toolMap(
      "ToolErrors",
      "The body of each tool's upstream error answers, by tool name, from the spec's error responses (`isErrorResponse`).",
      tools.map((tool) => [tool.name, oneLine(errorNode(tool, names))]),
    ),
  ];
  return sourceFile(kinds, statements);
}

/** `export interface <name> { <tool>: <type>; … }` with its doc comment (members undocumented). */
function toolMap(name: string, doc: string, entries: ReadonlyArray<[tool: string, type: string]>): string {
  const members = entries.map(([tool, type]) => ({ signature: propertySignature(propertyKey(tool), type), docs: [] }));
  return interfaceText(name, members, { exported: true, docs: [doc] });
}

/**
 * `src/api.ts`: what the user's code imports. `Api` is the typed client every handler and hook gets
 * as `api` (runtime features/custom/typed-api.ts); `defineExtension` and `defineTool` are the runtime's helpers
 * bound to this API's maps, so hooks keyed by tool name and custom tools are typed without
 * spelling the type arguments.
 */
function apiTypes(tsMorph: TsMorph): SourceFileStructure {
  const kinds = tsMorph.StructureKind;
  const maps = ["ToolInputs", "ToolOutputs", "ToolContents", "ToolErrors"];
  return sourceFile(kinds, [
    {
      kind: kinds.ImportDeclaration,
      namedImports: [{ name: "ApiClient", isTypeOnly: true }, "errorResponseGuard"],
      moduleSpecifier: "./runtime/features/custom/typed-api.js",
    },
    {
      kind: kinds.ImportDeclaration,
      namedImports: [
        { name: "defineExtension", alias: "defineTypedExtension" },
        "defineToolFor",
        { name: "Extension", isTypeOnly: true },
        { name: "TypedExtension", isTypeOnly: true },
      ],
      moduleSpecifier: "./runtime/features/custom/define-extension.js",
    },
    {
      kind: kinds.ImportDeclaration,
      isTypeOnly: true,
      namedImports: maps,
      moduleSpecifier: "./tools/index.js",
    },
    BLANK_LINE,
    {
      kind: kinds.ExportDeclaration,
      namedExports: [
        "ApiError",
        { name: "ApiResponse", isTypeOnly: true },
        { name: "BinaryData", isTypeOnly: true },
        { name: "CallOptions", isTypeOnly: true },
      ],
      moduleSpecifier: "./runtime/features/custom/typed-api.js",
    },
    {
      kind: kinds.ExportDeclaration,
      isTypeOnly: true,
      namedExports: ["CustomTool", "RequestTools", "ToolResult"],
      moduleSpecifier: "./runtime/features/custom/define-extension.js",
    },
    { kind: kinds.ExportDeclaration, isTypeOnly: true, namedExports: maps },
    BLANK_LINE,
    {
      kind: kinds.TypeAlias,
      name: "Api",
      isExported: true,
      docs: [
        [
          "The API's operations as typed methods: the `api` each custom tool, resource, prompt and hook gets.",
          "`await api.<tool>(args)` runs the operation as its own tool would (validation, hooks, credentials,",
          "retries, pagination; cancelled with the calling request) and resolves to what the API returned",
          "(`ToolOutputs`: the documented JSON, text, `BinaryData`, or `undefined` for no content), or throws an",
          "`ApiError`; `api.<tool>(args, { response: true })` also gives the upstream status, headers and cursor.",
        ].join("\n"),
      ],
      type: "ApiClient<ToolInputs, ToolOutputs>",
    },
    {
      kind: kinds.Function,
      name: "defineExtension",
      isExported: true,
      docs: [
        "Your extension (src/custom/index.ts), typed for this API: hooks keyed by tool name get that\ntool's arguments and result (`structuredContent` as on the wire), and `api` is typed.",
      ],
      parameters: [{ name: "extension", type: "TypedExtension<ToolInputs, ToolOutputs, ToolContents>" }],
      returnType: "Extension",
      statements: ["return defineTypedExtension<ToolInputs, ToolOutputs, ToolContents>(extension);"],
    },
    {
      kind: kinds.VariableStatement,
      declarationKind: tsMorph.VariableDeclarationKind.Const,
      isExported: true,
      docs: [
        "A custom tool whose handler gets arguments typed from its own `inputSchema` (written inline)\nand the typed `api`.",
      ],
      declarations: [{ name: "defineTool", initializer: "defineToolFor<Api>()" }],
    },
    BLANK_LINE,
    {
      kind: kinds.VariableStatement,
      declarationKind: tsMorph.VariableDeclarationKind.Const,
      isExported: true,
      docs: [
        [
          "Whether `error` is the upstream's error answer to a call of `operation` (an `ApiError` of kind",
          '`upstream`): `if (isErrorResponse(error, "<tool>") && error.status === 404) …`. Its `body` is then the',
          "answer's JSON, typed from the spec's error responses (`ToolErrors`), or its text when it is not JSON.",
        ].join("\n"),
      ],
      declarations: [{ name: "isErrorResponse", initializer: "errorResponseGuard<ToolErrors>()" }],
    },
  ]);
}

/** `src/server-info.ts`: name, version and defaults of the server, as data. */
function serverInfoFile(info: ServerInfo, tsMorph: TsMorph): SourceFileStructure {
  const kinds = tsMorph.StructureKind;
  return sourceFile(kinds, [
    {
      kind: kinds.ImportDeclaration,
      isTypeOnly: true,
      namedImports: ["ServerInfo"],
      moduleSpecifier: "./runtime/api/types.js",
    },
    BLANK_LINE,
    exportedConst(
      tsMorph,
      "serverInfo",
      "ServerInfo",
      JSON.stringify(info, null, 2),
      "Name, version and defaults of this server.",
    ),
  ]);
}

/** `src/index.ts`: the entry point; flags and environment choose the transport and surface (runtime cli.ts). */
function entryPoint(withDocument: boolean, features: readonly string[], tsMorph: TsMorph): SourceFileStructure {
  const kinds = tsMorph.StructureKind;
  const parts = entryParts(withDocument, features);
  const statements: Statement[] = [
    ...parts.imports.map((named) => importStructure(named, tsMorph)),
    ...(parts.extension
      ? [{ kind: kinds.ImportDeclaration, defaultImport: "extension", moduleSpecifier: "./custom/index.js" } as const]
      : []),
    BLANK_LINE,
    ...parts.functions.map(
      ({ doc, signature, statements }): Statement => ({
        kind: kinds.Function,
        ...functionSignature(signature),
        docs: [doc],
        statements,
      }),
    ),
    parts.main,
  ];
  return sourceFile(kinds, statements, "#!/usr/bin/env node\n");
}

/** A function's name, parameters and return type from its signature text (`name(a: A, b: B): R`). */
function functionSignature(signature: string): {
  name: string;
  parameters: OptionalKind<ParameterDeclarationStructure>[];
  returnType: string;
} {
  const [, name, parameters, returnType] = /^(\w+)\((.*)\): (.*)$/.exec(signature)!;
  return {
    name: name!,
    parameters: parameters!
      .split(", ")
      .filter((parameter) => parameter !== "")
      .map((parameter) => {
        const [parameterName, type] = parameter.split(": ");
        return { name: parameterName!, type: type! };
      }),
    returnType: returnType!,
  };
}

/** `src/custom/index.ts` as first created: an empty extension, typed for this API. */
function customIndex(tsMorph: TsMorph): SourceFileStructure {
  const kinds = tsMorph.StructureKind;
  const emptyExtension: WriterFunction = (writer) => {
    writer.write("defineExtension(").inlineBlock(() => {
      for (const key of ["tools", "resources", "resourceTemplates", "prompts"]) writer.writeLine(`${key}: [],`);
      writer.writeLine("hooks: {},");
    });
    writer.write(")");
  };
  return {
    kind: kinds.SourceFile,
    leadingTrivia: CUSTOM_INTRO,
    statements: [
      { kind: kinds.ImportDeclaration, namedImports: ["defineExtension"], moduleSpecifier: "../api.js" },
      BLANK_LINE,
      { kind: kinds.ExportAssignment, isExportEquals: false, expression: emptyExtension },
    ],
  };
}
