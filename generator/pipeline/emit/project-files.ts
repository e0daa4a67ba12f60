import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import stringifyCompact from "json-stringify-pretty-compact";
import { searchDocument, type JsonSchema, type ServerInfo } from "../../shared/contract.js";
import { asciiJson, catalogOf, shareDefinitions, storeTools, writeToolData } from "./data/data-files.js";
import { DataFileWriter, packAbove, packLargeFiles } from "./data/packed-files.js";
import { configVariables } from "./publishing/config-variables.js";
import { clientConfigData } from "./publishing/client-config.js";
import { packageRoot, readPackageJson } from "../../shared/package-root.js";
import { runtimeHeader, runtimeVersion } from "../../shared/provenance.js";
import type { ProjectPlan } from "../plan/plan-types.js";
import type { EmittedFile } from "./emitted-file.js";
import { type StoredSnapshot } from "../plan/changes/contracts.js";
import { contractsOf } from "../plan/changes/contracts-of.js";
import { buildToolLock } from "../plan/tool-lock.js";
import { CONTRACT_PATH, TOOL_LOCK_PATH } from "../../shared/state-files.js";
import {
  API_DOCUMENT_PATH,
  CATALOG_DATA_PATH,
  CLIENT_CONFIG_PATH,
  CLIENT_PROFILES_PATH,
  DEFINITION_OFFSETS_PATH,
  DEFINITIONS_DATA_PATH,
  TOOL_NAMES_DATA_PATH,
  TOOL_OFFSETS_PATH,
  TOOLS_DATA_PATH,
} from "./data/data-paths.js";
import { FORMAT_TOOL_FILES_MAX } from "./format.js";
import { dockerFiles, mcpbManifest, serverJson } from "./publishing/publish-files.js";
import { testCases, type TestCases } from "./test-cases/test-cases.js";
import { renderTemplate } from "./publishing/templates.js";
import { toolDefinition, toolTypeSource } from "./typescript/tool-file.js";
import { workerFiles, workerOutput, type WorkerInput, type WorkerOutput } from "./worker/worker-files.js";
import { runtimeProfiles } from "../../shared/profiles.js";
import { buildDependencies, runtimeDependencies } from "../plan/features.js";
import {
  targetBuildSteps,
  targetDevDependencies,
  targetFiles,
  targetGitignore,
  targetScripts,
} from "./targets/target-registry.js";

export * from "./data/data-paths.js";

/** Data the emit stage needs besides the plan. */
export interface EmitOptions {
  /** The bundled OpenAPI document as JSON text, written to data/openapi.json for the server to serve as a resource. */
  apiDocument?: string;
  /**
   * The files of the emit worker (the project's TypeScript, the operation declarations, the search
   * index; worker-files.ts), made elsewhere (generate.ts makes them in a worker thread); when absent
   * they are made here. `"later"`: leave them out, the caller adds them (`workerFiles`).
   */
  worker?: WorkerOutput | "later";
}

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
    ...(plan.resultBudget !== undefined ? { resultBudget: plan.resultBudget } : {}),
  };
}

/**
 * Whether bulk JSON (tool definitions, contracts, test cases) is laid out one item per line, ASCII
 * only, rather than indented: above FORMAT_TOOL_FILES_MAX tools, where indentation would double the
 * size of files of hundreds of megabytes (and near the longest string V8 can hold). Diffs still show
 * which items changed.
 */
function compactJson(plan: ProjectPlan): boolean {
  return plan.tools.length > FORMAT_TOOL_FILES_MAX;
}

/** Columns a bulk JSON file's lines take at most where a value fits (the project's prettier width). */
const JSON_WIDTH = 100;

/**
 * JSON text of a bulk file (final as written: the format stage leaves it alone): indented, with
 * each array or object that fits in {@link JSON_WIDTH} columns on one line (as prettier lays out
 * short arrays: a small schema such as `{"type": "string"}` reads best whole, and a changed
 * property is still one changed line), or compact with the items of the array (or the array under
 * `listKey`) one per line. The compact text is made by one `join` of its lines, so it is a flat
 * string from the start (hashing and writing a concatenated one would copy hundreds of megabytes).
 */
function bulkJson(value: unknown, compact: boolean, listKey?: string): string {
  if (!compact) return stringifyCompact(value, { maxLength: JSON_WIDTH }) + "\n";
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
 * bodies they share, each once; both one item per line; `data/catalog.json`: each tool's name,
 * method, path and tags. Data, not code, so neither prettier nor tsc has to read them. The server
 * reads only `data/tool-names.json` at start, and the others when a request first needs them. With
 * feature `large-data`, `data/tool-offsets.txt` and `data/definition-offsets.txt` say where each
 * item is (the server reads one tool at a time), and the large files are stored packed (packed-files.ts).
 */
function toolsData(plan: ProjectPlan): EmittedFile[] {
  const definitionsOfTools = plan.tools.map(toolDefinition);
  const largeData = plan.features.includes("large-data");
  const packed = packAbove(plan.features);
  const tools = new DataFileWriter(TOOLS_DATA_PATH, packed);
  const definitions = new DataFileWriter(DEFINITIONS_DATA_PATH, packed);
  const offsets = writeToolData(storeTools(definitionsOfTools), tools, definitions);
  const names = definitionsOfTools.map((tool) => tool.name);
  return [
    ...packLargeFiles(
      [
        { path: TOOL_NAMES_DATA_PATH, content: bulkJson(names, true), formatted: true },
        { path: CATALOG_DATA_PATH, content: bulkJson(catalogOf(definitionsOfTools), true), formatted: true },
      ],
      packed,
    ),
    ...tools.files(),
    ...(largeData ? [{ path: TOOL_OFFSETS_PATH, content: offsets.toolOffsets, formatted: true }] : []),
    ...definitions.files(),
    ...(largeData ? [{ path: DEFINITION_OFFSETS_PATH, content: offsets.definitionOffsets, formatted: true }] : []),
  ];
}

/** `data/client-profiles.json`: what the runtime needs of profiles/clients/*.json to adapt to a client (one profile a line). */
function clientProfilesData(): EmittedFile {
  return {
    path: CLIENT_PROFILES_PATH,
    content: `[\n${runtimeProfiles()
      .map((profile) => JSON.stringify(profile))
      .join(",\n")}\n]\n`,
    formatted: true,
  };
}

/** What the emit worker makes its files from (worker-files.ts), for `plan`; `withDocument`: data/openapi.json is written. */
export function workerInput(plan: ProjectPlan, withDocument: boolean): WorkerInput {
  return {
    toolNames: plan.tools.map((tool) => tool.name),
    features: plan.features,
    typeScript: {
      tools: plan.tools.map(toolTypeSource),
      types: plan.types,
      serverInfo: serverInfo(plan),
      apiDocument: withDocument,
      features: plan.features,
    },
    ...(plan.features.includes("search")
      ? {
          searchDocuments: plan.tools.map((tool) => ({
            ...searchDocument(toolDefinition(tool)),
            titles: tool.titles ?? [],
          })),
        }
      : {}),
  };
}

/**
 * The runtime, vendored under `src/runtime/`: the core and the folders of `features` under
 * `features/`, each file as it is after a first line naming the runtime version. Not the top-level
 * `index.ts`: it re-exports the public API for code that embeds the runtime from mcp-gen's package,
 * and nothing in a generated project imports it (its code imports the modules it uses).
 */
export function runtimeFiles(features: readonly string[]): EmittedFile[] {
  const dir = join(packageRoot(), "runtime", "src");
  const header = runtimeHeader(runtimeVersion());
  const vendored = (path: string): boolean =>
    path.startsWith("features/") ? features.includes(path.split("/")[1]!) : path !== "index.ts";
  return runtimeSourcePaths(dir)
    .filter(vendored)
    .map((path) => ({
      path: `src/runtime/${path}`,
      content: header + readFileSync(join(dir, ...path.split("/")), "utf8"),
    }));
}

/** The `.ts` files under `dir`, every folder walked, as sorted `/`-separated paths relative to it. */
export function runtimeSourcePaths(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
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
      // esbuild joins dist/ into a few files after tsc: a start loads 4-5 files instead of ~70 (scripts/bundle-dist.mjs).
      // With views (feature apps), their browser script is bundled (scripts/bundle-views.mjs); then each target's artifact.
      build: [
        `tsc -p tsconfig.json && node scripts/bundle-dist.mjs${withViews(plan) ? " && node scripts/bundle-views.mjs" : ""}`,
        ...targetBuildSteps(plan),
      ].join(" && "),
      start: "node dist/index.js",
      test: "npm run build && node --test test/server.test.mjs",
      bundle: "npm run build && node scripts/bundle.mjs",
      // A stand-in for the upstream API (scripts/mock.mjs), to try the tools by hand.
      mock: "node scripts/mock.mjs",
      // Warns about a placeholder MCP Registry name (scripts/prepublish.mjs), then builds.
      prepublishOnly: "node scripts/prepublish.mjs && npm run build",
      ...targetScripts(plan),
    },
    engines: { node: ">=20.19" },
    keywords: ["mcp", "model-context-protocol", "mcp-server", "openapi"],
    ...(plan.license ? { license: plan.license } : {}),
    ...(plan.repository
      ? {
          repository: { type: "git", url: `git+${plan.repository.url}.git` },
          homepage: `${plan.repository.url}#readme`,
        }
      : {}),
    mcpName: plan.mcpName,
    dependencies: Object.fromEntries(
      runtimeDependencies(plan.features).map((name) => [name, (runtime.dependencies as Record<string, string>)[name]]),
    ),
    devDependencies: Object.fromEntries(
      [
        ["@types/node", devDependencies["@types/node"]],
        ["esbuild", devDependencies.esbuild],
        ["typescript", devDependencies.typescript],
        // What only a feature's build step needs (apps: the views' bundle), pinned like the runtime's.
        ...buildDependencies(plan.features).map((name) => [
          name,
          (runtime.dependencies as Record<string, string>)[name],
        ]),
        // What a target's build and dev scripts need (worker: wrangler).
        ...Object.entries(targetDevDependencies(plan)),
      ].sort(([a], [b]) => (a! < b! ? -1 : 1)),
    ),
  };
  return { path: "package.json", content: JSON.stringify(manifest, null, 2) + "\n" };
}

/** Whether the project serves views (feature `apps`): their browser script is bundled by esbuild, not compiled by tsc. */
function withViews(plan: ProjectPlan): boolean {
  return plan.features.includes("apps");
}

/** tsconfig.json: strict; the views' browser script (feature apps, DOM code) left to esbuild. */
function tsconfig(plan: ProjectPlan): EmittedFile {
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
    ...(withViews(plan) && { exclude: ["src/runtime/features/apps/view"] }),
  };
  return { path: "tsconfig.json", content: JSON.stringify(config, null, 2) + "\n" };
}

/** Generator state kept in the output: the tool-name lock and the tool contracts (for the next diff). */
function stateFiles(plan: ProjectPlan): EmittedFile[] {
  const { items, definitions } = shareDefinitions(contractsOf(plan.tools));
  const snapshot: StoredSnapshot = { snapshotVersion: 2, tools: items, definitions };
  return [
    { path: TOOL_LOCK_PATH, content: bulkJson(buildToolLock(plan.tools), compactJson(plan), "tools"), formatted: true },
    { path: CONTRACT_PATH, content: bulkJson(snapshot, compactJson(plan), "tools"), formatted: true },
  ];
}

/** A file of templates/ written into the project as it is (a script, the test harness). */
function copiedTemplate(path: string, template: string): EmittedFile {
  return { path, content: readFileSync(join(packageRoot(), "templates", template), "utf8") };
}

/** The generated `npm test`: a fixed harness (templates/server-test.mjs) and the spec-derived cases. */
function testFiles(plan: ProjectPlan): EmittedFile[] {
  return [
    copiedTemplate("test/server.test.mjs", "server-test.mjs"),
    {
      path: "test/cases.json",
      content: bulkJson(sharedCaseDefinitions(testCases(plan)), compactJson(plan), "cases"),
      formatted: true,
    },
  ];
}

/**
 * The cases with each body schema's `$defs` stored once for all (`definitions`; a body's `defs`:
 * name → index), as data/tools.json stores them: MS Graph beta's cases were 153 MB, 87 % of it
 * the same bodies repeated. The test harness (templates/server-test.mjs) puts them back.
 */
function sharedCaseDefinitions(all: TestCases): TestCases & { definitions?: unknown[] } {
  const schemas = all.cases.map((one) => ({ inputSchema: one.request.body?.schema ?? {} }));
  const { items, definitions } = shareDefinitions(schemas);
  const cases = all.cases.map((one, index) => {
    const { body } = one.request;
    const { inputSchema, defs } = items[index]!;
    if (body?.schema === undefined || defs === undefined) return one;
    return { ...one, request: { ...one.request, body: { ...body, schema: inputSchema as JsonSchema, defs } } };
  });
  return { ...all, cases, ...(definitions.length > 0 ? { definitions } : {}) };
}

/** Emit stage: every file of the generated project, unformatted. */
export function emitProject(plan: ProjectPlan, options: EmitOptions = {}): EmittedFile[] {
  return [
    packageJson(plan),
    tsconfig(plan),
    { path: "README.md", content: renderTemplate("README.md.hbs", plan) },
    { path: ".env.example", content: renderTemplate("env.example.hbs", plan) },
    {
      path: ".gitignore",
      content: ["node_modules/", "dist/", ".env", ".mcpb/", "*.mcpb", ...targetGitignore(plan), ""].join("\n"),
    },
    serverJson(plan),
    mcpbManifest(plan),
    copiedTemplate("scripts/bundle.mjs", "bundle.mjs"),
    copiedTemplate("scripts/bundle-dist.mjs", "bundle-dist.mjs"),
    copiedTemplate("scripts/mock.mjs", "mock.mjs"),
    copiedTemplate("scripts/prepublish.mjs", "prepublish.mjs"),
    ...(withViews(plan) ? [copiedTemplate("scripts/bundle-views.mjs", "bundle-views.mjs")] : []),
    ...dockerFiles(plan),
    ...(plan.features.includes("custom")
      ? [{ path: "src/custom/README.md", content: renderTemplate("custom-readme.md.hbs", plan), once: true }]
      : []),
    ...(options.worker === "later"
      ? []
      : workerFiles(options.worker ?? workerOutput(workerInput(plan, options.apiDocument !== undefined)))),
    ...toolsData(plan),
    // What --print-config prints (feature print-config); the README shows the same snippets.
    ...(plan.features.includes("print-config")
      ? [
          {
            path: CLIENT_CONFIG_PATH,
            content: clientConfigData({ name: plan.packageName, version: plan.version, env: configVariables(plan) }),
            formatted: true,
          },
        ]
      : []),
    ...(plan.features.includes("clients") ? [clientProfilesData()] : []),
    ...(options.apiDocument === undefined
      ? []
      : packLargeFiles(
          [{ path: API_DOCUMENT_PATH, content: options.apiDocument, formatted: true }],
          packAbove(plan.features),
        )),
    ...runtimeFiles(plan.features),
    ...testFiles(plan),
    ...stateFiles(plan),
    ...targetFiles(plan),
  ];
}
