import type { ApiDiff } from "./changes/diff-tools.js";
import type { TargetName } from "./targets.js";
import type { RepositoryPlan } from "./publishing.js";
import type {
  HttpBinding,
  JsonSchema,
  ObjectJsonSchema,
  SecuritySchemeDefinition,
  ServerUrlDefinition,
  ToolAnnotations,
} from "../../shared/contract.js";

/** Everything the emit stage needs; no decisions are left to it. */
export interface ProjectPlan {
  /** npm package name of the generated server. */
  packageName: string;
  /** Command name in `bin` (the package name without its scope). */
  binName: string;
  /** Package version: see plan/version.ts (first generation: the API's semver `info.version`, else 0.1.0). */
  version: string;
  /** The API document's own version (`info.version`), which the package version need not follow. */
  apiVersion: string;
  /** Tool changes against the previous generation; absent on a first generation. */
  diff?: ApiDiff;
  /** Human title of the API (`info.title`). */
  title: string;
  /** One-paragraph description for package.json and README. */
  description: string;
  /** Long description of the API, Markdown, for the README. */
  apiDescription?: string;
  /** SPDX license of the package (from `info.license`), when it is one. */
  license?: string;
  /** Source repository, when known (`--repository`). */
  repository?: RepositoryPlan;
  /** Name in the MCP Registry (`server.json` name, package.json `mcpName`). */
  mcpName: string;
  /** The upstream base URL used when neither --base-url nor API_BASE_URL is given. */
  defaultBaseUrl?: string;
  /** The server URL template and its variables, when the spec's URL has variables. */
  serverUrl?: ServerUrlDefinition;
  /** Environment variables the server reads, for README and .env.example. */
  env: EnvVarPlan[];
  /** Tools in their final order. */
  tools: ToolPlan[];
  /** The spec family the project was generated from (for the README). */
  specVersion: string;
  /** Upstream security schemes used by at least one tool, with their variables. */
  securitySchemes: SecuritySchemeDefinition[];
  /** The surface the server serves by default (`--surface` of mcp-gen); absent means `auto`. */
  defaultSurface?: "all" | "search" | "code" | "auto";
  /** The server's result budget in tokens when neither its `--result-budget` nor `MCP_RESULT_BUDGET` is given. */
  resultBudget?: number;
  /** The runtime features the project vendors (runtime/features.json), sorted; see features.ts. */
  features: string[];
  /** The features asked for (`--with`, or the previous generation's), remembered in the manifest. */
  askedFeatures: string[];
  /** Why each feature that was not asked for was added. */
  addedFeatures: Record<string, string>;
  /** Where the server runs (`--target`; node when none was asked for), remembered in the manifest. */
  targets: TargetName[];
  /** The named types of the project (src/schemas.ts), from the full spec (type-plan.ts). */
  types: TypesPlan;
}

/** The named types of the project: every named schema of the document (type-plan.ts). */
export interface TypesPlan {
  /** Components first, in document order, then the other schemas operations reference. */
  named: NamedTypePlan[];
}

/** One named schema as TypeScript. Schemas refer to others as `#/$defs/<def>`. */
export interface NamedTypePlan {
  /** Its `$defs` name (IR). */
  def: string;
  /** Its name under `components.schemas` (2.0: `definitions`), when it is a component. */
  component?: string;
  /** The type's name: the schema as the API returns it (read-only properties kept, write-only ones not). */
  name: string;
  /** The schema of `name`, normalized (JSON Schema 2020-12, descriptions and formats kept). */
  schema: JsonSchema;
  /** The schema as the API accepts it, when that differs (readOnly/writeOnly properties reached). */
  request?: { name: string; schema: JsonSchema };
}

/**
 * What a successful call of the typed `api` resolves to: the type of a JSON schema (refs into the
 * named types; `true` is any value), the text of a textual body, a binary body, or nothing.
 */
export type ResultType = JsonSchema | "text" | "binary" | "empty";

/** An operation's result and error types, from the full spec (type-plan.ts planResultTypes). */
export interface ToolResultTypes {
  /** The alternatives a successful call resolves to (their union). */
  returns: ResultType[];
  /** The JSON schemas of the documented error responses (4xx, 5xx, default), when any. */
  errors?: JsonSchema[];
}

/** One environment variable of the generated server. */
export interface EnvVarPlan {
  name: string;
  description: string;
  required: boolean;
  example?: string;
  /** A credential: never printed, marked secret in server.json. */
  secret?: boolean;
}

/** One tool: its MCP definition, its HTTP binding and where its code goes. */
export interface ToolPlan {
  /** Pointer of the operation this tool comes from. */
  pointer: string;
  name: string;
  /** Route of the operation, `GET /pets/{}` (see tool-lock.ts). */
  operationKey: string;
  /** The operation's `operationId`, when it has one. */
  operationId?: string;
  title?: string;
  description: string;
  /** The full text when `description` had to be shortened (see describe.ts). */
  documentation?: string;
  inputSchema: ObjectJsonSchema;
  outputSchema?: ObjectJsonSchema;
  /** How much of the documented shape `outputSchema` keeps (see output-compact.ts `OutputDetail`). */
  outputDetail?: number;
  /** Typed nodes the output schema was allowed (kept across regenerations by the tool lock). */
  outputBudget: number;
  annotations: ToolAnnotations;
  /** `x-mcp-confirm`: the user confirms each call before it reaches the API (feature `confirm`). */
  confirm?: true;
  /** The operation's OpenAPI tags, or its `x-mcp-toolset` alone (overrides.ts `toolsetTags`). */
  tags: string[];
  /** What the spec's tags and `x-` titles call the operation (OperationIR `titles`), for search. */
  titles?: string[];
  http: HttpBinding;
  /** Module under `src/tools/` (without extension) that declares the tool's types, shared by the tools of one tag. */
  fileName: string;
  /** Exported interface of the arguments. */
  inputTypeName: string;
  /** Exported type of what a successful call returns (what the typed `api` resolves to). */
  outputTypeName: string;
  /** What the typed `api` resolves to and its errors carry, from the full spec. */
  resultTypes: ToolResultTypes;
  /** The 4xx statuses the operation documents (for the generated contract test's error case). */
  errorStatuses?: number[];
}
