import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import type { ApiIR, OperationIR } from "../ir/ir-types.js";
import { annotationsOf, applyResultOverrides, descriptionOf, titleOf, toolsetTags } from "./overrides.js";
import { planInput, type InputPlan } from "./input-schema.js";
import { type ContractSnapshot } from "./changes/contracts.js";
import { contractsOf } from "./changes/contracts-of.js";
import { diffTools } from "./changes/diff-tools.js";
import { decideVersion, type PreviousVersion } from "./version.js";
import {
  isCutName,
  NameAllocator,
  nameFromRoute,
  pascalCase,
  routeTypeName,
  sanitizeToolName,
  TOOL_NAME_MAX,
} from "./names.js";
import { ListingCheck } from "./listing-check.js";
import { planOutput } from "./output-schema.js";
import { planResultTypes, planTypes, TYPE_NAME_MAX } from "./type-plan.js";
import { outputNodeBudget } from "./output-compact.js";
import { applyPaginationContract, detectPagination } from "./pagination.js";
import { fieldsArgumentName, fieldsProperty, listOutputFields } from "./output-fields.js";
import type { ObjectJsonSchema, ResponseBinding } from "../../shared/contract.js";
import { credentialParameters, planSecurity, type AuthOverride } from "./credentials.js";
import { planServerUrl } from "./server-url.js";
import {
  fileArguments,
  isFiltering,
  operationFilter,
  type ListedTool,
  type OperationFilter,
} from "../../shared/contract.js";
import { chooseFeatures, featureCatalog, answersBinary, needsEncodings, type FeatureChoice } from "./features.js";
import {
  FETCH_FEATURE,
  TARGET_NAMES,
  featuresOfTargets,
  chosenTargets,
  isTargetName,
  targetRefusals,
  type TargetName,
} from "./targets.js";
import { lockedEntries, operationKey, type ToolLock } from "./tool-lock.js";
import { npmLicense, parseRepository, REGISTRY_NAME, registryName } from "./publishing.js";
import type { EnvVarPlan, ProjectPlan, ToolPlan } from "./plan-types.js";

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
  /** The previous generation's tool contracts and version, when regenerating: they decide `diff` and `version`. */
  previous?: { contracts?: ContractSnapshot; version?: PreviousVersion };
  /** Apply the diff's suggested semver bump to the previous version (default true; `--no-bump`). */
  bump?: boolean;
  /** Which operations become tools (`--include-tags`, `--read-only` …); the others are not generated. */
  filter?: OperationFilter;
  /** The surface the server serves by default (`--surface`). */
  defaultSurface?: "all" | "search" | "code" | "auto";
  /** The server's default result budget in tokens (`--result-budget`). */
  resultBudget?: number;
  /** Runtime features asked for (`--with`): see features.ts. */
  features?: readonly string[];
  /** Where the server runs (`--target`, default node): see targets.ts. */
  targets?: readonly string[];
  /** The project has custom code in src/custom/ (adds feature custom). */
  hasCustomCode?: boolean;
  /** The project's custom code calls `clientRequest` (adds feature client-requests). */
  customCallsClient?: boolean;
  /** The package's license (`--license`, a workspace's `license`); default: the spec's `info.license` when it is an SPDX identifier. */
  license?: string;
}

/** npm's rules for package names (lower case, URL-safe, optional scope, at most 214 characters). */
const NPM_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/**
 * Longest base of a default package name (before `-mcp`). Clients key a server by this name and
 * join it to every tool name: Cursor drops tools whose server name plus tool name exceed 60
 * characters, so a long title ("GitHub's official OpenAPI spec + Octokit extension", 52) would cost
 * every tool. Whole words are kept up to this length.
 */
const DEFAULT_NAME_BASE = 24;

/** `Pet Store API` → `pet-store-api-mcp`; long titles keep their first words (see DEFAULT_NAME_BASE). */
export function packageNameFromTitle(title: string): string {
  const words = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .split("-")
    .filter(Boolean);
  let base = (words[0] ?? "api").slice(0, DEFAULT_NAME_BASE);
  for (const word of words.slice(1)) {
    if (base.length + 1 + word.length > DEFAULT_NAME_BASE) break;
    base += `-${word}`;
  }
  return /(^|-)mcp(-server)?$/.test(base) ? base : `${base}-mcp`;
}

/** Checks a user-given package name; records an error when npm would refuse it. */
function checkPackageName(name: string, bag: DiagnosticBag): void {
  if (name.length > 214 || !NPM_NAME.test(name)) {
    bag.error(
      Codes.packageNameInvalid,
      `--name "${name}" is not a valid npm package name.`,
      undefined,
      "Use lower case letters, digits, '-', '.', '_' and an optional @scope/, e.g. @acme/pets-mcp.",
    );
  }
}

/** The name an operation gets when nothing is locked: its sanitized operationId, else method and path. */
export function wantedToolName(op: OperationIR): string {
  return op.operationId
    ? sanitizeToolName(op.operationId) || nameFromRoute(op.method, op.path)
    : nameFromRoute(op.method, op.path);
}

/** A tool's name, whether the lock gave it, and the output budget the lock keeps for it. */
interface NamedTool {
  name: string;
  locked: boolean;
  /** The name is the operation's `x-mcp-name`. */
  given?: boolean;
  outputBudget?: number;
}

/**
 * Tool names in spec order: names given by `x-mcp-name` are claimed first (the user's choice wins
 * over the lock), then locked names (so they can never be taken by a newcomer or shifted by a new
 * collision), then every other operation gets its wanted name or a free variant.
 */
function toolNames(ir: ApiIR, lock: ToolLock | undefined, bag: DiagnosticBag): NamedTool[] {
  const names = new NameAllocator(TOOL_NAME_MAX, ["index"]);
  const given = ir.operations.map((op) => claimGivenName(op, names, bag));
  const locked = lockedEntries(ir.operations, lock);
  const result = locked.map((entry, i) =>
    given[i] !== undefined || entry === undefined ? undefined : names.claim(entry.tool),
  );
  return ir.operations.map((op, i) => {
    const outputBudget = locked[i]?.outputBudget;
    const kept = outputBudget !== undefined ? { outputBudget } : {};
    if (given[i] !== undefined) return { name: given[i]!, locked: false, given: true, ...kept };
    return result[i] !== undefined
      ? { name: result[i]!, locked: true, ...kept }
      : { name: names.claim(wantedToolName(op)), locked: false, ...kept };
  });
}

/** The operation's `x-mcp-name`, claimed; undefined (with MG122) when another operation has it already. */
function claimGivenName(op: OperationIR, names: NameAllocator, bag: DiagnosticBag): string | undefined {
  const wanted = op.mcp?.name;
  if (wanted === undefined) return undefined;
  if (!names.has(wanted)) return names.claim(wanted);
  bag.warn(
    Codes.extensionInvalid,
    `x-mcp-name is ignored: another operation is named "${wanted}" already (names are unique, case-insensitively).`,
    `${op.pointer}/x-mcp-name`,
    "Give each operation its own x-mcp-name.",
  );
  return undefined;
}

/**
 * Carries the chosen body media type's `encoding` map onto a form or multipart body's binding (the
 * runtime serialises each field by it); other media types ignore `encoding` here.
 */
function withFieldEncoding(input: InputPlan, op: OperationIR): InputPlan {
  const body = input.body;
  const essence = body?.mediaType.split(";")[0]!.trim().toLowerCase();
  if (!body || (essence !== "application/x-www-form-urlencoded" && essence !== "multipart/form-data")) return input;
  const media = op.requestBody?.contents.find((c) => c.mediaType === body.mediaType);
  return media?.encoding ? { ...input, body: { ...body, encoding: media.encoding } } : input;
}

/** Longest module name under `src/tools/` (without extension). */
const MODULE_NAME_MAX = 60;

/**
 * The module of `src/tools/` each operation's types go to: one per tag (the operation's first),
 * else per first path segment, so a big API writes tens of type modules instead of one per
 * operation (GitHub: 45 instead of 1,223 — creating a file is the costly part of writing a
 * project, and of reading one for tsc). Names are the tag in lower-case kebab form, unique
 * case-insensitively, `index` excepted; claimed in spec order, so they are deterministic.
 */
export function toolModuleNames(operations: readonly Pick<OperationIR, "tags" | "path">[]): string[] {
  const names = new NameAllocator(MODULE_NAME_MAX, ["index"]);
  const byKey = new Map<string, string>();
  return operations.map((op) => {
    const key = op.tags[0] ?? op.path.split("/").find((segment) => segment !== "" && !segment.startsWith("{")) ?? "";
    let name = byKey.get(key);
    if (name === undefined) {
      const wanted = key
        .toLowerCase()
        .normalize("NFKD")
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "");
      name = names.claim(wanted || "operations");
      byKey.set(key, name);
    }
    return name;
  });
}

function planTool(
  op: OperationIR,
  { name, locked, given, outputBudget: lockedBudget }: NamedTool,
  fileName: string,
  ir: ApiIR,
  sizedAs: number,
  identifiers: NameAllocator,
  bag: DiagnosticBag,
  options: PlanOptions,
  filled: ReadonlyMap<string, string>,
): ToolPlan {
  if (given) {
    // The user named the tool: nothing to explain.
  } else if (locked && op.operationId && name !== op.operationId) {
    bag.info(
      Codes.nameChanged,
      `operationId "${op.operationId}" keeps its tool name "${name}" from .mcp-gen/tool-names.json.`,
      `${op.pointer}/operationId`,
      "To rename the tool, edit or delete its entry in .mcp-gen/tool-names.json (or pass --reset-tool-names) and generate again.",
    );
  } else if (op.operationId && name !== op.operationId) {
    bag.info(
      Codes.nameChanged,
      `operationId "${op.operationId}" is exposed as tool "${name}".`,
      `${op.pointer}/operationId`,
      "Tool names are limited to [A-Za-z0-9_-], 64 characters, and unique.",
    );
  }
  const input = withFieldEncoding(planInput(op, ir.schemas, bag, filled), op);
  // A tool keeps the budget it was first given (see tool-lock.ts); a new one gets its share of the API's.
  const outputBudget = options.outputNodeBudget ?? lockedBudget ?? outputNodeBudget(sizedAs);
  const output = planOutput(op, ir.schemas, { outputSchemas: options.outputSchemas, nodeBudget: outputBudget });
  const taken = new Set(Object.keys(input.inputSchema.properties ?? {}));
  const pagination = detectPagination({ op, parameters: input.parameters, body: output.body, taken }, ir.schemas, bag);
  if (pagination) applyPaginationContract(pagination, input.inputSchema, output.outputSchema);
  if (output.body !== undefined)
    addFieldsArgument(input.inputSchema, output.response, listOutputFields(output.body, ir.schemas));
  applyResultOverrides(op, output.response, bag);
  const typeBase = typeBaseName(name, op);
  const errorStatuses = op.responses.filter((r) => /^4\d\d$/.test(r.status)).map((r) => Number(r.status));
  return {
    pointer: op.pointer,
    name,
    operationKey: operationKey(op.method, op.path),
    ...(op.operationId ? { operationId: op.operationId } : {}),
    ...(titleOf(op) ? { title: titleOf(op) } : {}),
    ...descriptionOf(op, name),
    inputSchema: input.inputSchema,
    ...(output.outputSchema ? { outputSchema: output.outputSchema } : {}),
    ...(output.outputDetail !== undefined ? { outputDetail: output.outputDetail } : {}),
    outputBudget,
    annotations: annotationsOf(op),
    ...(op.mcp?.confirm ? { confirm: true } : {}),
    tags: toolsetTags(op),
    ...(op.titles ? { titles: [...op.titles] } : {}),
    http: {
      method: op.method,
      path: op.path,
      parameters: input.parameters,
      ...(input.body ? { body: input.body } : {}),
      response: output.response,
      ...(pagination ? { pagination } : {}),
    },
    fileName,
    inputTypeName: identifiers.claim(`${typeBase}Input`),
    outputTypeName: identifiers.claim(`${typeBase}Output`),
    resultTypes: planResultTypes(op, ir.schemas, {
      ...(output.body !== undefined ? { body: output.body } : {}),
      hasOutputSchema: output.outputSchema !== undefined,
    }),
    ...(errorStatuses.length > 0 ? { errorStatuses } : {}),
  };
}

/**
 * The base of a tool's type names (`ListPets` of `ListPetsInput`): its name in PascalCase, which
 * the name lock keeps stable. A name that had to be cut to 64 characters ends in a hash; such a
 * tool's types are named from its method and path words instead (at most 54 characters, so the
 * type names stay within 60), as stable as the route.
 */
export function typeBaseName(toolName: string, op: Pick<OperationIR, "method" | "path">): string {
  return isCutName(toolName)
    ? routeTypeName(op.method, op.path, TYPE_NAME_MAX - "Output".length)
    : pascalCase(toolName);
}

/** Plan stage: decides names, schemas, bindings and files for every operation. */
export function planProject(fullIr: ApiIR, options: PlanOptions, bag: DiagnosticBag): ProjectPlan {
  const packageName = options.packageName ?? packageNameFromTitle(fullIr.title);
  if (options.packageName) checkPackageName(options.packageName, bag);
  // Names come from every operation, so a filtered generation names its tools as a full one does.
  const { ir, names, sizedAs } = filterOperations(
    fullIr,
    toolNames(fullIr, options.toolLock, bag),
    options.filter,
    bag,
  );
  // Identifiers used at module level in tool files and the tools index.
  const identifiers = new NameAllocator(Number.POSITIVE_INFINITY, ["ToolDefinition", "tools", "serverInfo"]);
  const modules = toolModuleNames(ir.operations);
  // Security first: a parameter an operation's credential fills is no argument of its tool.
  const nameByPointer = new Map(ir.operations.map((op, i) => [op.pointer, names[i]!.name]));
  const security = planSecurity(
    ir,
    { auth: options.auth, envPrefix: options.envPrefix },
    (op) => nameByPointer.get(op.pointer)!,
    bag,
  );
  const tools = listable(
    ir.operations.map((op, i) => {
      const requirements = security.requirements.get(op.pointer);
      const filled = credentialParameters(requirements, security.schemes);
      const tool = planTool(op, names[i]!, modules[i]!, ir, sizedAs, identifiers, bag, options, filled);
      if (requirements) tool.http.security = requirements;
      return tool;
    }),
    bag,
  );
  // After the tools' type names, which keep the names they had before schemas became types.
  const types = planTypes(ir, identifiers);
  const upstream = planServerUrl(ir, bag);
  const env = envVars(upstream.env, security.env, tools);
  const repository = checkPublishing(options, bag);
  const license = options.license !== undefined ? npmLicense(options.license) : npmLicense(ir.license);
  const binName = packageName.replace(/^@[^/]+\//, "");
  const firstLine = ir.description
    ?.split(/\n\s*\n/)[0]
    ?.replace(/\s+/g, " ")
    .trim();
  // A title is one line wherever it appears (serverInfo, package.json, README heading, comments).
  const title = ir.title.replace(/\s+/g, " ").trim();
  const contracts = options.previous?.contracts;
  const diff = contracts ? diffTools(contracts.tools, contractsOf(tools)) : undefined;
  const { askedFeatures, featureChoice, targets } = planFeatures(options, tools, security, upstream, bag);
  return {
    packageName,
    binName,
    version: decideVersion(ir.apiVersion, options.previous?.version, diff, options.bump ?? true),
    apiVersion: ir.apiVersion,
    ...(diff ? { diff } : {}),
    title,
    description: `MCP server for ${title}${firstLine ? `: ${firstLine}` : ""}`.slice(0, 300),
    apiDescription: ir.description,
    ...(license ? { license } : {}),
    ...(repository ? { repository } : {}),
    mcpName: registryName(binName, packageName, repository, options.mcpName),
    ...(upstream.defaultBaseUrl ? { defaultBaseUrl: upstream.defaultBaseUrl } : {}),
    ...(upstream.serverUrl ? { serverUrl: upstream.serverUrl } : {}),
    env,
    tools,
    specVersion: ir.specVersion,
    securitySchemes: security.schemes,
    ...(options.defaultSurface && options.defaultSurface !== "auto" ? { defaultSurface: options.defaultSurface } : {}),
    ...(options.resultBudget !== undefined ? { resultBudget: options.resultBudget } : {}),
    types,
    features: featureChoice.features,
    askedFeatures,
    addedFeatures: featureChoice.added,
    targets,
  };
}

/** The project's environment variables: the server URL's, the credentials', and the cursor secret when a tool pages. */
function envVars(upstreamEnv: EnvVarPlan[], securityEnv: EnvVarPlan[], tools: ToolPlan[]): EnvVarPlan[] {
  return [
    ...upstreamEnv,
    ...securityEnv,
    ...(tools.some((tool) => tool.http.pagination)
      ? [
          {
            name: "MCP_CURSOR_SECRET",
            description:
              "Key that signs pagination cursors; set the same value on every instance behind a load balancer (default: random per process).",
            required: false,
            secret: true,
          },
        ]
      : []),
  ];
}

/** Checks `--repository`, `--mcp-name` and `--license` (MG errors in `bag`); the parsed repository. */
function checkPublishing(options: PlanOptions, bag: DiagnosticBag): ReturnType<typeof parseRepository> {
  const repository = options.repository ? parseRepository(options.repository) : undefined;
  if (options.repository && !repository) {
    bag.error(
      Codes.packageNameInvalid,
      `--repository "${options.repository}" is not an http(s) URL.`,
      undefined,
      "Use the repository's web URL, e.g. https://github.com/acme/pets-mcp (or github:acme/pets-mcp).",
    );
  }
  if (options.mcpName && !REGISTRY_NAME.test(options.mcpName)) {
    bag.error(
      Codes.packageNameInvalid,
      `--mcp-name "${options.mcpName}" is not a valid MCP Registry name.`,
      undefined,
      "Use reverse-DNS namespace/name, e.g. io.github.acme/pets-mcp.",
    );
  }
  if (options.license !== undefined && !npmLicense(options.license)) {
    bag.error(
      Codes.packageNameInvalid,
      `--license "${options.license}" is not an SPDX license expression.`,
      undefined,
      "Use an SPDX identifier such as MIT or Apache-2.0 (or an expression: MIT OR Apache-2.0).",
    );
  }
  return repository;
}

/** The runtime features: those asked for (an unknown name is MG206), and those the API and surface need. */
function planFeatures(
  options: PlanOptions,
  tools: ToolPlan[],
  security: ReturnType<typeof planSecurity>,
  upstream: ReturnType<typeof planServerUrl>,
  bag: DiagnosticBag,
) {
  const catalog = featureCatalog();
  const known = (name: string): boolean => Object.hasOwn(catalog.features, name);
  for (const name of options.features ?? [])
    if (!known(name))
      bag.error(
        Codes.featureUnknown,
        `Unknown runtime feature '${name}'.`,
        undefined,
        `--with takes: ${Object.keys(catalog.features).join(", ")} (or none)`,
      );
  const askedFeatures = [...new Set(options.features ?? [])].filter(known).sort();
  const featureChoice = chooseFeatures(
    askedFeatures,
    options.defaultSurface ?? "auto",
    tools.map(listedToolOf),
    {
      security: security.schemes.length > 0,
      pagination: tools.some((tool) => tool.http.pagination !== undefined),
      encodings: tools.some((tool) => needsEncodings(tool.http)),
      uploads: tools.some((tool) => tool.http.body !== undefined && fileArguments(tool.http.body).length > 0),
      serverVariables: upstream.serverUrl !== undefined,
      userSignIn: security.schemes.some((s) => s.authorizationCode !== undefined || s.type === "openIdConnect"),
      customCode: options.hasCustomCode === true,
      clientRequests: options.customCallsClient === true,
      confirm: tools.some((tool) => tool.confirm === true),
      binaryResponses: tools.some((tool) => answersBinary(tool.http)),
    },
    catalog,
  );
  const targets = planTargets(options.targets, featureChoice, bag);
  return { askedFeatures, featureChoice, targets };
}

/**
 * The targets (`--target`; an unknown name is MG207): a target other than node adds feature fetch,
 * and a feature one of them cannot carry is MG207 too (targets.ts says why).
 */
function planTargets(asked: readonly string[] | undefined, choice: FeatureChoice, bag: DiagnosticBag): TargetName[] {
  for (const name of asked ?? [])
    if (!isTargetName(name))
      bag.error(
        Codes.targetRefused,
        `Unknown target '${name}'.`,
        undefined,
        `--target takes: ${TARGET_NAMES.join(", ")}`,
      );
  const targets = chosenTargets(asked);
  for (const { target, feature, why } of targetRefusals(targets, choice.features))
    bag.error(
      Codes.targetRefused,
      `Target ${target} cannot carry runtime feature ${feature}: ${why}.`,
      undefined,
      choice.added[feature]
        ? `${feature} was added because ${choice.added[feature]}; generate a separate project without --target ${target} for it`
        : `drop ${feature} from --with, or generate it for another target`,
    );
  for (const feature of featuresOfTargets(targets).filter((name) => !choice.features.includes(name))) {
    choice.features = [...choice.features, feature].sort();
    choice.added[feature] =
      feature === FETCH_FEATURE
        ? `--target ${targets.filter((target) => target !== "node").join(", ")} serves fetch events`
        : `--target ${feature} needs it`;
  }
  return targets;
}

/** What `tools/list` shows of a tool (for the `auto` surface's budget). */
function listedToolOf(tool: ToolPlan): ListedTool {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
  };
}

/**
 * The tools whose `tools/list` entry MCP clients accept (listing-check.ts). The planner's own rules
 * should never produce one they refuse, but no single operation may cost the server all its tools:
 * a tool whose output schema is the problem keeps its call without structured output, any other is
 * left out; either with a warning naming the problem.
 */
export function listable(tools: ToolPlan[], bag: DiagnosticBag): ToolPlan[] {
  const check = new ListingCheck();
  const problems = (tool: ToolPlan) => check.problems(listedToolOf(tool));
  const kept: ToolPlan[] = [];
  for (const tool of tools) {
    const found = problems(tool);
    if (found.length === 0) {
      kept.push(tool);
      continue;
    }
    const { outputSchema: _schema, outputDetail: _detail, ...rest } = tool;
    const plain: ToolPlan = { ...rest, http: { ...tool.http, response: { accept: tool.http.response.accept } } };
    const withoutOutput = tool.outputSchema !== undefined && problems(plain).length === 0;
    bag.warn(
      Codes.toolListingInvalid,
      `${withoutOutput ? `Tool "${tool.name}" is listed without its output schema` : `Tool "${tool.name}" is left out`}: MCP clients would refuse the whole tools/list because of it (${found.slice(0, 3).join("; ")}).`,
      tool.pointer,
      "The generated schema breaks the MCP SDK's tool schema; check the operation's schemas against the OpenAPI rules, and please report it.",
    );
    if (withoutOutput) kept.push(plain);
  }
  return kept;
}

/**
 * The operations the filters keep and `x-mcp-hidden` does not hide, with their names; one summary
 * diagnostic each, an error when none is left. `sizedAs`: the number of operations the filters keep,
 * hidden ones included, which sizes each tool's share of the output-schema budget, so hiding some
 * tools leaves the others' schemas as they were.
 */
function filterOperations<N extends { name: string }>(
  ir: ApiIR,
  names: N[],
  filter: OperationFilter | undefined,
  bag: DiagnosticBag,
): { ir: ApiIR; names: N[]; sizedAs: number } {
  const filtering = filter !== undefined && isFiltering(filter);
  if (!filtering && !ir.operations.some((op) => op.mcp?.hidden)) return { ir, names, sizedAs: ir.operations.length };
  const keep = filtering ? operationFilter(filter) : () => true;
  const filtered = ir.operations
    .map((op, i) => ({ op, name: names[i]! }))
    .filter(({ op, name }) => keep({ name: name.name, method: op.method, path: op.path, tags: op.tags }));
  const kept = filtered.filter(({ op }) => !op.mcp?.hidden);
  if (filtered.length < ir.operations.length)
    bag.info(
      Codes.operationSkipped,
      `The operation filters keep ${filtered.length} of ${ir.operations.length} operations; the others are not generated.`,
      undefined,
      "Filters: --include-tags, --exclude-tags, --include-operations, --exclude-operations, --read-only.",
    );
  if (kept.length < filtered.length)
    bag.info(
      Codes.operationSkipped,
      `x-mcp-hidden hides ${filtered.length - kept.length} of ${filtered.length} operations: they are not generated.`,
      undefined,
      "Set x-mcp-hidden on an operation or on a tag of the top-level tags list (in the spec or an overlay).",
    );
  if (kept.length === 0)
    bag.error(
      Codes.noOperations,
      `The operation filters and x-mcp-hidden leave none of the ${ir.operations.length} operations.`,
      undefined,
      "Check --include-tags, --exclude-tags, --include-operations, --exclude-operations, --read-only and x-mcp-hidden.",
    );
  return {
    ir: { ...ir, operations: kept.map((k) => k.op) },
    names: kept.map((k) => k.name),
    sizedAs: filtered.length,
  };
}

/** The `_fields` argument of an operation that answers JSON (output-fields.ts): in the input, and its paths for the runtime. */
function addFieldsArgument(inputSchema: ObjectJsonSchema, response: ResponseBinding, paths: string[]): void {
  const name = fieldsArgumentName(inputSchema);
  inputSchema.properties = { ...inputSchema.properties, [name]: fieldsProperty(paths) };
  response.fieldsArgument = name;
  if (paths.length > 0) response.fields = paths;
}
