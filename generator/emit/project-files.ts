import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { asciiJson, catalogOf, declarationFiles, type ServerInfo, storeTools, toolDataFiles } from "../contract.js";
import { configVariables } from "./config-variables.js";
import { packageRoot, readPackageJson } from "../package-root.js";
import type { ProjectPlan } from "../plan/types.js";
import { contractsOf, type ContractSnapshot } from "../diff/contracts.js";
import { buildToolLock } from "../plan/tool-lock.js";
import { CONTRACT_PATH, TOOL_LOCK_PATH } from "../state-files.js";
import { FORMAT_TOOL_FILES_MAX } from "./format.js";
import { dockerFiles, mcpbManifest, serverJson } from "./publish-files.js";
import { testCases } from "./test-cases.js";
import { renderTemplate } from "./templates.js";
import { DECLARATIONS_DATA_PATH, operationDeclarations } from "./declarations.js";
import { SCHEMA_TYPES_PATH, SchemaTypes } from "./schema-types.js";
import { toolDefinition, toolTypesText } from "./tool-file.js";
import { SEARCH_INDEX_PATH, searchIndexText } from "./search-index.js";
import { runtimeProfiles } from "../lint/profiles.js";

/** Where a generated project keeps its client profiles (read by the runtime's `main`). */
export const CLIENT_PROFILES_PATH = "data/client-profiles.json";
import { constText, exportTypesText, GENERATED_HEADER, importText, jsDoc } from "./ts-text.js";

/** A file of the generated project, path relative to the output folder (always `/`-separated). */
export interface EmittedFile {
  path: string;
  content: string;
  /**
   * Created once, never overwritten: written only when absent from the output folder, then the
   * user's (e.g. `src/custom/*`). Not hash-checked and never deleted by a later regeneration.
   */
  once?: boolean;
  /** The content already merges the user's version on disk (package.json): never a hand-edit conflict. */
  merged?: boolean;
  /** Laid out as it is to be written (bulk JSON data): the format stage leaves it alone. */
  formatted?: boolean;
}

/** Data the emit stage needs besides the plan. */
export interface EmitOptions {
  /** The bundled OpenAPI document as JSON text, written to data/openapi.json for the server to serve as a resource. */
  apiDocument?: string;
  /**
   * Tool name → declaration text, printed elsewhere (generate.ts prints them in a worker thread); when
   * absent they are printed here. `"later"`: leave data/declarations.json and its index out, the caller adds them (declarationsFiles).
   */
  declarations?: Record<string, string> | "later";
}

/** `src/custom/index.ts`: the user's extension point, created once and then theirs. */
const CUSTOM_INDEX = `// Your code: created once by mcp-gen and never overwritten, so edit freely.
// Add tools, resources, resource templates and prompts, or hook every upstream call.
// See src/runtime/extensions.ts for the API (CustomTool, CustomResource, CallHooks …).
import { defineExtension } from "../runtime/extensions.js";

export default defineExtension({
  tools: [],
  resources: [],
  resourceTemplates: [],
  prompts: [],
  hooks: {},
});
`;

function serverInfo(plan: ProjectPlan): ServerInfo {
  return {
    name: plan.packageName,
    version: plan.version,
    title: plan.title,
    description: plan.description,
    ...(plan.defaultBaseUrl ? { defaultBaseUrl: plan.defaultBaseUrl } : {}),
    ...(plan.serverUrl ? { serverUrl: plan.serverUrl } : {}),
    ...(plan.securitySchemes.length > 0 ? { securitySchemes: plan.securitySchemes } : {}),
    ...(plan.env.length > 0 ? { env: configVariables(plan) } : {}),
    ...(plan.defaultSurface && plan.defaultSurface !== "auto" ? { defaultSurface: plan.defaultSurface } : {}),
  };
}


/** Where the tool definitions live in the generated project (JSON, one tool per line, read by byte range or whole when needed). */
export const TOOLS_DATA_PATH = "data/tools.json";
/** Where each tool is in data/tools.json (fixed-width lines, runtime/src/offsets-file.ts). */
export const TOOL_OFFSETS_PATH = "data/tool-offsets.txt";
/** The `$defs` bodies the tool definitions share, one per line (see runtime/src/tool-data.ts). */
export const DEFINITIONS_DATA_PATH = "data/definitions.json";
/** Where each body is in data/definitions.json. */
export const DEFINITION_OFFSETS_PATH = "data/definition-offsets.txt";
/** Name, method, path and tags of every tool: read for toolset filters (see runtime/src/tool-data.ts). */
export const CATALOG_DATA_PATH = "data/catalog.json";
/** Every tool name: all a server reads of its tools at start (without toolset filters). */
export const TOOL_NAMES_DATA_PATH = "data/tool-names.json";
/** Where each tool's declaration is in data/declarations.json (fixed-width lines, tool order). */
export const DECLARATION_OFFSETS_PATH = "data/declaration-offsets.txt";
/** Where the OpenAPI document lives in the generated project (JSON, read when a client asks for it). */
export const API_DOCUMENT_PATH = "data/openapi.json";

/**
 * Whether bulk JSON (tool definitions, contracts, test cases) is laid out one item per line, ASCII
 * only, rather than indented: above FORMAT_TOOL_FILES_MAX tools, where indentation would double the
 * size of files of hundreds of megabytes (and near the longest string V8 can hold). Diffs still show
 * which items changed.
 */
function compactJson(plan: ProjectPlan): boolean {
  return plan.tools.length > FORMAT_TOOL_FILES_MAX;
}

/**
 * JSON text of a bulk file (final as written: the format stage leaves it alone): as
 * JSON.stringify(value, null, 2), or compact with the items of the array (or the array under
 * `listKey`) one per line. The compact text is made by one `join` of its lines, so it is a flat
 * string from the start (hashing and writing a concatenated one would copy hundreds of megabytes).
 */
function bulkJson(value: unknown, compact: boolean, listKey?: string): string {
  if (!compact) return JSON.stringify(value, null, 2) + "\n";
  const lines: string[] = [];
  const list = (items: unknown[], indent: string, head: string, tail: string) => {
    if (items.length === 0) return void lines.push(`${head}[]${tail}`);
    lines.push(`${head}[`);
    items.forEach((item, index) => lines.push(`${indent}  ${asciiJson(item)}${index < items.length - 1 ? "," : ""}`));
    lines.push(`${indent}]${tail}`);
  };
  if (Array.isArray(value)) list(value, "", "", "");
  else {
    const entries = Object.entries(value as Record<string, unknown>);
    lines.push("{");
    entries.forEach(([key, field], index) => {
      const head = `  ${asciiJson(key)}: `;
      const tail = index < entries.length - 1 ? "," : "";
      if (key === listKey && Array.isArray(field)) list(field, "  ", head, tail);
      else lines.push(head + asciiJson(field) + tail);
    });
    lines.push("}");
  }
  lines.push("");
  return lines.join("\n");
}

/**
 * `data/tools.json`: every tool definition, in tool order; `data/definitions.json`: the `$defs`
 * bodies they share, each once; both one item per line, with `data/tool-offsets.txt` and
 * `data/definition-offsets.txt` saying where each item is; `data/catalog.json`: each tool's name,
 * method, path and tags. Data, not code, so neither prettier nor tsc has to read them. The server
 * reads only `data/tool-names.json` at start, and the others when a request first needs them.
 */
function toolsData(plan: ProjectPlan): EmittedFile[] {
  const definitionsOfTools = plan.tools.map(toolDefinition);
  const files = toolDataFiles(storeTools(definitionsOfTools));
  return [
    { path: TOOL_NAMES_DATA_PATH, content: bulkJson(definitionsOfTools.map((tool) => tool.name), true), formatted: true },
    { path: CATALOG_DATA_PATH, content: bulkJson(catalogOf(definitionsOfTools), true), formatted: true },
    { path: TOOLS_DATA_PATH, content: files.tools, formatted: true },
    { path: TOOL_OFFSETS_PATH, content: files.toolOffsets, formatted: true },
    { path: DEFINITIONS_DATA_PATH, content: files.definitions, formatted: true },
    { path: DEFINITION_OFFSETS_PATH, content: files.definitionOffsets, formatted: true },
  ];
}

/** `data/client-profiles.json`: what the runtime needs of profiles/clients/*.json to adapt to a client (one profile a line). */
function clientProfilesData(): EmittedFile {
  return { path: CLIENT_PROFILES_PATH, content: `[\n${runtimeProfiles().map((profile) => JSON.stringify(profile)).join(",\n")}\n]\n`, formatted: true };
}

/** `data/search-index.json`: the operation search index (search and code surfaces), built now, loaded on the first search. */
function searchIndexData(plan: ProjectPlan): EmittedFile {
  return { path: SEARCH_INDEX_PATH, content: searchIndexText(plan.tools.map(toolDefinition)), formatted: true };
}

/**
 * `data/declarations.json`: tool name → TypeScript declaration (see declarations.ts), one per line,
 * and `data/declaration-offsets.txt`: where each tool's is in it, in tool order
 * (runtime/src/declarations-data.ts).
 */
export function declarationsFiles(declarations: Record<string, string>, toolNames: readonly string[]): EmittedFile[] {
  const { text, offsets } = declarationFiles(declarations, toolNames);
  return [
    { path: DECLARATIONS_DATA_PATH, content: text, formatted: true },
    { path: DECLARATION_OFFSETS_PATH, content: offsets, formatted: true },
  ];
}

/** The generated TypeScript: per-tool type modules, the tool index, server info and the entry point. */
function typeScriptFiles(plan: ProjectPlan, options: EmitOptions): EmittedFile[] {
  const schemaTypes = new SchemaTypes(plan.tools);
  const files: EmittedFile[] = plan.tools.map((tool) => ({ path: `src/tools/${tool.fileName}.ts`, content: toolTypesText(tool, schemaTypes) }));
  files.push({ path: SCHEMA_TYPES_PATH, content: schemaTypes.fileText() });
  files.push({
    path: "src/tools/index.ts",
    content:
      GENERATED_HEADER +
      importText("../runtime/tool-data.js", { names: ["dataToolSource", "type ToolSource"] }) +
      plan.tools.map((tool) => exportTypesText(`./${tool.fileName}.js`, [tool.inputTypeName, ...(tool.outputTypeName ? [tool.outputTypeName] : [])])).join("") +
      "\n" +
      constText(
        "tools",
        "ToolSource",
        'dataToolSource(new URL("../../data/", import.meta.url))',
        `Every tool of this server, in a stable order (the order of the OpenAPI document): their names (${TOOL_NAMES_DATA_PATH}) now; ${CATALOG_DATA_PATH}, ${TOOLS_DATA_PATH} and the schemas they share (${DEFINITIONS_DATA_PATH}) when first needed.`,
      ),
  });
  files.push({
    path: "src/server-info.ts",
    content:
      GENERATED_HEADER +
      importText("./runtime/types.js", { names: ["ServerInfo"], typeOnly: true }) +
      "\n" +
      constText("serverInfo", "ServerInfo", JSON.stringify(serverInfo(plan), null, 2), "Name, version and defaults of this server."),
  });
  const withDocument = options.apiDocument !== undefined;
  files.push({
    path: "src/index.ts",
    content:
      `#!/usr/bin/env node\n${GENERATED_HEADER}` +
      importText("node:fs", { names: ["existsSync", "readFileSync"] }) +
      importText("./runtime/cli.js", { names: ["main"] }) +
      importText("./runtime/tool-data.js", { names: ["readRange"] }) +
      importText("./server-info.js", { names: ["serverInfo"] }) +
      importText("./tools/index.js", { names: ["tools"] }) +
      importText("./custom/index.js", { defaultName: "extension" }) +
      "\n" +
      (withDocument
        ? jsDoc(`The OpenAPI document this server was generated from (${API_DOCUMENT_PATH}), served as the resource openapi://document; read only when a client asks for it.`) +
          `const apiDocument = (): string => readFileSync(new URL(${JSON.stringify(`../${API_DOCUMENT_PATH}`)}, import.meta.url), "utf8");\n\n`
        : "") +
      jsDoc("A file of data/ (search index, declarations), read when first needed; undefined when absent.") +
      "const readData = (file: string): string | undefined => {\n  const url = new URL(`../data/${file}`, import.meta.url);\n  return existsSync(url) ? readFileSync(url, \"utf8\") : undefined;\n};\n\n" +
      jsDoc("A byte range of a file of data/ (one operation's declaration, without parsing the others).") +
      "const readDataRange = (file: string, offset: number, length: number): string => readRange(new URL(`../data/${file}`, import.meta.url), offset, length);\n\n" +
      "// Flags and environment choose stdio (default) or Streamable HTTP and the surface; see README.md.\n" +
      `main(serverInfo, tools, process.argv.slice(2), { ${withDocument ? "extension, apiDocument, readData, readDataRange" : "extension, readData, readDataRange"} }).catch((error: unknown) => {\n  console.error(error instanceof Error ? error.message : String(error));\n  process.exit(1);\n});\n`,
  });
  return files;
}

/** The runtime, vendored verbatim under `src/runtime/`. */
function runtimeFiles(): EmittedFile[] {
  const dir = join(packageRoot(), "runtime", "src");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => ({ path: `src/runtime/${name}`, content: readFileSync(join(dir, name), "utf8") }));
}

/** package.json of the generated server: publishable, pinned to the runtime's dependencies. */
function packageJson(plan: ProjectPlan): EmittedFile {
  const runtime = readPackageJson("runtime/package.json");
  const root = readPackageJson("package.json");
  const devDependencies = root.devDependencies as Record<string, string>;
  const manifest = {
    name: plan.packageName,
    version: plan.version,
    description: plan.description,
    type: "module",
    bin: { [plan.binName]: "dist/index.js" },
    main: "dist/index.js",
    files: ["dist", "data", "README.md", ".env.example", "server.json"],
    scripts: {
      build: "tsc -p tsconfig.json",
      start: "node dist/index.js",
      test: "npm run build && node --test test/server.test.mjs",
      bundle: "npm run build && node scripts/bundle.mjs",
      prepublishOnly: "npm run build",
    },
    engines: { node: ">=20.19" },
    keywords: ["mcp", "model-context-protocol", "mcp-server", "openapi"],
    ...(plan.license ? { license: plan.license } : {}),
    ...(plan.repository ? { repository: { type: "git", url: `git+${plan.repository.url}.git` }, homepage: `${plan.repository.url}#readme` } : {}),
    mcpName: plan.mcpName,
    dependencies: runtime.dependencies,
    devDependencies: { "@types/node": devDependencies["@types/node"], typescript: devDependencies.typescript },
  };
  return { path: "package.json", content: JSON.stringify(manifest, null, 2) + "\n" };
}

function tsconfig(): EmittedFile {
  const config = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2023"],
      types: ["node"],
      strict: true,
      skipLibCheck: true,
      outDir: "dist",
      rootDir: "src",
    },
    include: ["src/**/*.ts"],
  };
  return { path: "tsconfig.json", content: JSON.stringify(config, null, 2) + "\n" };
}

/** Generator state kept in the output: the tool-name lock and the tool contracts (for the next diff). */
function stateFiles(plan: ProjectPlan): EmittedFile[] {
  const snapshot: ContractSnapshot = { snapshotVersion: 1, tools: contractsOf(plan.tools) };
  return [
    { path: TOOL_LOCK_PATH, content: JSON.stringify(buildToolLock(plan.tools), null, 2) + "\n", formatted: true },
    { path: CONTRACT_PATH, content: bulkJson(snapshot, compactJson(plan), "tools"), formatted: true },
  ];
}

/** The generated `npm test`: a fixed harness (templates/server-test.mjs) and the spec-derived cases. */
function testFiles(plan: ProjectPlan): EmittedFile[] {
  return [
    { path: "test/server.test.mjs", content: readFileSync(join(packageRoot(), "templates", "server-test.mjs"), "utf8") },
    { path: "test/cases.json", content: bulkJson(testCases(plan), compactJson(plan), "cases"), formatted: true },
  ];
}

/** Emit stage: every file of the generated project, unformatted. */
export function emitProject(plan: ProjectPlan, options: EmitOptions = {}): EmittedFile[] {
  return [
    packageJson(plan),
    tsconfig(),
    { path: "README.md", content: renderTemplate("README.md.hbs", plan) },
    { path: ".env.example", content: renderTemplate("env.example.hbs", plan) },
    { path: ".gitignore", content: "node_modules/\ndist/\n.env\n.mcpb/\n*.mcpb\n" },
    serverJson(plan),
    mcpbManifest(plan),
    { path: "scripts/bundle.mjs", content: readFileSync(join(packageRoot(), "templates", "bundle.mjs"), "utf8") },
    ...dockerFiles(plan),
    { path: "src/custom/README.md", content: renderTemplate("custom-readme.md.hbs", plan), once: true },
    ...typeScriptFiles(plan, options),
    ...toolsData(plan),
    searchIndexData(plan),
    clientProfilesData(),
    ...(options.declarations === "later" ? [] : declarationsFiles(options.declarations ?? operationDeclarations(plan), plan.tools.map((tool) => tool.name))),
    ...(options.apiDocument === undefined ? [] : [{ path: API_DOCUMENT_PATH, content: options.apiDocument, formatted: true }]),
    { path: "src/custom/index.ts", content: CUSTOM_INDEX, once: true },
    ...runtimeFiles(),
    ...testFiles(plan),
    ...stateFiles(plan),
  ];
}
