import { Codes, DiagnosticBag } from "../diagnostics.js";
import type { ApiIR, OperationIR } from "../ir/types.js";
import { annotationsFor } from "./annotations.js";
import { describeOperation } from "./describe.js";
import { planInput } from "./input-schema.js";
import { camelCase, NameAllocator, nameFromRoute, pascalCase, sanitizeToolName, TOOL_NAME_MAX } from "./names.js";
import { planOutput } from "./output-schema.js";
import { outputNodeBudget } from "./output-compact.js";
import { applyPaginationContract, detectPagination } from "./pagination.js";
import { planSecurity, type AuthOverride } from "./security.js";
import { planServerUrl } from "./server-url.js";
import { lockedNames, operationKey, type ToolLock } from "./tool-lock.js";
import { npmLicense, parseRepository, REGISTRY_NAME, registryName } from "./publishing.js";
import type { EnvVarPlan, ProjectPlan, ToolPlan } from "./types.js";

/** Options that shape the plan. */
export interface PlanOptions {
  /** npm package name; derived from `info.title` when absent. */
  packageName?: string;
  /** Authentication for operations the spec gives no security (`--auth`). */
  auth?: AuthOverride;
  /** Prefix of the credential variables (`--env-prefix`), to avoid clashes. */
  envPrefix?: string;
  /** Tool names of the previous generation (`.mcp-gen/tool-names.json`); they win over fresh names. */
  toolLock?: ToolLock;
  /** Source repository URL of the generated package (`--repository`). */
  repository?: string;
  /** MCP Registry name (`--mcp-name`), e.g. `io.github.acme/pets-mcp`. */
  mcpName?: string;
  /** Emit output schemas (default true). */
  outputSchemas?: boolean;
  /** Typed nodes per output schema (default: a share of the API budget, see output-compact.ts). */
  outputNodeBudget?: number;
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

/** The name an operation gets when nothing is locked: its sanitized operationId, else method and path. */
export function wantedToolName(op: OperationIR): string {
  return op.operationId ? sanitizeToolName(op.operationId) || nameFromRoute(op.method, op.path) : nameFromRoute(op.method, op.path);
}

/**
 * Tool names in spec order: locked names are claimed first (so they can never be taken by a newcomer
 * or shifted by a new collision), then every other operation gets its wanted name or a free variant.
 */
function toolNames(ir: ApiIR, lock: ToolLock | undefined): Array<{ name: string; locked: boolean }> {
  const names = new NameAllocator(TOOL_NAME_MAX, ["index"]);
  const locked = lockedNames(ir.operations, lock);
  const result = locked.map((name) => (name === undefined ? undefined : names.claim(name)));
  return ir.operations.map((op, i) => (result[i] !== undefined ? { name: result[i]!, locked: true } : { name: names.claim(wantedToolName(op)), locked: false }));
}

function planTool(op: OperationIR, { name, locked }: { name: string; locked: boolean }, ir: ApiIR, identifiers: NameAllocator, bag: DiagnosticBag, options: PlanOptions): ToolPlan {
  if (locked && op.operationId && name !== op.operationId) {
    bag.info(Codes.nameChanged, `operationId "${op.operationId}" keeps its tool name "${name}" from .mcp-gen/tool-names.json.`, `${op.pointer}/operationId`, "To rename the tool, edit or delete its entry in .mcp-gen/tool-names.json (or pass --reset-tool-names) and generate again.");
  } else if (op.operationId && name !== op.operationId) {
    bag.info(Codes.nameChanged, `operationId "${op.operationId}" is exposed as tool "${name}".`, `${op.pointer}/operationId`, "Tool names are limited to [A-Za-z0-9_.-], 64 characters, and unique.");
  }
  const input = planInput(op, ir.schemas, bag);
  const output = planOutput(op, ir.schemas, { outputSchemas: options.outputSchemas, nodeBudget: options.outputNodeBudget ?? outputNodeBudget(ir.operations.length) });
  const taken = new Set(Object.keys(input.inputSchema.properties ?? {}));
  const pagination = detectPagination({ op, parameters: input.parameters, body: output.body, taken }, ir.schemas, bag);
  if (pagination) applyPaginationContract(pagination, input.inputSchema, output.outputSchema);
  const typeBase = pascalCase(name);
  const errorStatuses = op.responses.filter((r) => /^4\d\d$/.test(r.status)).map((r) => Number(r.status));
  return {
    pointer: op.pointer,
    name,
    operationKey: operationKey(op.method, op.path),
    ...(op.operationId ? { operationId: op.operationId } : {}),
    ...(op.summary ? { title: op.summary } : {}),
    ...describeOperation(op, name),
    inputSchema: input.inputSchema,
    ...(output.outputSchema ? { outputSchema: output.outputSchema } : {}),
    annotations: annotationsFor(op.method),
    http: {
      method: op.method,
      path: op.path,
      parameters: input.parameters,
      ...(input.body ? { body: input.body } : {}),
      response: output.response,
      ...(pagination ? { pagination } : {}),
    },
    fileName: name,
    constName: identifiers.claim(`${camelCase(name)}Tool`),
    inputTypeName: identifiers.claim(`${typeBase}Input`),
    ...(output.outputSchema ? { outputTypeName: identifiers.claim(`${typeBase}Output`) } : {}),
    ...(errorStatuses.length > 0 ? { errorStatuses } : {}),
  };
}

/** Semver for package.json: the API version when it is one, else 0.1.0. */
function packageVersion(apiVersion: string): string {
  return /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(apiVersion) ? apiVersion : "0.1.0";
}

/** Plan stage: decides names, schemas, bindings and files for every operation. */
export function planProject(ir: ApiIR, options: PlanOptions, bag: DiagnosticBag): ProjectPlan {
  const packageName = options.packageName ?? packageNameFromTitle(ir.title);
  if (options.packageName) checkPackageName(options.packageName, bag);
  const names = toolNames(ir, options.toolLock);
  // Identifiers used at module level in tool files and the tools index.
  const identifiers = new NameAllocator(Number.POSITIVE_INFINITY, ["ToolDefinition", "tools", "serverInfo"]);
  const tools = ir.operations.map((op, i) => planTool(op, names[i]!, ir, identifiers, bag, options));
  const toolByPointer = new Map(tools.map((tool) => [tool.pointer, tool]));
  const security = planSecurity(ir, { auth: options.auth, envPrefix: options.envPrefix }, (op) => toolByPointer.get(op.pointer)!.name, bag);
  for (const tool of tools) {
    const requirements = security.requirements.get(tool.pointer);
    if (requirements) tool.http.security = requirements;
  }
  const upstream = planServerUrl(ir, bag);
  const env: EnvVarPlan[] = [
    ...upstream.env,
    ...security.env,
    ...(tools.some((tool) => tool.http.pagination)
      ? [{ name: "MCP_CURSOR_SECRET", description: "Key that signs pagination cursors; set the same value on every instance behind a load balancer (default: random per process).", required: false, secret: true }]
      : []),
  ];
  const repository = options.repository ? parseRepository(options.repository) : undefined;
  if (options.repository && !repository) {
    bag.error(Codes.packageNameInvalid, `--repository "${options.repository}" is not an http(s) URL.`, undefined, "Use the repository's web URL, e.g. https://github.com/acme/pets-mcp (or github:acme/pets-mcp).");
  }
  if (options.mcpName && !REGISTRY_NAME.test(options.mcpName)) {
    bag.error(Codes.packageNameInvalid, `--mcp-name "${options.mcpName}" is not a valid MCP Registry name.`, undefined, "Use reverse-DNS namespace/name, e.g. io.github.acme/pets-mcp.");
  }
  const binName = packageName.replace(/^@[^/]+\//, "");
  const firstLine = ir.description?.split(/\n\s*\n/)[0]?.replace(/\s+/g, " ").trim();
  // A title is one line wherever it appears (serverInfo, package.json, README heading, comments).
  const title = ir.title.replace(/\s+/g, " ").trim();
  return {
    packageName,
    binName,
    version: packageVersion(ir.apiVersion),
    title,
    description: `MCP server for ${title}${firstLine ? `: ${firstLine}` : ""}`.slice(0, 300),
    apiDescription: ir.description,
    ...(npmLicense(ir.license) ? { license: npmLicense(ir.license) } : {}),
    ...(repository ? { repository } : {}),
    mcpName: registryName(binName, packageName, repository, options.mcpName),
    ...(upstream.defaultBaseUrl ? { defaultBaseUrl: upstream.defaultBaseUrl } : {}),
    ...(upstream.serverUrl ? { serverUrl: upstream.serverUrl } : {}),
    env,
    tools,
    specVersion: ir.specVersion,
    securitySchemes: security.schemes,
  };
}
