import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { packageRoot, precompiledOr } from "../../../shared/package-root.js";
import { clientConfig, type ConfigClient, type ConfigTransport } from "./client-config.js";
import { featureCatalog, featureExport } from "../../plan/features.js";
import { TARGET_NAMES } from "../../plan/targets.js";
import { isIdentifier } from "../../plan/names.js";
import type { ProjectPlan } from "../../plan/plan-types.js";
import { configVariables } from "./config-variables.js";
import { envValue, markdownCell, markdownCode, markdownFence, oneLine, shellWord } from "./escape.js";

/**
 * Our own Handlebars environment. Nothing is HTML-escaped (the outputs are Markdown, Dockerfile and
 * .env); instead every interpolation of spec text goes through the helper of its format (escape.ts):
 * `line` (a comment or heading: one line), `cell` (Markdown table cell), `code` / `cellCode`
 * (Markdown code span, in prose / in a table), `sh` (a shell word in a snippet), `envAssign` (a
 * `KEY=value` line), `block` (spec Markdown as a block). test/unit/escape.ts lints the templates.
 */
const hbs = Handlebars.create();
hbs.registerHelper("line", (value: unknown) => oneLine(value));
hbs.registerHelper("cell", (value: unknown) => markdownCell(value));
hbs.registerHelper("code", (value: unknown) => markdownCode(value));
hbs.registerHelper("cellCode", (value: unknown) => markdownCode(value).replace(/\|/g, "\\|"));
hbs.registerHelper("route", (method: unknown, path: unknown) =>
  markdownCode(`${String(method ?? "").toUpperCase()} ${oneLine(path)}`).replace(/\|/g, "\\|"),
);
hbs.registerHelper("sh", (value: unknown) => shellWord(value));
hbs.registerHelper("fenced", (info: unknown, value: unknown) => markdownFence(String(info), value));
hbs.registerHelper("block", (value: unknown) => markdownBlock(String(value ?? "")));
hbs.registerHelper("envAssign", (name: string, value: unknown, commented: boolean) => {
  const prefix = commented ? "# " : "";
  const written = envValue(value);
  if (written !== undefined) return `${prefix}${name}=${written}`;
  return `# example (quote it as your .env reader expects): ${oneLine(value)}\n${prefix}${name}=`;
});
hbs.registerHelper("firstLine", (value: unknown) =>
  String(value ?? "")
    .split(/\n/)[0]!
    .trim(),
);
hbs.registerHelper("upper", (value: unknown) => String(value ?? "").toUpperCase());
hbs.registerHelper("json", (value: unknown) => JSON.stringify(value, null, 2));
hbs.registerHelper("has", (list: unknown, item: unknown) => Array.isArray(list) && list.includes(item));
/** The schemes each user signs in to (feature user-oauth): authorization code flows and OpenID Connect. */
hbs.registerHelper("signInSchemes", (schemes: unknown) =>
  Array.isArray(schemes)
    ? schemes.filter(
        (s: { type?: string; authorizationCode?: unknown }) => s.authorizationCode || s.type === "openIdConnect",
      )
    : [],
);
/** The variable of a scheme's extra authorization parameters, named beside its client id (as the runtime reads it). */
hbs.registerHelper("authorizeParamsVar", (clientId: unknown) =>
  String(clientId ?? "").replace(/CLIENT_ID$/, "AUTHORIZE_PARAMS"),
);
/** The scopes the operations ask of scheme `key` (to grant the app upstream), sorted. */
hbs.registerHelper("signInScopes", (key: unknown, tools: unknown) => {
  const scopes = new Set<string>();
  for (const tool of Array.isArray(tools) ? (tools as Array<{ http?: { security?: unknown } }>) : [])
    for (const alternative of Array.isArray(tool.http?.security) ? (tool.http.security as unknown[]) : [])
      for (const scope of ((alternative as Record<string, unknown>)[String(key)] as string[] | undefined) ?? [])
        scopes.add(scope);
  return [...scopes].sort();
});
hbs.registerHelper(
  "hints",
  (annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean }) => {
    if (annotations.readOnlyHint) return "read-only";
    const hints = [
      annotations.destructiveHint ? "destructive" : "writes",
      annotations.idempotentHint ? "idempotent" : "",
    ];
    return hints.filter(Boolean).join(", ");
  },
);

/**
 * The spec's Markdown as a block of the README: kept as Markdown (it is documentation), but a code
 * fence it opens and never closes is closed, so it cannot swallow the README's own sections.
 */
function markdownBlock(text: string): string {
  let open: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!fence) continue;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
  }
  return open === undefined ? text : `${text}\n${open}`;
}

const compiled = new Map<string, HandlebarsTemplateDelegate>();

/** The view every template gets: the plan plus derived values. */
function view(plan: ProjectPlan): Record<string, unknown> {
  // The snippets are those data/client-config.json gives --print-config, so the README and the server agree.
  const info = { name: plan.packageName, version: plan.version, env: configVariables(plan) };
  const snippet = (client: ConfigClient, transport: ConfigTransport) => {
    const result = clientConfig(client, info, transport);
    return result.ok ? result.text : "";
  };
  const http: ConfigTransport = { kind: "http", url: "http://127.0.0.1:3000/mcp" };
  return {
    ...plan,
    // Strict templates need every field present; secrets never get an example value.
    env: plan.env.map((variable) => ({ ...variable, example: variable.secret ? "" : (variable.example ?? "") })),
    serverUrl: plan.serverUrl
      ? {
          template: plan.serverUrl.template,
          variables: plan.serverUrl.variables.map((v) => ({
            name: v.name,
            env: v.env,
            default: v.default ?? false,
            enum: v.enum ?? false,
          })),
        }
      : false,
    // "About the API" only when the document's description says more than the README's first line.
    apiDescription: plan.description.endsWith(`: ${plan.apiDescription?.replace(/\s+/g, " ").trim()}`)
      ? false
      : (plan.apiDescription ?? false),
    specLabel: plan.specVersion === "2.0" ? "Swagger 2.0" : `OpenAPI ${plan.specVersion}`,
    // Every feature of the catalogue by its export name (`legacySse`), true when the project has it.
    feature: Object.fromEntries(
      Object.keys(featureCatalog().features).map((name) => [featureExport(name), plan.features.includes(name)]),
    ),
    claudeDesktop: snippet("claude-desktop", { kind: "stdio" }),
    cursor: snippet("cursor", { kind: "stdio" }),
    // Claude Desktop and Cursor read the same `mcpServers` entry: one snippet names both.
    cursorAsDesktop: snippet("cursor", { kind: "stdio" }) === snippet("claude-desktop", { kind: "stdio" }),
    vscode: snippet("vscode", { kind: "stdio" }),
    claudeCode: snippet("claude-code", { kind: "stdio" }),
    cursorHttp: snippet("cursor", http),
    vscodeHttp: snippet("vscode", http),
    claudeCodeHttp: snippet("claude-code", http),
    claudeCodeHttpChosen: snippet("claude-code", { kind: "http", url: chosenUrl(plan) }),
    exampleTool: exampleTool(plan),
    // Every target by name, true when the project has it (`{{#if target.worker}}`).
    target: Object.fromEntries(TARGET_NAMES.map((name) => [name, plan.targets.includes(name)])),
  };
}

/**
 * The README's example of a per-connection choice: the local URL narrowed to the first toolset of
 * the API (if it has one) and to reads. Tags come from the spec: URL-encoded, then shell-quoted.
 */
function chosenUrl(plan: ProjectPlan): string {
  const toolset = plan.tools.flatMap((tool) => tool.tags)[0];
  const query = toolset === undefined ? "" : `toolsets=${encodeURIComponent(toolset.toLowerCase())}&`;
  return `http://127.0.0.1:3000/mcp?${query}read_only=1`;
}

/**
 * The tool the custom-code README's example uses (the first one, preferring a read-only tool), as
 * TypeScript: its key in `hooks`, its method on `api`, arguments for it. Tool names are
 * `[A-Za-z0-9_-]` (plan/names.ts), so they are safe in a code fence.
 */
function exampleTool(plan: ProjectPlan): Record<string, string> | false {
  const tool = plan.tools.find((t) => t.annotations.readOnlyHint) ?? plan.tools[0];
  if (!tool) return false;
  const bare = isIdentifier(tool.name);
  return {
    key: bare ? tool.name : JSON.stringify(tool.name),
    access: bare ? `.${tool.name}` : `[${JSON.stringify(tool.name)}]`,
    inputTypeName: tool.inputTypeName,
    outputType: tool.outputTypeName ?? "unknown",
    // Argument names come from the spec: not written into the fence.
    arguments: (tool.inputSchema.required ?? []).length === 0 ? "{}" : `{ /* ${tool.inputTypeName} */ }`,
  };
}

/** Renders one of `templates/*.hbs` with the project plan. */
export function renderTemplate(name: string, plan: ProjectPlan): string {
  let template = compiled.get(name);
  if (!template) compiled.set(name, (template = templateOf(name)));
  return template(view(plan));
}

/** Where `npm run build` writes the templates precompiled (scripts/build-templates.js), under dist/. */
export const PRECOMPILED_TEMPLATES = "generator/pipeline/emit/publishing/templates.precompiled.cjs";

/** How every template is compiled: nothing HTML-escaped, a missing field an error. */
const COMPILE_OPTIONS = { noEscape: true, strict: true } as const;

/** Each template precompiled by the build, with the source it was compiled from. */
type PrecompiledTemplates = Record<string, { source: string; spec: TemplateSpecification }>;
let precompiled: PrecompiledTemplates | undefined;

/**
 * The template `name`: the build's precompiled code when its source is the file's text (compiling
 * the README's template took about 0.1 s of CPU on every generation), else compiled now (a checkout
 * not built, or a template edited since the build).
 */
function templateOf(name: string): HandlebarsTemplateDelegate {
  const source = readFileSync(join(packageRoot(), "templates", name), "utf8");
  precompiled ??= precompiledOr<PrecompiledTemplates>(PRECOMPILED_TEMPLATES, () => ({}));
  const entry = Object.hasOwn(precompiled, name) ? precompiled[name] : undefined;
  return entry?.source === source ? hbs.template(entry.spec) : hbs.compile(source, COMPILE_OPTIONS);
}

/** The CommonJS module of every `templates/*.hbs` precompiled with its source (for scripts/build-templates.js). */
export function precompiledTemplatesModule(): string {
  const folder = join(packageRoot(), "templates");
  const entries = readdirSync(folder)
    .filter((name) => name.endsWith(".hbs"))
    .sort()
    .map((name) => {
      const source = readFileSync(join(folder, name), "utf8");
      const spec = hbs.precompile(source, COMPILE_OPTIONS);
      return `  ${JSON.stringify(name)}: { source: ${JSON.stringify(source)}, spec: ${spec} },`;
    });
  return `"use strict";\n// Handlebars templates precompiled by scripts/build-templates.js.\nmodule.exports = {\n${entries.join("\n")}\n};\n`;
}
