/**
 * The project's small TypeScript files — `src/index.ts`, `src/server-info.ts` and, without feature
 * `custom`, `src/tools/index.ts` — written as text, in the form ts-morph prints their structures
 * (typescript-files.ts). A project without feature `custom` needs nothing else from ts-morph (its
 * declarations are text already, tool-types.ts `operationDeclarations`), so the emit worker then
 * never loads ts-morph and the TypeScript compiler it bundles (0.2–0.4 s of CPU on GitHub's
 * generation, competing with the main thread on a small machine). Plain string builders rather than
 * templates: each file is a handful of lines whose parts are lists.
 */
import { featureExport } from "../../plan/features.js";
import { TARGET_FEATURES } from "../../plan/targets.js";
import type { ServerInfo } from "../../../shared/contract.js";
import { API_DOCUMENT_PATH } from "../data/data-paths.js";
import { docText } from "./schema-to-ts.js";
import { TextWriter } from "./text-writer.js";
import { GENERATED_HEADER } from "./ts-morph.js";

/** An import of names; a name `type X` is a type-only one. */
export interface NamedImport {
  names: readonly string[];
  moduleSpecifier: string;
}

/** `import { a, type B } from "<module>";` as ts-morph prints an import declaration of names. */
function importText({ names, moduleSpecifier }: NamedImport): string {
  return `import { ${names.join(", ")} } from ${JSON.stringify(moduleSpecifier)};\n`;
}

/** A doc comment as ts-morph writes a structure's `docs` entry (text-writer.ts `jsDoc`). */
function docComment(doc: string): string {
  return new TextWriter().jsDoc(docText(doc)).toString();
}

/** `export const name: type = initializer;` with its doc comment; later lines of the initializer indented once, as ts-morph does. */
export function exportedConstText(name: string, type: string, initializer: string, doc: string): string {
  return `${docComment(doc)}export const ${name}: ${type} = ${initializer.replace(/\n/g, "\n  ")};\n`;
}

/** A file: the generated-file header, then its groups of statements, a blank line between groups. */
function fileText(groups: readonly string[], firstLine = ""): string {
  return firstLine + GENERATED_HEADER + groups.join("\n");
}

/** `src/tools/index.ts` without feature `custom`: the tool source's imports and the `tools` export. */
export function toolIndexText(imports: readonly NamedImport[], exportTools: string): string {
  return fileText([imports.map(importText).join(""), exportTools]);
}

/** `src/server-info.ts`: name, version and defaults of the server, as data. */
export function serverInfoText(info: ServerInfo): string {
  return fileText([
    'import type { ServerInfo } from "./runtime/api/types.js";\n',
    exportedConstText(
      "serverInfo",
      "ServerInfo",
      JSON.stringify(info, null, 2),
      "Name, version and defaults of this server.",
    ),
  ]);
}

/** A function declaration with its doc comment, its body's statements one per line. */
function functionText(doc: string, signature: string, statements: readonly string[]): string {
  return `${docComment(doc)}function ${signature} {\n${statements.map((line) => `  ${line}\n`).join("")}}\n`;
}

/** The parts of `src/index.ts` that depend on the project (typescript-files.ts `entryPoint` builds the same). */
export interface EntryParts {
  imports: NamedImport[];
  /** `import extension from "./custom/index.js";` (feature `custom`). */
  extension: boolean;
  functions: Array<{ doc: string; signature: string; statements: string[] }>;
  /** The closing statement: the call of `main`. */
  main: string;
}

/** `src/index.ts` from its parts. */
export function entryPointText(parts: EntryParts): string {
  const imports =
    parts.imports.map(importText).join("") + (parts.extension ? 'import extension from "./custom/index.js";\n' : "");
  const functions = parts.functions.map((fn) => functionText(fn.doc, fn.signature, fn.statements));
  return fileText([imports, ...functions, `${parts.main}\n`], "#!/usr/bin/env node\n");
}

/** The entry's parts: its imports, functions and `main` call, for the features and whether data/openapi.json ships. */
export function entryParts(withDocument: boolean, allFeatures: readonly string[]): EntryParts {
  // Feature fetch serves the other targets' entries (emit/targets/); the Node entry keeps node:http and got.
  const features = allFeatures.filter((feature) => !TARGET_FEATURES.includes(feature));
  const featureNames = features.map(featureExport);
  const ranged = features.includes("large-data");
  const custom = features.includes("custom");
  const dataUrl = "new URL(`../data/${file}`, import.meta.url)";
  const imports: NamedImport[] = [
    { names: ["main"], moduleSpecifier: "./runtime/cli/main.js" },
    { names: ranged ? ["readDataText", "readRange"] : ["readDataText"], moduleSpecifier: dataModule(features, ".") },
    ...features.map((feature, index) => ({
      names: [featureNames[index]!],
      moduleSpecifier: `./runtime/features/${feature}/index.js`,
    })),
    { names: ["serverInfo"], moduleSpecifier: "./server-info.js" },
    { names: ["tools"], moduleSpecifier: "./tools/index.js" },
  ];
  const functions: EntryParts["functions"] = [];
  if (withDocument)
    functions.push({
      doc: `The OpenAPI document this server was generated from (${API_DOCUMENT_PATH}), served as the resource openapi://document; read only when a client asks for it.`,
      signature: "apiDocument(): string",
      statements: [
        `const text = readDataText(new URL(${JSON.stringify(`../${API_DOCUMENT_PATH}`)}, import.meta.url));`,
        `if (text === undefined) throw new Error(${JSON.stringify(`${API_DOCUMENT_PATH} is missing (regenerate the server)`)});`,
        "return text;",
      ],
    });
  functions.push({
    doc: `A file of data/ (search index, declarations${ranged ? "; stored packed when large" : ""}), read when first needed; undefined when absent.`,
    signature: "readData(file: string): string | undefined",
    statements: [`return readDataText(${dataUrl});`],
  });
  if (ranged)
    functions.push({
      doc: "A byte range of a file of data/ (one operation's declaration, without parsing the others).",
      signature: "readDataRange(file: string, offset: number, length: number): string",
      statements: [`return readRange(${dataUrl}, offset, length);`],
    });
  const options = [
    ...(custom ? ["extension"] : []),
    ...(withDocument ? ["apiDocument"] : []),
    "readData",
    ...(ranged ? ["readDataRange"] : []),
    `features: [${featureNames.join(", ")}]`,
  ];
  const main =
    "// Flags and environment choose stdio (default) or Streamable HTTP and the surface; see README.md.\n" +
    `main(serverInfo, tools, process.argv.slice(2), { ${options.join(", ")} }).catch((error: unknown) => {\n` +
    "  console.error(error instanceof Error ? error.message : String(error));\n  process.exit(1);\n});";
  return { imports, extension: custom, functions, main };
}

/** The runtime module a file in `dir` (`.` or `..` of src/runtime) reads data/ with: feature `large-data`'s (packed, by range) or the core's. */
export function dataModule(features: readonly string[], dir: string): string {
  return features.includes("large-data")
    ? `${dir}/runtime/features/large-data/index.js`
    : `${dir}/runtime/data/tool-data.js`;
}
