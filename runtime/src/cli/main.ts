/**
 * Command-line entry of generated servers: flags and environment → stdio (default) or Streamable
 * HTTP. Only `--help`, `--version` and a feature's command (`--print-config`) write to stdout (they start no server).
 */
import { parseArgs } from "node:util";
import type { Extension } from "../api/extensions.js";
import { createStderrLogger, type Logger } from "../protocol/logger.js";
import { DEFAULT_MAX_BATCH } from "../server/dispatcher.js";
import { McpServer } from "../server/server.js";
import { nonEmpty, resolveBaseUrl } from "../upstream/server-url.js";
// The HTTP transport (node:http) is imported only under --http.
import {
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_SHUTDOWN_GRACE_MS,
  isLoopbackHost,
  type TransportHandle,
} from "../transport/transport.js";
import { startStdio } from "../transport/stdio.js";
import {
  FEATURE_SETTINGS,
  missingFeature,
  type Feature,
  type FeatureContext,
  type FeaturePlugs,
  type OfferedTools,
} from "./features.js";
import type { MakeHttpEndpoints } from "../transport/http-plugs.js";
import { dropBundlePlaceholders, integerFlagOrEnv, listOption, parseRate, type Rate } from "./settings.js";
import type { ServerInfo, ToolDefinition } from "../api/types.js";
import {
  DEFAULT_RESULT_BUDGET_TOKENS,
  MAX_RESULT_BUDGET_TOKENS,
  MIN_RESULT_BUDGET_TOKENS,
} from "../upstream/result-tokens.js";
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_UPSTREAM_CONCURRENCY,
  DEFAULT_UPSTREAM_HOST_CONCURRENCY,
} from "../upstream/upstream.js";
import { redactUserinfo } from "../protocol/redact.js";
import { listedTool } from "../server/tool-catalog.js";
import { parseSurface, type SurfaceName } from "../server/surfaces.js";
import { isToolSource, memoryToolSource, type ToolSource } from "../data/tool-data.js";
import type { StateStore } from "../state/state.js";

/** Usage text for `--help`: the core's flags, then those of the server's features. */
export function usage(info: ServerInfo, features: readonly Feature[] = []): string {
  return `${info.title ?? info.name} ${info.version}${info.description ? `\n${info.description.split("\n")[0]}` : ""}

Usage: ${info.name} [options]

Options:
  (no flag)          serve MCP over stdio
  --http             serve MCP over Streamable HTTP at http://HOST:PORT/mcp
  --port PORT        HTTP port (default ${DEFAULT_HTTP_PORT})
  --host HOST        HTTP bind address (default ${DEFAULT_HTTP_HOST})
  --base-url URL     upstream API base URL (env API_BASE_URL${info.defaultBaseUrl ? `, default ${info.defaultBaseUrl}` : ""})
  --timeout MS       one deadline per upstream call, retries included, in milliseconds
                     (default ${DEFAULT_TIMEOUT_MS})
  --max-response-bytes N
                     largest upstream response body, counted after decompression
                     (env MCP_MAX_RESPONSE_BYTES, default ${DEFAULT_MAX_RESPONSE_BYTES})
  --result-budget N  tokens (characters / 3) a tool result's text may take; a larger JSON result
                     is shrunk by its structure and links the complete body
                     (env MCP_RESULT_BUDGET, default ${info.resultBudget ?? DEFAULT_RESULT_BUDGET_TOKENS})
  --upstream-concurrency N
                     upstream calls on the network at once; more wait in a queue
                     (env MCP_UPSTREAM_CONCURRENCY, default ${DEFAULT_UPSTREAM_CONCURRENCY}; ${DEFAULT_MAX_CONNECTIONS} with --http)
  --upstream-host-concurrency N
                     upstream calls on the network at once per host; more wait in a queue
                     (env MCP_UPSTREAM_HOST_CONCURRENCY, default ${DEFAULT_UPSTREAM_HOST_CONCURRENCY}; ${DEFAULT_MAX_CONNECTIONS} with --http)
  --upstream-rate RATE
                     upstream calls started per host at most, as N/s, N/min or N/h, evenly
                     spaced: a burst queues instead of drawing 429s (env MCP_UPSTREAM_RATE)
  --max-batch N      largest JSON-RPC batch (revision 2025-03-26) answered
                     (env MCP_MAX_BATCH, default ${DEFAULT_MAX_BATCH})
  --allowed-hosts H  HTTP: comma-separated Host header values accepted (name or name:port),
                     others get 403 (env MCP_ALLOWED_HOSTS; default for a loopback --host:
                     localhost, 127.0.0.1 and [::1] with the port; "*" accepts any)
  --shutdown-grace MS
                     HTTP: on SIGTERM/SIGINT, time calls in flight get to finish
                     (env MCP_SHUTDOWN_GRACE_MS, default ${DEFAULT_SHUTDOWN_GRACE_MS})
  --public-url URL   the server's public origin (for metadata behind a proxy, and the sign-in
                     callback of per-user upstream OAuth; env MCP_PUBLIC_URL)
  --surface S        what is listed for the API's operations (env MCP_SURFACE; default ${info.defaultSurface ?? "auto"}):
                     all     one tool per operation
                     auto    all (with feature search: search for an API too large to list)
${features.map((feature) => (typeof feature.usage === "function" ? feature.usage(info) : (feature.usage ?? ""))).join("")}  --help             show this help
  --version          show the version
`;
}

/** What a generated entry point passes besides the tools. */
export interface MainOptions {
  /** The user's additions from `src/custom/`. */
  extension?: Extension;
  /** The OpenAPI document as JSON text (or a function reading it), served as `openapi://document`. */
  apiDocument?: string | (() => string);
  /** Reads a file of the project's data/ folder; undefined when absent. */
  readData?: (file: string) => string | undefined;
  /** Reads a byte range of a file of data/ (one declaration, without parsing them all). */
  readDataRange?: (file: string, offset: number, length: number) => string;
  /** The features this server was generated with. */
  features?: readonly Feature[];
}

/** Runs the server as `argv` says; resolves to the transport, or undefined when none started (see exit code). */
export async function main(
  info: ServerInfo,
  tools: readonly ToolDefinition[] | ToolSource,
  argv: string[] = process.argv.slice(2),
  options: MainOptions = {},
): Promise<TransportHandle | undefined> {
  const logger = createStderrLogger(info.name);
  const unset = dropBundlePlaceholders(process.env);
  if (unset.length > 0) logger.info(`settings left empty in the bundle host: ${unset.join(", ")}`);
  const features = options.features ?? [];
  // Every error before a transport starts is a bad setting: reported on stderr, exit code 2.
  let flags: Flags | undefined;
  let built: BuiltServer;
  try {
    flags = parseFlags(argv, process.env, features);
    if (flags.help || flags.version) {
      process.stdout.write(flags.help ? usage(info, features) : `${info.version}\n`);
      return undefined;
    }
    // A feature's one-shot command (`--print-config`) answers instead of a server (the origin its flags give).
    const commandContext = { ...featureContext(info, flags, options, process.env, logger), origin: origin(flags) };
    for (const feature of features) if (await feature.command?.(commandContext)) return undefined;
    built = await buildServer(info, tools, flags, options, process.env, logger);
  } catch (error) {
    const hint = flags === undefined ? "\nRun with --help for usage." : "";
    process.stderr.write(`${info.name}: ${error instanceof Error ? error.message : String(error)}${hint}\n`);
    process.exitCode = 2;
    return undefined;
  }
  const handle = await startTransport(built.server, flags, built.plugs, built.state, info, logger);
  installSignalHandlers(handle, logger, flags.http ? flags.shutdownGraceMs : 0);
  return handle;
}

/** The settings of a start: the flags as parsed, over the environment. */
export type Flags = ReturnType<typeof parseFlags>;

/** A server built from its settings, with its features' plugs and the state store they opened. */
export interface BuiltServer {
  server: McpServer;
  plugs: Awaited<ReturnType<typeof featurePlugs>>;
  state: StateStore | undefined;
}

/** What the features are started with. */
function featureContext(
  info: ServerInfo,
  flags: Flags,
  options: MainOptions,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): FeatureContext {
  // With port 0 (any free port) the origin is unknown until the transport listens.
  const known = flags.publicUrl !== undefined || flags.port !== 0 ? origin(flags) : undefined;
  return { flags: flags.raw, env, info, readData: options.readData, http: flags.http, origin: known, logger };
}

/**
 * The server the settings describe (the features' plugs in its slots, the upstream resolved), not yet
 * served: `main` starts a transport for it, a platform's fetch entry (feature `fetch`) a handler.
 * Throws an Error whose message says what is wrong with a setting.
 */
export async function buildServer(
  info: ServerInfo,
  tools: readonly ToolDefinition[] | ToolSource,
  flags: Flags,
  options: MainOptions,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<BuiltServer> {
  const plugs = await featurePlugs(options.features ?? [], featureContext(info, flags, options, env, logger));
  // A missing base URL is reported when a tool is called, so listing tools still works.
  const sources = { flag: flags.baseUrl, serverVars: flags.serverVars, env };
  const resolved = resolveBaseUrl(info, sources, plugs.serverUrl);
  if (!resolved.ok) throw new Error(resolved.message);
  const baseUrl = resolved.baseUrl;
  if (baseUrl === undefined)
    logger.warn(
      "no upstream base URL (the API document names no absolute server URL): tool calls fail until you start " +
        "with --base-url <the API's URL> or set API_BASE_URL=<the API's URL>; to try the tools against a " +
        "stand-in, run `npm run mock` in the server's project folder and pass the URL it prints",
    );
  else if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    throw new Error(`invalid base URL '${redactUserinfo(baseUrl)}': expected an absolute http(s) URL`);
  // Over --http one server answers many clients: both upstream queue defaults are the connections it accepts,
  // so that 8 slots shared by every user are not the narrowest pipe (docs/guide/operating.md).
  const httpDefault = flags.http ? DEFAULT_MAX_CONNECTIONS : undefined;
  const server = new McpServer({
    // The features' plugs fill the server's slots of the same names (surfaces, credentials, tasks …).
    ...plugs,
    ...offeredTools(info, tools, flags, plugs, options, logger),
    info,
    upstream: {
      baseUrl,
      timeoutMs: flags.timeoutMs,
      maxResponseBytes: flags.maxResponseBytes,
      concurrency: flags.upstreamConcurrency ?? httpDefault,
      hostConcurrency: flags.upstreamHostConcurrency ?? httpDefault,
      ratePerSecond: flags.upstreamRate && (flags.upstreamRate.limit * 1000) / flags.upstreamRate.windowMs,
      encodings: plugs.encodings,
      uploads: plugs.uploads,
      client: plugs.upstreamClient,
    },
    maxBatch: flags.maxBatch,
    resultBudget: flags.resultBudget ?? info.resultBudget,
    logger,
    stateSecret: nonEmpty(env.MCP_STATE_SECRET),
    env,
    extension: options.extension,
    readData: options.readData,
  });
  return { server, plugs, state: plugs.state };
}

/**
 * Starts the transport the flags ask for (node:http is loaded only for HTTP), whose handle closes
 * what main opened: the transport (HTTP drains calls in flight), then this instance leaves the
 * others (tasks cancelled in the drain are written first), then the store.
 */
async function startTransport(
  server: McpServer,
  flags: Flags,
  plugs: Awaited<ReturnType<typeof featurePlugs>>,
  state: StateStore | undefined,
  info: ServerInfo,
  logger: Logger,
): Promise<TransportHandle> {
  let handle: TransportHandle;
  if (flags.http) {
    const { startHttp } = await import("../transport/http.js");
    const http = await startHttp(server, {
      host: flags.host,
      port: flags.port,
      sessions: plugs.httpSessions?.(state),
      endpoints: plugs.endpoints,
      logger,
      oauth: plugs.httpGuard,
      userHeader: plugs.userHeader,
      // Ready while the shared state store (feature redis) is reachable.
      notReady: () => (state && !state.available() ? "the state store is unreachable" : undefined),
      shutdownGraceMs: flags.shutdownGraceMs,
      allowedHosts: withPublicHost(flags.allowedHosts, flags.publicUrl, flags.host),
    });
    logger.info(`${info.name} ${info.version} listening on ${http.url}`);
    handle = http;
  } else {
    handle = startStdio(server, { logger });
    logger.info(`${info.name} ${info.version} ready on stdio`);
    // stdin EOF: in-flight work has settled and responses are flushed, so exit now rather
    // than wait for idle keep-alive sockets.
    void handle.closed.then(() => closeFeatures(plugs.closers)).then(() => process.exit(process.exitCode ?? 0));
  }
  const closeTransport = handle.close.bind(handle);
  let closing: Promise<void> | undefined;
  handle.close = () =>
    (closing ??= closeTransport().then(async () => {
      await server.leaveCluster();
      await state?.close();
      await closeFeatures(plugs.closers);
    }));
  return handle;
}

/** The features' plugs for this start, merged (and every feature's HTTP endpoints); throws naming the option of a setting's missing feature. */
async function featurePlugs(
  features: readonly Feature[],
  context: FeatureContext,
): Promise<FeaturePlugs & { endpoints: MakeHttpEndpoints[]; closers: Array<() => Promise<void>> }> {
  // A feature's flag is not parsed without it (readArgv names the feature); its variables are checked here.
  const present = new Set(features.map((feature) => feature.name));
  for (const [setting, feature] of Object.entries(FEATURE_SETTINGS))
    if (!present.has(feature) && !setting.startsWith("--") && nonEmpty(context.env[setting]) !== undefined)
      throw new Error(missingFeature(setting, feature));
  const plugs: FeaturePlugs = {};
  const endpoints: MakeHttpEndpoints[] = [];
  const closers: Array<() => Promise<void>> = [];
  for (const feature of features) {
    const more = await feature.plugs(context);
    Object.assign(plugs, more, more.surfaces ? { surfaces: { ...plugs.surfaces, ...more.surfaces } } : {});
    if (more.httpEndpoints) endpoints.push(more.httpEndpoints);
    if (more.close) closers.push(more.close);
  }
  return { ...plugs, endpoints, closers };
}

/** Runs the features' `close` (flushing telemetry) once the transport closed; a failure is not fatal. */
async function closeFeatures(closers: ReadonlyArray<() => Promise<void>>): Promise<void> {
  await Promise.all(closers.map((close) => close().catch(() => undefined)));
}

/**
 * The tools offered (all, or what feature `toolsets` keeps) and the surface listing them, as
 * McpServer options, decided on names (schemas load when needed).
 */
function offeredTools(
  info: ServerInfo,
  tools: readonly ToolDefinition[] | ToolSource,
  flags: Flags,
  plugs: FeaturePlugs,
  options: MainOptions,
  logger: Logger,
) {
  const source = isToolSource(tools) ? tools : memoryToolSource(tools);
  const { apiDocument, readData, readDataRange } = options;
  const offered: OfferedTools = plugs.offerTools?.(source, { apiDocument, readData }) ?? {
    tools: { names: source.names, load: () => source.load(), get: (name) => source.get(name) },
    apiDocument,
    declarations: readData && (() => readData("declarations.json") ?? "{}"),
  };
  const { names, load } = offered.tools;
  const requestedSurface = flags.surface ?? info.defaultSurface ?? "auto";
  if (requestedSurface !== "auto" && requestedSurface !== "all" && !plugs.surfaces?.[requestedSurface])
    throw new Error(missingFeature(`--surface ${requestedSurface}`, requestedSurface));
  // `auto` picks search only where feature search can serve it; the generator includes it then.
  const chosen =
    requestedSurface !== "auto"
      ? { surface: requestedSurface, reason: `asked for (--surface ${requestedSurface} or MCP_SURFACE)` }
      : (plugs.autoSurface?.(names.length, () => load().map(listedTool)) ?? {
          surface: "all" as const,
          reason: "auto: all, as this server has no search feature",
        });
  logger.info(`surface ${chosen.surface}: ${chosen.reason}`);
  return {
    ...offered,
    surface: chosen.surface,
    requestedSurface,
    readDataRange,
    operationIndex: (name: string) => source.indexOf(name),
  };
}

/**
 * The flags of `argv` as node:util reads them, the core's and the features' (strict: an unknown flag
 * throws; one of a feature this server lacks names the feature).
 */
function readArgv(argv: string[], features: readonly Feature[]) {
  try {
    return parseArgv(argv, Object.assign({}, ...features.map((feature) => feature.flags)));
  } catch (error) {
    const flag = /^Unknown option '(--[^']+)'/.exec(error instanceof Error ? error.message : "")?.[1];
    throw flag && FEATURE_SETTINGS[flag] ? new Error(missingFeature(flag, FEATURE_SETTINGS[flag])) : error;
  }
}

/** `argv` parsed with the core's flags and `more`. */
function parseArgv(argv: string[], more: NonNullable<Feature["flags"]>) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      ...more,
      http: { type: "boolean" },
      port: { type: "string" },
      host: { type: "string" },
      "no-tasks": { type: "boolean" },
      "base-url": { type: "string" },
      timeout: { type: "string" },
      "max-response-bytes": { type: "string" },
      "upstream-concurrency": { type: "string" },
      "result-budget": { type: "string" },
      "upstream-host-concurrency": { type: "string" },
      "upstream-rate": { type: "string" },
      "max-batch": { type: "string" },
      "allowed-hosts": { type: "string" },
      "shutdown-grace": { type: "string" },
      "public-url": { type: "string" },
      surface: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  }).values;
}

/** The flags of `argv` over the environment `env`. */
export function parseFlags(argv: string[], env: NodeJS.ProcessEnv, features: readonly Feature[] = []) {
  // No arguments, no parsing: a platform entry (feature fetch) has none, and node:util's parseArgs
  // is missing on some (Workers).
  const values = argv.length === 0 ? ({} as ReturnType<typeof parseArgv>) : readArgv(argv, features);
  // The flags as parsed, features' included (typed loosely: the features read their own).
  const raw = values as Record<string, string | boolean | string[] | undefined>;
  const httpOnly = ["port", "host", "allowed-hosts", "shutdown-grace", "sessions", "legacy-sse"] as const;
  if (!values.http && httpOnly.some((flag) => raw[flag] !== undefined))
    throw new Error(`--${httpOnly.join(", --")} require --http`);
  // An integer flag, else its environment variable (if it has one); undefined when neither is set.
  const integer = (flag: keyof typeof values, min: number, max: number, envName?: string) =>
    integerFlagOrEnv(`--${flag}`, values[flag] as string | undefined, env, envName, min, max);
  const allowedHosts = nonEmpty(values["allowed-hosts"]) ?? (values.http ? nonEmpty(env.MCP_ALLOWED_HOSTS) : undefined);
  return {
    http: values.http ?? false,
    port: integer("port", 0, 65535) ?? DEFAULT_HTTP_PORT,
    host: values.host ?? DEFAULT_HTTP_HOST,
    baseUrl: nonEmpty(values["base-url"]),
    serverVars: (raw["server-var"] as string[] | undefined) ?? [],
    timeoutMs: integer("timeout", 1, 2_147_483_647),
    maxResponseBytes: integer("max-response-bytes", 1, Number.MAX_SAFE_INTEGER, "MCP_MAX_RESPONSE_BYTES"),
    upstreamConcurrency: integer("upstream-concurrency", 1, 100_000, "MCP_UPSTREAM_CONCURRENCY"),
    resultBudget: integer("result-budget", MIN_RESULT_BUDGET_TOKENS, MAX_RESULT_BUDGET_TOKENS, "MCP_RESULT_BUDGET"),
    upstreamHostConcurrency: integer("upstream-host-concurrency", 1, 100_000, "MCP_UPSTREAM_HOST_CONCURRENCY"),
    upstreamRate: rateSetting(values["upstream-rate"], env.MCP_UPSTREAM_RATE),
    maxBatch: integer("max-batch", 1, 1_000_000, "MCP_MAX_BATCH"),
    // "*" (or an empty entry list) turns the Host check off.
    allowedHosts: allowedHosts === undefined ? undefined : allowedHosts === "*" ? [] : listOption(allowedHosts),
    shutdownGraceMs: integer("shutdown-grace", 0, 2_147_483_647, "MCP_SHUTDOWN_GRACE_MS") ?? DEFAULT_SHUTDOWN_GRACE_MS,
    publicUrl: (nonEmpty(values["public-url"]) ?? nonEmpty(env.MCP_PUBLIC_URL))?.replace(/\/+$/, ""),
    surface: surfaceOption(values.surface, env),
    help: values.help ?? false,
    version: values.version ?? false,
    raw,
  };
}

/** `--upstream-rate`, else `MCP_UPSTREAM_RATE`; undefined when neither is set. */
function rateSetting(flag: string | undefined, env: string | undefined): Rate | undefined {
  if (nonEmpty(flag)) return parseRate(flag!, "--upstream-rate");
  return nonEmpty(env) === undefined ? undefined : parseRate(env!, "MCP_UPSTREAM_RATE");
}

/** The origin clients reach this HTTP server at: --public-url, else --host and --port. */
function origin(flags: Flags): string {
  return flags.publicUrl ?? `http://${flags.host.includes(":") ? `[${flags.host}]` : flags.host}:${flags.port}`;
}

/** `--surface`, else `MCP_SURFACE`; undefined when neither is set (the generated default applies). */
function surfaceOption(flag: string | undefined, env: NodeJS.ProcessEnv): SurfaceName | undefined {
  if (nonEmpty(flag)) return parseSurface(flag!, "--surface");
  const surface = nonEmpty(env.MCP_SURFACE);
  return surface === undefined ? undefined : parseSurface(surface, "MCP_SURFACE");
}

/** The Host check's list (else the loopback defaults) plus the public URL's host, which a proxy forwards. */
function withPublicHost(
  entries: string[] | undefined,
  publicUrl: string | undefined,
  bindHost: string,
): string[] | undefined {
  if (entries !== undefined && entries.length === 0) return entries; // "*": no check
  if (!publicUrl) return entries;
  const list = entries ?? (isLoopbackHost(bindHost) ? ["localhost", "127.0.0.1", "[::1]"] : undefined);
  return list && [...list, new URL(publicUrl).host];
}

/** SIGINT/SIGTERM: close the transport (HTTP drains for `graceMs`) and exit; 5 s more at most. */
function installSignalHandlers(handle: TransportHandle, logger: Logger, graceMs: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info(`received ${signal}, shutting down`);
    setTimeout(() => process.exit(process.exitCode ?? 0), graceMs + 5_000).unref();
    void handle
      .close()
      .catch((error: unknown) =>
        logger.warn("shutdown incomplete", { error: error instanceof Error ? error.message : String(error) }),
      )
      .then(() => process.exit(process.exitCode ?? 0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
