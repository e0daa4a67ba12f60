/**
 * Features, the runtime's optional parts: each `features/<name>/index.ts` exports one {@link Feature},
 * which the generated `src/index.ts` hands to `main`. The core never imports a feature: it offers
 * the slots of {@link FeaturePlugs}, which `main` fills.
 */
import type { ServerInfo } from "../api/types.js";
import type { ToolSource } from "../data/tool-data.js";
import type { LazyTools, ToolScopes } from "../server/tool-catalog.js";
import type { ChooseAuto, SurfaceMakers } from "../server/surfaces.js";
import type { MakeClientViews } from "../server/server.js";
import type { CallGate, MakeUserSignIn } from "../server/call-slots.js";
import type { MakeClientRequests, MakeRequestTools } from "../server/request-tools.js";
import type { MakeTasks } from "../server/tasks-slot.js";
import type { MakeCluster } from "../state/cluster-slot.js";
import type { StateStore } from "../state/state.js";
import type { Logger } from "../protocol/logger.js";
import type { MakeCredentials } from "../upstream/auth-slot.js";
import type { MakePaging } from "../upstream/paging-slot.js";
import type { UpstreamClient } from "../upstream/client-slot.js";
import type { CompileSchema } from "../api/validation.js";
import type { Encodings, ResolveUploads } from "../upstream/body.js";
import type { ResolveServerUrl } from "../upstream/server-url.js";
import type { HttpGuard, MakeHttpEndpoints, MakeHttpSessions } from "../transport/http-plugs.js";
import type { MakeAdmission, RequestObserver } from "../server/observe.js";
import type { MakeToolViews } from "../server/views-slot.js";
import type { LinkBinaries } from "../server/result-step.js";
import type { CustomCode } from "../server/custom-slot.js";
import type { MakeConnectionChoices } from "../server/choice-slot.js";

/**
 * Every feature, by the name `mcp-gen --with` knows it by, with the flags and environment variables
 * only it serves (space-separated): a server without it names the option for a setting it is given.
 */
const SETTINGS_OF = {
  auth: "--passthrough --passthrough-config",
  pagination: "",
  search: "",
  code: "--code-timeout --code-memory --code-max-calls --code-max-result MCP_CODE_TIMEOUT_MS MCP_CODE_MEMORY_MB MCP_CODE_MAX_CALLS MCP_CODE_MAX_RESULT_BYTES",
  tasks: "--task-after",
  redis: "--state MCP_STATE_URL",
  oauth: "--oauth-issuer --oauth-audience --oauth-jwks --oauth-introspection --oauth-scopes",
  "legacy-sse": "--legacy-sse",
  clients: "--client MCP_CLIENT",
  confirm: "--confirm-destructive",
  "client-requests": "",
  "input-requests": "",
  "user-oauth": "--trust-user-header --allow-forwarded-sign-in-links",
  sessions: "--sessions",
  encodings: "",
  uploads:
    "--upload-dir --upload-max-bytes --upload-timeout --upload-allow-private MCP_UPLOAD_DIR MCP_UPLOAD_MAX_BYTES MCP_UPLOAD_TIMEOUT_MS MCP_UPLOAD_ALLOW_PRIVATE",
  "server-vars": "--server-var",
  state: "",
  toolsets:
    "--toolsets --exclude-tags --include-operations --exclude-operations --read-only MCP_TOOLSETS MCP_READ_ONLY",
  "print-config": "--print-config --url-query",
  otel: "",
  "rate-limit": "--rate-limit --tool-rate-limit MCP_RATE_LIMIT MCP_TOOL_RATE_LIMIT",
  apps: "",
  fetch: "",
  lambda: "",
  custom: "",
  "large-data": "",
  "binary-links": "",
} as const;
/** A feature's name. */
export type FeatureName = keyof typeof SETTINGS_OF;
/** Every feature's name. */
export const FEATURES = Object.keys(SETTINGS_OF) as readonly FeatureName[];

/** Each setting of {@link SETTINGS_OF} and the feature it needs. */
export const FEATURE_SETTINGS: Readonly<Record<string, FeatureName>> = Object.fromEntries(
  Object.entries(SETTINGS_OF).flatMap(([feature, settings]) =>
    settings ? settings.split(" ").map((setting) => [setting, feature as FeatureName]) : [],
  ),
);

/** What a feature is started with. */
export interface FeatureContext {
  /** The flags as node:util `parseArgs` read them (names without `--`). */
  flags: Readonly<Record<string, string | boolean | string[] | undefined>>;
  env: NodeJS.ProcessEnv;
  info: ServerInfo;
  readData?: ((file: string) => string | undefined) | undefined;
  /** Whether the server serves HTTP (`--http`); stdio otherwise. */
  http: boolean;
  /** The origin clients reach an HTTP server at (unknown with port 0 and no `--public-url`). */
  origin?: string | undefined;
  logger: Logger;
}

/** The operations a server offers, as McpServer takes them, and the document and declarations shown of them. */
export interface OfferedTools {
  tools: Required<LazyTools>;
  apiDocument?: string | (() => string) | undefined;
  declarations?: (() => string) | undefined;
}

/** Narrows the operations a server offers, with the resources that show them (feature `toolsets`). */
export type OfferTools = (
  source: ToolSource,
  shown: { apiDocument?: string | (() => string) | undefined; readData?: FeatureContext["readData"] },
) => OfferedTools;

/** The slots of the core a feature fills. */
export interface FeaturePlugs {
  /** Only some operations offered (toolset filters). */
  offerTools?: OfferTools;
  /** Meta tools of the surfaces it serves. */
  surfaces?: SurfaceMakers;
  /** Resolves the `auto` surface (without it, `auto` serves all). */
  autoSurface?: ChooseAuto;
  /** Views for the clients that differ from the server's configuration. */
  clientViews?: MakeClientViews;
  credentials?: MakeCredentials;
  paging?: MakePaging;
  encodings?: Encodings;
  /** Reads file arguments given by reference. */
  uploads?: ResolveUploads;
  /** Fills the variables of the spec's server URL. */
  serverUrl?: ResolveServerUrl;
  tasks?: MakeTasks;
  /** The shared state store it opened (`--state`); closed when the server stops. */
  state?: StateStore;
  /** Joins the other instances of a shared store. */
  cluster?: MakeCluster;
  /** A check of every HTTP request before it is served, and the scopes each tool needs. */
  httpGuard?: HttpGuard;
  toolScopes?: ToolScopes;
  /** A check before each operation call goes upstream. */
  gate?: CallGate;
  /** Legacy server→client requests (elicitation, sampling, roots). */
  clientRequests?: MakeClientRequests;
  /** The helpers handlers that ask the user get (MRTR, progress, logs). */
  requestTools?: MakeRequestTools;
  httpSessions?: MakeHttpSessions;
  /** Endpoints served beside the MCP one. */
  httpEndpoints?: MakeHttpEndpoints;
  /** Per-user upstream credentials (sign-in). */
  userSignIn?: MakeUserSignIn;
  /** The header a trusted gateway names the user by: HTTP requests without it are refused. */
  userHeader?: string;
  /** Watches every request and its upstream requests (feature `otel`). */
  observer?: RequestObserver;
  /** Decides whether each request runs now (feature `rate-limit`). */
  admission?: MakeAdmission;
  /** Views of the operations' results for clients that render them (feature `apps`). */
  toolViews?: MakeToolViews;
  /** Links binary content over the inline size (feature `binary-links`). */
  linkBinaries?: LinkBinaries;
  /** Called when the server stops, after the transport closed (flushes what is buffered). */
  close?: () => Promise<void>;
  /** The HTTP client of upstream calls (feature `fetch`: the platform's fetch); default got. */
  upstreamClient?: UpstreamClient;
  /** Compiles JSON Schemas where ajv cannot (feature `fetch`); default ajv. */
  compileSchema?: CompileSchema;
  /** Runs the user's code: hooks, the `api` client, resource templates (feature `custom`). */
  customCode?: CustomCode;
  /** The tools each HTTP connection may choose with its URL or headers (feature `toolsets`). */
  connectionChoices?: MakeConnectionChoices;
}

/** One optional part of the runtime. */
export interface Feature {
  readonly name: FeatureName;
  /** Its flags as node:util `parseArgs` options (names without `--`), parsed only in a server that has it. */
  readonly flags?: Readonly<Record<string, { type: "string" | "boolean"; multiple?: boolean }>>;
  /** Its flags' lines of `--help` (for this server), if it has flags. */
  readonly usage?: string | ((info: ServerInfo) => string);
  /** A one-shot command it answers instead of serving (`--print-config`): true when it ran. */
  command?(context: FeatureContext): boolean | Promise<boolean>;
  /** The slots it fills for this start; throws an Error whose message says what is wrong with a setting. */
  plugs(context: FeatureContext): FeaturePlugs | Promise<FeaturePlugs>;
}

/** The message for a setting whose feature this server was generated without. */
export function missingFeature(setting: string, feature: FeatureName): string {
  return `${setting} needs the ${feature} feature, which this server was generated without: regenerate it with mcp-gen --with ${feature} (the option is remembered)`;
}
