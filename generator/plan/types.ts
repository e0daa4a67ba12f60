import type { ApiDiff } from "../diff/diff-tools.js";
import type { RepositoryPlan } from "./publishing.js";
import type {
  HttpBinding,
  ObjectJsonSchema,
  SecuritySchemeDefinition,
  ServerUrlDefinition,
  ToolAnnotations,
} from "../contract.js";

/** Everything the emit stage needs; no decisions are left to it. */
export interface ProjectPlan {
  /** npm package name of the generated server. */
  packageName: string;
  /** Command name in `bin` (the package name without its scope). */
  binName: string;
  /** Package version: see plan/version.ts (first generation: the API's semver `info.version`, else 0.1.0). */
  version: string;
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
  /** The operation's OpenAPI tags. */
  tags: string[];
  http: HttpBinding;
  /** Module under `src/tools/` (without extension) that declares the tool's types, shared by the tools of one tag. */
  fileName: string;
  /** Exported interface of the arguments. */
  inputTypeName: string;
  /** Exported type of `structuredContent`, when there is an output schema. */
  outputTypeName?: string;
  /** The 4xx statuses the operation documents (for the generated contract test's error case). */
  errorStatuses?: number[];
}
