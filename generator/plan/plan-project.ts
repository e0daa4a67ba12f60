import { Codes, DiagnosticBag } from "../diagnostics.js";
import type { ApiIR, OperationIR } from "../ir/types.js";
import { annotationsFor } from "./annotations.js";
import { planInput } from "./input-schema.js";
import { camelCase, NameAllocator, nameFromRoute, pascalCase, sanitizeToolName, TOOL_NAME_MAX } from "./names.js";
import { planOutput } from "./output-schema.js";
import type { EnvVarPlan, ProjectPlan, ToolPlan } from "./types.js";

/** Options that shape the plan. */
export interface PlanOptions {
  /** npm package name; derived from `info.title` when absent. */
  packageName?: string;
  /** Emit output schemas (default true). */
  outputSchemas?: boolean;
}

/** npm's rules for package names (lower case, URL-safe, optional scope, at most 214 characters). */
const NPM_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** `Pet Store API` → `pet-store-api-mcp`. */
export function packageNameFromTitle(title: string): string {
  const base = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 200) || "api";
  return /(^|-)mcp(-server)?$/.test(base) ? base : `${base}-mcp`;
}

/** Checks a user-given package name; records an error when npm would refuse it. */
function checkPackageName(name: string, bag: DiagnosticBag): void {
  if (name.length > 214 || !NPM_NAME.test(name)) {
    bag.error(Codes.packageNameInvalid, `--name "${name}" is not a valid npm package name.`, undefined, "Use lower case letters, digits, '-', '.', '_' and an optional @scope/, e.g. @acme/pets-mcp.");
  }
}

/** Tool description: summary and description, trimmed; never empty. */
function describe(op: OperationIR): string {
  const parts = [op.summary, op.description].filter((p): p is string => p !== undefined);
  if (parts.length === 2 && parts[1]!.startsWith(parts[0]!)) parts.shift();
  let text = parts.join("\n\n") || `${op.method.toUpperCase()} ${op.path}`;
  if (op.deprecated) text += "\n\nDeprecated: this operation may be removed from the API.";
  return text;
}

function planTool(op: OperationIR, ir: ApiIR, names: NameAllocator, identifiers: NameAllocator, bag: DiagnosticBag, options: PlanOptions): ToolPlan {
  const wanted = op.operationId ? sanitizeToolName(op.operationId) || nameFromRoute(op.method, op.path) : nameFromRoute(op.method, op.path);
  const name = names.claim(wanted);
  if (op.operationId && name !== op.operationId) {
    bag.info(Codes.nameChanged, `operationId "${op.operationId}" is exposed as tool "${name}".`, `${op.pointer}/operationId`, "Tool names are limited to [A-Za-z0-9_.-], 64 characters, and unique.");
  }
  const input = planInput(op, ir.schemas, bag);
  const output = planOutput(op, ir.schemas, { outputSchemas: options.outputSchemas });
  const typeBase = pascalCase(name);
  return {
    pointer: op.pointer,
    name,
    ...(op.summary ? { title: op.summary } : {}),
    description: describe(op),
    inputSchema: input.inputSchema,
    ...(output.outputSchema ? { outputSchema: output.outputSchema } : {}),
    annotations: annotationsFor(op.method, op.summary),
    http: {
      method: op.method,
      path: op.path,
      parameters: input.parameters,
      ...(input.body ? { body: input.body } : {}),
      response: output.response,
    },
    fileName: name,
    constName: identifiers.claim(`${camelCase(name)}Tool`),
    inputTypeName: identifiers.claim(`${typeBase}Input`),
    ...(output.outputSchema ? { outputTypeName: identifiers.claim(`${typeBase}Output`) } : {}),
  };
}

/** Picks the default upstream URL: the first absolute server URL. */
function defaultBaseUrl(ir: ApiIR, bag: DiagnosticBag): string | undefined {
  const absolute = ir.servers.find((s) => /^https?:\/\//i.test(s.url) && !s.url.includes("{"));
  if (!absolute && ir.servers.length > 0) {
    bag.info(Codes.serverUrlRelative, `The spec's server URL "${ir.servers[0]!.url}" is not absolute; the server needs --base-url or API_BASE_URL.`, ir.servers[0]!.pointer);
  }
  return absolute?.url.replace(/\/+$/, "");
}

/** Semver for package.json: the API version when it is one, else 0.1.0. */
function packageVersion(apiVersion: string): string {
  return /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(apiVersion) ? apiVersion : "0.1.0";
}

/** Plan stage: decides names, schemas, bindings and files for every operation. */
export function planProject(ir: ApiIR, options: PlanOptions, bag: DiagnosticBag): ProjectPlan {
  const packageName = options.packageName ?? packageNameFromTitle(ir.title);
  if (options.packageName) checkPackageName(options.packageName, bag);
  const names = new NameAllocator(TOOL_NAME_MAX, ["index"]);
  // Identifiers used at module level in tool files and the tools index.
  const identifiers = new NameAllocator(Number.POSITIVE_INFINITY, ["ToolDefinition", "tools", "serverInfo"]);
  const tools = ir.operations.map((op) => planTool(op, ir, names, identifiers, bag, options));
  const baseUrl = defaultBaseUrl(ir, bag);
  const env: EnvVarPlan[] = [
    {
      name: "API_BASE_URL",
      description: baseUrl ? `Base URL of the upstream API (default: ${baseUrl}). Same as --base-url.` : "Base URL of the upstream API. Same as --base-url.",
      required: baseUrl === undefined,
      example: baseUrl ?? "https://api.example.com",
    },
  ];
  const firstLine = ir.description?.split(/\n\s*\n/)[0]?.replace(/\s+/g, " ").trim();
  return {
    packageName,
    binName: packageName.replace(/^@[^/]+\//, ""),
    version: packageVersion(ir.apiVersion),
    title: ir.title,
    description: `MCP server for ${ir.title}${firstLine ? `: ${firstLine}` : ""}`.slice(0, 300),
    apiDescription: ir.description,
    license: ir.license,
    defaultBaseUrl: baseUrl,
    env,
    tools,
    specVersion: ir.specVersion,
  };
}
