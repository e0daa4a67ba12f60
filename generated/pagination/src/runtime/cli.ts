// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Command-line entry for generated servers: flags and environment → stdio (default) or
 * Streamable HTTP. Only `--help`, `--version` and `--print-config` write to stdout (they never start a server).
 */
import { parseArgs } from "node:util";
import { CONFIG_CLIENTS, clientConfig, type ConfigClient } from "./client-config.js";
import { dropBundlePlaceholders } from "./bundle-env.js";
import { declarationReader } from "./declarations-data.js";
import type { Extension } from "./extensions.js";
import { createStderrLogger, type Logger } from "./logger.js";
import type { ResourceServer } from "./oauth-resource.js";
import { loadPassthroughConfig, parsePassthroughRule } from "./passthrough.js";
import { DEFAULT_MAX_BATCH } from "./dispatcher.js";
import { DEFAULT_TASK_AFTER_MS, McpServer } from "./server.js";
import { nonEmpty, resolveBaseUrl } from "./server-url.js";
// The HTTP transport (node:http) and the OAuth resource server are imported only under --http.
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, DEFAULT_SHUTDOWN_GRACE_MS, isLoopbackHost } from "./http-defaults.js";
import { startStdio } from "./transport-stdio.js";
import { DEFAULT_CODE_LIMITS, type CodeLimits } from "./code-mode.js";
import type { TransportHandle } from "./transport.js";
import type { ServerInfo, ToolDefinition } from "./types.js";
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, DEFAULT_UPSTREAM_CONCURRENCY } from "./upstream.js";
import { redactUserinfo } from "./redact.js";
import { declarationsOf, documentWithOnly } from "./resources.js";
import type { ListedTool } from "./mcp-types.js";
import { chooseSurface, parseSurface, type SurfaceName } from "./surfaces.js";
import { parseClientProfiles, profileById } from "./client-profiles.js";
import { isFiltering, listOption, operationFilter, type OperationFilter } from "./toolsets.js";
import { isToolSource, memoryToolSource, type ToolSource } from "./tool-data.js";
import { openStateStore, type StateStore } from "./state.js";

/** Usage text for `--help`. */
export function usage(info: ServerInfo): string {
  return `${info.title ?? info.name} ${info.version}${info.description ? `\n${firstLine(info.description)}` : ""}

Usage: ${info.name} [options]

Options:
  (no flag)          serve MCP over stdio
  --http             serve MCP over Streamable HTTP at http://HOST:PORT/mcp
  --port PORT        HTTP port (default ${DEFAULT_HTTP_PORT})
  --host HOST        HTTP bind address (default ${DEFAULT_HTTP_HOST})
  --sessions         HTTP: legacy-era sessions (Mcp-Session-Id); default stateless
  --state URL        HTTP: shared state for several instances behind a load balancer:
                     redis://[:password@]host:port/db (env MCP_STATE_URL; default: this
                     process's memory). Tasks, legacy sessions and cancellations then reach
                     every instance; no credential is ever stored there. Needs MCP_STATE_SECRET
                     (32+ characters, the same everywhere): what Redis holds is encrypted with it
  --legacy-sse       HTTP: also serve the deprecated HTTP+SSE transport (GET /sse, POST /messages)
  --base-url URL     upstream API base URL (env API_BASE_URL${info.defaultBaseUrl ? `, default ${info.defaultBaseUrl}` : ""})
${serverVarUsage(info)}  --timeout MS       one deadline per upstream call, retries included, in milliseconds
                     (default ${DEFAULT_TIMEOUT_MS})
  --max-response-bytes N
                     largest upstream response body, counted after decompression
                     (env MCP_MAX_RESPONSE_BYTES, default ${DEFAULT_MAX_RESPONSE_BYTES})
  --upstream-concurrency N
                     upstream calls on the network at once; more wait in a queue
                     (env MCP_UPSTREAM_CONCURRENCY, default ${DEFAULT_UPSTREAM_CONCURRENCY})
  --max-batch N      largest JSON-RPC batch (revision 2025-03-26) answered
                     (env MCP_MAX_BATCH, default ${DEFAULT_MAX_BATCH})
  --allowed-hosts H  HTTP: comma-separated Host header values accepted (name or name:port),
                     others get 403 (env MCP_ALLOWED_HOSTS; default for a loopback --host:
                     localhost, 127.0.0.1 and [::1] with the port; "*" accepts any)
  --shutdown-grace MS
                     HTTP: on SIGTERM/SIGINT, time calls in flight get to finish
                     (env MCP_SHUTDOWN_GRACE_MS, default ${DEFAULT_SHUTDOWN_GRACE_MS})
  --passthrough H=S  HTTP only: take scheme S's upstream credential from request header H
                     (repeatable; a header present in the request wins over the environment)
  --oauth-issuer URL OAuth 2.1 resource-server mode (HTTP): accept only bearer tokens from this issuer
  --oauth-audience URL  this server's resource identifier, required in the token's aud
                     (default: the endpoint URL, or --public-url + /mcp)
  --oauth-jwks URL   the issuer's JWKS (default: from the issuer's metadata)
  --oauth-introspection URL
                     check tokens by introspection (RFC 7662) instead; client from
                     MCP_OAUTH_CLIENT_ID / MCP_OAUTH_CLIENT_SECRET
  --oauth-scopes S   space-separated scopes to advertise
  --public-url URL   the server's public origin (for metadata behind a proxy)
  --passthrough-config FILE
                     HTTP only: the same rules as JSON {"rules":[{"header":…,"scheme":…}]}
  --confirm-destructive  ask the user to confirm destructive tools (DELETE …) first
                     (env MCP_STATE_SECRET: HMAC key for the confirmation state; share it
                     across instances behind a load balancer)
  --task-after MS    tasks extension (2026-07-28 clients that declare it): a tool call still
                     running after MS milliseconds becomes a task (default ${DEFAULT_TASK_AFTER_MS})
  --no-tasks         do not offer the tasks extension
  --print-config C   print the configuration entry for client C (claude-desktop, claude-code,
                     cursor, vscode) and exit; with --http, the form that connects over HTTP
  --surface S        what is listed for the API's operations (env MCP_SURFACE; default ${info.defaultSurface ?? "auto"}):
                     all     one tool per operation
                     search  search_operations, describe_operation, call_operation
                     code    search_operations, describe_operation, execute_code
                     auto    all within 40 tools and ~30,000 tokens of tools/list, else search
  --client P         serve every client as client profile P would be (claude-desktop, claude-code,
                     cursor, vscode, openai, gemini; env MCP_CLIENT); without it a client whose
                     clientInfo matches a profile gets that profile's surface budget, names and schemas
  --toolsets T,…     only operations with one of these OpenAPI tags (env MCP_TOOLSETS)
  --exclude-tags T,… no operation with one of these tags
  --include-operations G,…  only operations matching a glob on the tool name or "METHOD /path"
  --exclude-operations G,…  no operation matching one of these globs
  --read-only        only GET, HEAD and OPTIONS operations (env MCP_READ_ONLY=1)
                     (filters apply to every surface: search never finds, and calls refuse,
                     the operations left out)
  --code-timeout MS  code mode: wall time of one execute_code run (env MCP_CODE_TIMEOUT_MS,
                     default ${DEFAULT_CODE_LIMITS.timeoutMs})
  --code-memory MB   code mode: sandbox memory in MiB (env MCP_CODE_MEMORY_MB, default ${DEFAULT_CODE_LIMITS.memoryBytes / MIB}, min 16)
  --code-max-calls N code mode: api calls per run (env MCP_CODE_MAX_CALLS, default ${DEFAULT_CODE_LIMITS.maxCalls})
  --code-max-result BYTES
                     code mode: bytes of the returned JSON, and of the logs (env
                     MCP_CODE_MAX_RESULT_BYTES, default ${DEFAULT_CODE_LIMITS.maxResultBytes})
  --help             show this help
  --version          show the version
`;
}

/** Help lines for the server URL's variables (none when the URL has none). */
function serverVarUsage(info: ServerInfo): string {
  const variables = info.serverUrl?.variables ?? [];
  if (variables.length === 0) return "";
  const lines = variables.map((v) => {
    const facts = [
      `env ${v.env}`,
      ...(v.default !== undefined ? [`default ${v.default}`] : []),
      ...(v.enum ? [`one of ${v.enum.join(", ")}`] : []),
    ];
    return `                     ${v.name}: ${facts.join("; ")}\n`;
  });
  return `  --server-var N=V   set a variable of the server URL ${info.serverUrl!.template}\n${lines.join("")}`;
}

/** What a generated entry point passes besides the tools. */
export interface MainOptions {
  /** The user's additions from `src/custom/` (tools, resources, prompts, hooks). */
  extension?: Extension;
  /** The OpenAPI document as JSON text (or a function reading it on demand), served as `openapi://document`. */
  apiDocument?: string | (() => string);
  /** Reads a file of the project's data/ folder (search index, declarations); undefined when absent. */
  readData?: (file: string) => string | undefined;
  /** Reads a byte range of a file of data/ (one declaration, without parsing them all). */
  readDataRange?: (file: string, offset: number, length: number) => string;
}

/** Thrown for bad flags; `main` reports it on stderr and sets exit code 2. */
class UsageError extends Error {}

/**
 * Runs the server described by `info` and `tools` according to `argv`. Resolves to the running
 * transport, or undefined when nothing was started (help, version, bad flags: see exit code).
 */
export async function main(
  info: ServerInfo,
  tools: readonly ToolDefinition[] | ToolSource,
  argv: string[] = process.argv.slice(2),
  options: MainOptions = {},
): Promise<TransportHandle | undefined> {
  const logger = createStderrLogger(info.name);
  const unset = dropBundlePlaceholders(process.env);
  if (unset.length > 0) logger.info(`settings left empty in the bundle host: ${unset.join(", ")}`);
  let flags: ReturnType<typeof parseFlags>;
  try {
    flags = parseFlags(argv);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${info.name}: ${message}\nRun with --help for usage.\n`);
    process.exitCode = 2;
    return undefined;
  }
  if (flags.help) {
    process.stdout.write(usage(info));
    return undefined;
  }
  if (flags.version) {
    process.stdout.write(`${info.version}\n`);
    return undefined;
  }
  if (flags.printConfig) {
    const snippet = clientConfig(
      flags.printConfig,
      info,
      flags.http ? { kind: "http", url: endpointUrl(flags) } : { kind: "stdio" },
    );
    if (snippet.ok) process.stdout.write(`${snippet.text}\n`);
    else {
      process.stderr.write(`${info.name}: ${snippet.message}\n`);
      process.exitCode = 2;
    }
    return undefined;
  }

  // A missing base URL is reported when a tool is called, so listing tools still works.
  const resolved = resolveBaseUrl(info, { flag: flags.baseUrl, serverVars: flags.serverVars, env: process.env });
  if (!resolved.ok) {
    process.stderr.write(`${info.name}: ${resolved.message}\n`);
    process.exitCode = 2;
    return undefined;
  }
  const baseUrl = resolved.baseUrl;
  if (baseUrl === undefined)
    logger.warn("no upstream base URL: pass --base-url or set API_BASE_URL; tool calls will fail");
  else if (!isHttpUrl(baseUrl)) {
    process.stderr.write(
      `${info.name}: invalid base URL '${redactUserinfo(baseUrl)}': expected an absolute http(s) URL\n`,
    );
    process.exitCode = 2;
    return undefined;
  }

  let state: StateStore;
  try {
    if (flags.state !== undefined && !flags.http)
      throw new Error("--state applies to --http only (a stdio server has one client)");
    // The URL may hold Redis's password: it is never logged.
    state = await openStateStore(flags.http ? (flags.state ?? nonEmpty(process.env.MCP_STATE_URL)) : undefined, {
      prefix: `mcp:${info.name}:`,
      secret: nonEmpty(process.env.MCP_STATE_SECRET),
      onStatus: (message) => (message.includes("unreachable") ? logger.warn(message) : logger.info(message)),
      onInvalid: (what) => logger.warn(`state store: ${what} failed its integrity check and was ignored`),
    });
  } catch (error) {
    process.stderr.write(`${info.name}: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return undefined;
  }

  let server: McpServer;
  try {
    const passthrough = [
      ...flags.passthrough.map(parsePassthroughRule),
      ...(flags.passthroughConfig ? loadPassthroughConfig(flags.passthroughConfig) : []),
    ];
    if (passthrough.length > 0 && !flags.http)
      throw new Error("--passthrough rules apply to --http only (stdio has no per-request headers)");
    if (flags.oauthIssuer && !flags.http) throw new Error("--oauth-issuer applies to --http only");
    // In OAuth mode the MCP token authorizes the MCP request only; it never goes upstream.
    if (flags.oauthIssuer && passthrough.some((rule) => rule.header.toLowerCase() === "authorization")) {
      throw new Error(
        "--passthrough of Authorization is not allowed with --oauth-issuer: the MCP token is never sent upstream",
      );
    }
    // Filters and the surface are decided on names (the catalog when filtering); schemas load when first needed.
    const source = isToolSource(tools) ? tools : memoryToolSource(tools);
    const keep = operationFilter(flags.filter);
    const filtering = isFiltering(flags.filter);
    const names = filtering
      ? source
          .catalog()
          .filter(([name, method, path, tags]) => keep({ name, method, path, tags }))
          .map(([name]) => name)
      : source.names;
    if (names.length < source.names.length)
      logger.info(`toolset filters: ${names.length} of ${source.names.length} operations offered`);
    const offeredNames = new Set(names);
    // What filters left out is not shown by the document and declarations resources either.
    const offeredRoutes = filtering
      ? new Set(
          source
            .catalog()
            .filter(([name]) => offeredNames.has(name))
            .map(([, method, path]) => `${method.toUpperCase()} ${path}`),
        )
      : undefined;
    const apiDocument = options.apiDocument;
    const offered = (): readonly ToolDefinition[] =>
      filtering ? source.load().filter((tool) => offeredNames.has(tool.name)) : source.load();
    const requestedSurface = flags.surface ?? info.defaultSurface ?? "auto";
    const chosen = chooseSurface(requestedSurface, names.length, () => offered().map(listedOperation));
    logger.info(`surface ${chosen.surface}: ${chosen.reason}`);
    const profilesText = options.readData?.("client-profiles.json");
    const clientProfiles = profilesText === undefined ? [] : parseClientProfiles(profilesText);
    const client = flags.client === undefined ? undefined : profileById(clientProfiles, flags.client);
    if (client) logger.info(`client profile ${client.id} for every client (--client or MCP_CLIENT)`);
    server = new McpServer({
      info,
      tools: { names, load: offered, get: (name) => (offeredNames.has(name) ? source.get(name) : undefined) },
      surface: chosen.surface,
      requestedSurface,
      clientProfiles,
      ...(client ? { client } : {}),
      codeLimits: flags.codeLimits,
      upstream: {
        baseUrl,
        timeoutMs: flags.timeoutMs,
        maxResponseBytes: flags.maxResponseBytes,
        concurrency: flags.upstreamConcurrency,
      },
      maxBatch: flags.maxBatch,
      logger,
      passthrough,
      confirmDestructive: flags.confirmDestructive,
      tasks: flags.noTasks ? false : { afterMs: flags.taskAfterMs },
      state,
      ...(nonEmpty(process.env.MCP_STATE_SECRET) ? { stateSecret: process.env.MCP_STATE_SECRET } : {}),
      ...(options.extension ? { extension: options.extension } : {}),
      ...(apiDocument !== undefined
        ? {
            apiDocument: offeredRoutes
              ? () => documentWithOnly(typeof apiDocument === "string" ? apiDocument : apiDocument(), offeredRoutes)
              : apiDocument,
          }
        : {}),
      ...(options.readData ? { readData: options.readData } : {}),
      ...(options.readDataRange
        ? { declarationOf: declarationReader((name) => source.indexOf(name), options.readDataRange) }
        : {}),
      ...(options.readData
        ? {
            declarations: () => {
              const text = options.readData!("declarations.json") ?? "{}";
              return filtering ? declarationsOf(text, offeredNames) : text;
            },
          }
        : {}),
    });
  } catch (error) {
    process.stderr.write(`${info.name}: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return undefined;
  }
  let handle: TransportHandle;
  if (flags.http) {
    const oauth = flags.oauthIssuer ? await resourceServer(flags) : undefined;
    const { startHttp } = await import("./transport-http.js");
    const http = await startHttp(server, {
      host: flags.host,
      port: flags.port,
      sessions: flags.sessions,
      state,
      legacySse: flags.legacySse,
      logger,
      oauth,
      shutdownGraceMs: flags.shutdownGraceMs,
      ...(flags.allowedHosts
        ? { allowedHosts: withPublicHost(flags.allowedHosts, flags.publicUrl) }
        : flags.publicUrl
          ? { allowedHosts: withPublicHost(undefined, flags.publicUrl, flags.host) }
          : {}),
    });
    logger.info(`${info.name} ${info.version} listening on ${http.url}`);
    handle = http;
  } else {
    handle = startStdio(server, { logger });
    logger.info(`${info.name} ${info.version} ready on stdio`);
    // stdin EOF: in-flight work has settled and responses are flushed, so exit now rather
    // than wait for idle keep-alive sockets.
    void handle.closed.then(() => process.exit(process.exitCode ?? 0));
  }
  // After the drain: leave the other instances (tasks cancelled in the drain are written first), then close the store.
  installSignalHandlers(handle, logger, flags.http ? flags.shutdownGraceMs : 0, async () => {
    await server.leaveCluster();
    await state.close();
  });
  return handle;
}

function parseFlags(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      http: { type: "boolean" },
      port: { type: "string" },
      host: { type: "string" },
      sessions: { type: "boolean" },
      state: { type: "string" },
      "legacy-sse": { type: "boolean" },
      "confirm-destructive": { type: "boolean" },
      "task-after": { type: "string" },
      "no-tasks": { type: "boolean" },
      "code-timeout": { type: "string" },
      "code-memory": { type: "string" },
      "code-max-calls": { type: "string" },
      "code-max-result": { type: "string" },
      "base-url": { type: "string" },
      "server-var": { type: "string", multiple: true },
      timeout: { type: "string" },
      "max-response-bytes": { type: "string" },
      "upstream-concurrency": { type: "string" },
      "max-batch": { type: "string" },
      "allowed-hosts": { type: "string" },
      "shutdown-grace": { type: "string" },
      passthrough: { type: "string", multiple: true },
      "passthrough-config": { type: "string" },
      "oauth-issuer": { type: "string" },
      "oauth-audience": { type: "string" },
      "oauth-jwks": { type: "string" },
      "oauth-introspection": { type: "string" },
      "oauth-scopes": { type: "string" },
      "public-url": { type: "string" },
      "print-config": { type: "string" },
      surface: { type: "string" },
      client: { type: "string" },
      toolsets: { type: "string", multiple: true },
      "exclude-tags": { type: "string", multiple: true },
      "include-operations": { type: "string", multiple: true },
      "exclude-operations": { type: "string", multiple: true },
      "read-only": { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
  if (
    (values.port !== undefined ||
      values.host !== undefined ||
      values.sessions ||
      values["legacy-sse"] ||
      values["allowed-hosts"] !== undefined ||
      values["shutdown-grace"] !== undefined) &&
    !values.http
  ) {
    throw new UsageError(
      "--port, --host, --sessions, --legacy-sse, --allowed-hosts and --shutdown-grace require --http",
    );
  }
  const env = process.env;
  const allowedHosts = nonEmpty(values["allowed-hosts"]) ?? (values.http ? nonEmpty(env.MCP_ALLOWED_HOSTS) : undefined);
  return {
    http: values.http ?? false,
    port: values.port === undefined ? DEFAULT_HTTP_PORT : integerFlag("--port", values.port, 0, 65535),
    host: values.host ?? DEFAULT_HTTP_HOST,
    sessions: values.sessions ?? false,
    state: nonEmpty(values.state),
    legacySse: values["legacy-sse"] ?? false,
    confirmDestructive: values["confirm-destructive"] ?? false,
    taskAfterMs:
      values["task-after"] === undefined
        ? DEFAULT_TASK_AFTER_MS
        : integerFlag("--task-after", values["task-after"], 0, 2_147_483_647),
    noTasks: values["no-tasks"] ?? false,
    codeLimits: codeLimits(values, process.env),
    baseUrl: nonEmpty(values["base-url"]),
    serverVars: values["server-var"] ?? [],
    timeoutMs: values.timeout === undefined ? undefined : integerFlag("--timeout", values.timeout, 1, 2_147_483_647),
    maxResponseBytes: limitSetting(
      "--max-response-bytes",
      values["max-response-bytes"],
      "MCP_MAX_RESPONSE_BYTES",
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    upstreamConcurrency: limitSetting(
      "--upstream-concurrency",
      values["upstream-concurrency"],
      "MCP_UPSTREAM_CONCURRENCY",
      1,
      100_000,
    ),
    maxBatch: limitSetting("--max-batch", values["max-batch"], "MCP_MAX_BATCH", 1, 1_000_000),
    // "*" (or an empty entry list) turns the Host check off.
    allowedHosts:
      allowedHosts === undefined
        ? undefined
        : allowedHosts === "*"
          ? []
          : allowedHosts
              .split(",")
              .map((h) => h.trim())
              .filter(Boolean),
    shutdownGraceMs:
      limitSetting("--shutdown-grace", values["shutdown-grace"], "MCP_SHUTDOWN_GRACE_MS", 0, 2_147_483_647) ??
      DEFAULT_SHUTDOWN_GRACE_MS,
    passthrough: values.passthrough ?? [],
    passthroughConfig: nonEmpty(values["passthrough-config"]),
    oauthIssuer: nonEmpty(values["oauth-issuer"]),
    oauthAudience: nonEmpty(values["oauth-audience"]),
    oauthJwks: nonEmpty(values["oauth-jwks"]),
    oauthIntrospection: nonEmpty(values["oauth-introspection"]),
    oauthScopes: nonEmpty(values["oauth-scopes"])?.split(/\s+/),
    publicUrl: nonEmpty(values["public-url"])?.replace(/\/+$/, ""),
    printConfig: printConfigClient(values["print-config"]),
    surface: surfaceOption(values.surface),
    client: nonEmpty(values.client) ?? nonEmpty(process.env.MCP_CLIENT),
    filter: filterOptions(values),
    help: values.help ?? false,
    version: values.version ?? false,
  };
}

/** `--print-config`'s client, checked against the ones we know. */
function printConfigClient(value: string | undefined): ConfigClient | undefined {
  if (value === undefined) return undefined;
  if (!(CONFIG_CLIENTS as readonly string[]).includes(value))
    throw new UsageError(`--print-config: unknown client '${value}' (one of ${CONFIG_CLIENTS.join(", ")})`);
  return value as ConfigClient;
}

/** The URL a client reaches this server at over HTTP: --public-url, else --host and --port. */
function endpointUrl(flags: ReturnType<typeof parseFlags>): string {
  const hostForUrl = flags.host.includes(":") ? `[${flags.host}]` : flags.host;
  return `${flags.publicUrl ?? `http://${hostForUrl}:${flags.port}`}/mcp`;
}

/** `--surface`, else `MCP_SURFACE`; undefined when neither is set (the generated default applies). */
function surfaceOption(flag: string | undefined): SurfaceName | undefined {
  try {
    if (nonEmpty(flag)) return parseSurface(flag!, "--surface");
    const env = nonEmpty(process.env.MCP_SURFACE);
    return env === undefined ? undefined : parseSurface(env, "MCP_SURFACE");
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Toolset filters from the flags, with `MCP_TOOLSETS` / `MCP_READ_ONLY` when the flags are absent. Lists are comma-separated and repeatable. */
function filterOptions(values: {
  toolsets?: string[];
  "exclude-tags"?: string[];
  "include-operations"?: string[];
  "exclude-operations"?: string[];
  "read-only"?: boolean;
}): OperationFilter {
  const list = (items: string[] | undefined): string[] => (items ?? []).flatMap((item) => listOption(item));
  const toolsets = values.toolsets ? list(values.toolsets) : listOption(process.env.MCP_TOOLSETS);
  const readOnly = values["read-only"] ?? /^(1|true|yes)$/i.test(process.env.MCP_READ_ONLY ?? "");
  return {
    includeTags: toolsets,
    excludeTags: list(values["exclude-tags"]),
    includeOperations: list(values["include-operations"]),
    excludeOperations: list(values["exclude-operations"]),
    readOnly,
  };
}

/** What `tools/list` would show of an operation tool (for the `auto` budget). */
function listedOperation(tool: ToolDefinition): ListedTool {
  const { http: _http, documentation: _documentation, tags: _tags, ...listed } = tool;
  return listed;
}

/** Resource-server settings from the flags (and the introspection client from the environment). */
async function resourceServer(flags: ReturnType<typeof parseFlags>): Promise<ResourceServer> {
  const hostForUrl = flags.host.includes(":") ? `[${flags.host}]` : flags.host;
  const origin = flags.publicUrl ?? (flags.port === 0 ? undefined : `http://${hostForUrl}:${flags.port}`);
  const id = process.env.MCP_OAUTH_CLIENT_ID;
  const secret = process.env.MCP_OAUTH_CLIENT_SECRET;
  const audience = flags.oauthAudience ?? (origin ? `${origin}/mcp` : undefined);
  if (!audience) throw new Error("--oauth-audience is required with --port 0");
  const { ResourceServer } = await import("./oauth-resource.js");
  return new ResourceServer(
    {
      issuer: flags.oauthIssuer!,
      audience,
      jwksUrl: flags.oauthJwks,
      introspectionUrl: flags.oauthIntrospection,
      introspectionClient: id && secret ? { id, secret } : undefined,
      scopes: flags.oauthScopes,
    },
    origin ? `${origin}/.well-known/oauth-protected-resource/mcp` : "",
  );
}

/** A numeric limit from its flag, else its environment variable, else undefined (the default applies). */
function limitSetting(
  flag: string,
  text: string | undefined,
  envName: string,
  min: number,
  max: number,
): number | undefined {
  if (text !== undefined) return integerFlag(flag, text, min, max);
  const fromEnv = nonEmpty(process.env[envName]);
  return fromEnv === undefined ? undefined : integerFlag(envName, fromEnv, min, max);
}

/**
 * The Host check's list: the given entries (or, when only --public-url is given, the loopback
 * defaults for a loopback bind) plus the public URL's host, which a reverse proxy forwards.
 */
function withPublicHost(
  entries: string[] | undefined,
  publicUrl: string | undefined,
  bindHost?: string,
): string[] | undefined {
  if (entries !== undefined && entries.length === 0) return entries; // "*": no check
  const list =
    entries ?? (bindHost !== undefined && isLoopbackHost(bindHost) ? ["localhost", "127.0.0.1", "[::1]"] : undefined);
  if (list === undefined) return undefined;
  return publicUrl ? [...list, new URL(publicUrl).host] : list;
}

const MIB = 1024 * 1024;

/**
 * Code-mode limits from flags, else the environment, else the defaults (`execute_code`, see code-mode.ts).
 * Exported for tests; the code surface takes them from `main`'s parsed flags.
 */
export function codeLimits(
  values: {
    "code-timeout"?: string | undefined;
    "code-memory"?: string | undefined;
    "code-max-calls"?: string | undefined;
    "code-max-result"?: string | undefined;
  },
  env: NodeJS.ProcessEnv,
): CodeLimits {
  const pick = (
    flag: string,
    value: string | undefined,
    envName: string,
    min: number,
    max: number,
    fallback: number,
  ): number => {
    const fromFlag = nonEmpty(value);
    if (fromFlag !== undefined) return integerFlag(flag, fromFlag, min, max);
    const fromEnv = nonEmpty(env[envName]);
    return fromEnv === undefined ? fallback : integerFlag(envName, fromEnv, min, max);
  };
  return {
    timeoutMs: pick(
      "--code-timeout",
      values["code-timeout"],
      "MCP_CODE_TIMEOUT_MS",
      100,
      600_000,
      DEFAULT_CODE_LIMITS.timeoutMs,
    ),
    memoryBytes:
      pick(
        "--code-memory",
        values["code-memory"],
        "MCP_CODE_MEMORY_MB",
        16,
        2_048,
        DEFAULT_CODE_LIMITS.memoryBytes / MIB,
      ) * MIB,
    maxCalls: pick(
      "--code-max-calls",
      values["code-max-calls"],
      "MCP_CODE_MAX_CALLS",
      1,
      10_000,
      DEFAULT_CODE_LIMITS.maxCalls,
    ),
    maxResultBytes: pick(
      "--code-max-result",
      values["code-max-result"],
      "MCP_CODE_MAX_RESULT_BYTES",
      1_000,
      100_000_000,
      DEFAULT_CODE_LIMITS.maxResultBytes,
    ),
  };
}

function integerFlag(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}`);
  return value;
}

/**
 * SIGINT/SIGTERM: close the transport (HTTP drains calls in flight for `graceMs`) and exit; a
 * close that outlasts the grace period by 5 s (a stuck call) is cut short.
 */
function installSignalHandlers(
  handle: TransportHandle,
  logger: Logger,
  graceMs: number,
  afterClose: () => Promise<void>,
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info(`received ${signal}, shutting down`);
    // Do not wait forever for a stuck upstream call.
    setTimeout(() => process.exit(process.exitCode ?? 0), graceMs + 5_000).unref();
    void handle
      .close()
      .then(afterClose)
      .catch((error: unknown) =>
        logger.warn("shutdown incomplete", { error: error instanceof Error ? error.message : String(error) }),
      )
      .then(() => process.exit(process.exitCode ?? 0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function firstLine(text: string): string {
  return text.split("\n")[0]!;
}
