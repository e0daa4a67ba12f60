/**
 * Command-line entry for generated servers: flags and environment → stdio (default) or
 * Streamable HTTP. Only `--help` and `--version` write to stdout (they never start a server).
 */
import { parseArgs } from "node:util";
import type { Extension } from "./extensions.js";
import { createStderrLogger, type Logger } from "./logger.js";
import { ResourceServer } from "./oauth-resource.js";
import { loadPassthroughConfig, parsePassthroughRule } from "./passthrough.js";
import { DEFAULT_TASK_AFTER_MS, McpServer } from "./server.js";
import { nonEmpty, resolveBaseUrl } from "./server-url.js";
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, startHttp } from "./transport-http.js";
import { startStdio } from "./transport-stdio.js";
import { DEFAULT_CODE_LIMITS, type CodeLimits } from "./code-mode.js";
import type { TransportHandle } from "./transport.js";
import type { ServerInfo, ToolDefinition } from "./types.js";
import { DEFAULT_TIMEOUT_MS } from "./upstream.js";

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
  --legacy-sse       HTTP: also serve the deprecated HTTP+SSE transport (GET /sse, POST /messages)
  --base-url URL     upstream API base URL (env API_BASE_URL${info.defaultBaseUrl ? `, default ${info.defaultBaseUrl}` : ""})
${serverVarUsage(info)}  --timeout MS       upstream request timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS})
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
    const facts = [`env ${v.env}`, ...(v.default !== undefined ? [`default ${v.default}`] : []), ...(v.enum ? [`one of ${v.enum.join(", ")}`] : [])];
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
  /** JSON text of tool name → TypeScript declaration (or a function reading it), served as `openapi://declarations`. */
  declarations?: string | (() => string);
}

/** Thrown for bad flags; `main` reports it on stderr and sets exit code 2. */
class UsageError extends Error {}

/**
 * Runs the server described by `info` and `tools` according to `argv`. Resolves to the running
 * transport, or undefined when nothing was started (help, version, bad flags: see exit code).
 */
export async function main(
  info: ServerInfo,
  tools: ToolDefinition[],
  argv: string[] = process.argv.slice(2),
  options: MainOptions = {},
): Promise<TransportHandle | undefined> {
  const logger = createStderrLogger(info.name);
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

  // A missing base URL is reported when a tool is called, so listing tools still works.
  const resolved = resolveBaseUrl(info, { flag: flags.baseUrl, serverVars: flags.serverVars, env: process.env });
  if (!resolved.ok) {
    process.stderr.write(`${info.name}: ${resolved.message}\n`);
    process.exitCode = 2;
    return undefined;
  }
  const baseUrl = resolved.baseUrl;
  if (baseUrl === undefined) logger.warn("no upstream base URL: pass --base-url or set API_BASE_URL; tool calls will fail");
  else if (!isHttpUrl(baseUrl)) {
    process.stderr.write(`${info.name}: invalid base URL '${baseUrl}': expected an absolute http(s) URL\n`);
    process.exitCode = 2;
    return undefined;
  }

  let server: McpServer;
  try {
    const passthrough = [...flags.passthrough.map(parsePassthroughRule), ...(flags.passthroughConfig ? loadPassthroughConfig(flags.passthroughConfig) : [])];
    if (passthrough.length > 0 && !flags.http) throw new Error("--passthrough rules apply to --http only (stdio has no per-request headers)");
    if (flags.oauthIssuer && !flags.http) throw new Error("--oauth-issuer applies to --http only");
    // In OAuth mode the MCP token authorizes the MCP request only; it never goes upstream.
    if (flags.oauthIssuer && passthrough.some((rule) => rule.header.toLowerCase() === "authorization")) {
      throw new Error("--passthrough of Authorization is not allowed with --oauth-issuer: the MCP token is never sent upstream");
    }
    server = new McpServer({
      info,
      tools,
      upstream: { baseUrl, timeoutMs: flags.timeoutMs },
      logger,
      passthrough,
      confirmDestructive: flags.confirmDestructive,
      tasks: flags.noTasks ? false : { afterMs: flags.taskAfterMs },
      ...(nonEmpty(process.env.MCP_STATE_SECRET) ? { stateSecret: process.env.MCP_STATE_SECRET } : {}),
      ...(options.extension ? { extension: options.extension } : {}),
      ...(options.apiDocument !== undefined ? { apiDocument: options.apiDocument } : {}),
      ...(options.declarations !== undefined ? { declarations: options.declarations } : {}),
    });
  } catch (error) {
    process.stderr.write(`${info.name}: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return undefined;
  }
  let handle: TransportHandle;
  if (flags.http) {
    const oauth = flags.oauthIssuer ? resourceServer(flags) : undefined;
    const http = await startHttp(server, { host: flags.host, port: flags.port, sessions: flags.sessions, legacySse: flags.legacySse, logger, oauth });
    logger.info(`${info.name} ${info.version} listening on ${http.url}`);
    handle = http;
  } else {
    handle = startStdio(server, { logger });
    logger.info(`${info.name} ${info.version} ready on stdio`);
    // stdin EOF: in-flight work has settled and responses are flushed, so exit now rather
    // than wait for idle keep-alive sockets.
    void handle.closed.then(() => process.exit(process.exitCode ?? 0));
  }
  installSignalHandlers(handle, logger);
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
      passthrough: { type: "string", multiple: true },
      "passthrough-config": { type: "string" },
      "oauth-issuer": { type: "string" },
      "oauth-audience": { type: "string" },
      "oauth-jwks": { type: "string" },
      "oauth-introspection": { type: "string" },
      "oauth-scopes": { type: "string" },
      "public-url": { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
  if ((values.port !== undefined || values.host !== undefined || values.sessions || values["legacy-sse"]) && !values.http) {
    throw new UsageError("--port, --host, --sessions and --legacy-sse require --http");
  }
  return {
    http: values.http ?? false,
    port: values.port === undefined ? DEFAULT_HTTP_PORT : integerFlag("--port", values.port, 0, 65535),
    host: values.host ?? DEFAULT_HTTP_HOST,
    sessions: values.sessions ?? false,
    legacySse: values["legacy-sse"] ?? false,
    confirmDestructive: values["confirm-destructive"] ?? false,
    taskAfterMs: values["task-after"] === undefined ? DEFAULT_TASK_AFTER_MS : integerFlag("--task-after", values["task-after"], 0, 2_147_483_647),
    noTasks: values["no-tasks"] ?? false,
    codeLimits: codeLimits(values, process.env),
    baseUrl: nonEmpty(values["base-url"]),
    serverVars: values["server-var"] ?? [],
    timeoutMs: values.timeout === undefined ? undefined : integerFlag("--timeout", values.timeout, 1, 2_147_483_647),
    passthrough: values.passthrough ?? [],
    passthroughConfig: nonEmpty(values["passthrough-config"]),
    oauthIssuer: nonEmpty(values["oauth-issuer"]),
    oauthAudience: nonEmpty(values["oauth-audience"]),
    oauthJwks: nonEmpty(values["oauth-jwks"]),
    oauthIntrospection: nonEmpty(values["oauth-introspection"]),
    oauthScopes: nonEmpty(values["oauth-scopes"])?.split(/\s+/),
    publicUrl: nonEmpty(values["public-url"])?.replace(/\/+$/, ""),
    help: values.help ?? false,
    version: values.version ?? false,
  };
}

/** Resource-server settings from the flags (and the introspection client from the environment). */
function resourceServer(flags: ReturnType<typeof parseFlags>): ResourceServer {
  const hostForUrl = flags.host.includes(":") ? `[${flags.host}]` : flags.host;
  const origin = flags.publicUrl ?? (flags.port === 0 ? undefined : `http://${hostForUrl}:${flags.port}`);
  const id = process.env.MCP_OAUTH_CLIENT_ID;
  const secret = process.env.MCP_OAUTH_CLIENT_SECRET;
  const audience = flags.oauthAudience ?? (origin ? `${origin}/mcp` : undefined);
  if (!audience) throw new Error("--oauth-audience is required with --port 0");
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

const MIB = 1024 * 1024;

/**
 * Code-mode limits from flags, else the environment, else the defaults (`execute_code`, see code-mode.ts).
 * Exported for tests; the code surface takes them from `main`'s parsed flags.
 */
export function codeLimits(
  values: { "code-timeout"?: string | undefined; "code-memory"?: string | undefined; "code-max-calls"?: string | undefined; "code-max-result"?: string | undefined },
  env: NodeJS.ProcessEnv,
): CodeLimits {
  const pick = (flag: string, value: string | undefined, envName: string, min: number, max: number, fallback: number): number => {
    const fromFlag = nonEmpty(value);
    if (fromFlag !== undefined) return integerFlag(flag, fromFlag, min, max);
    const fromEnv = nonEmpty(env[envName]);
    return fromEnv === undefined ? fallback : integerFlag(envName, fromEnv, min, max);
  };
  return {
    timeoutMs: pick("--code-timeout", values["code-timeout"], "MCP_CODE_TIMEOUT_MS", 100, 600_000, DEFAULT_CODE_LIMITS.timeoutMs),
    memoryBytes: pick("--code-memory", values["code-memory"], "MCP_CODE_MEMORY_MB", 16, 2_048, DEFAULT_CODE_LIMITS.memoryBytes / MIB) * MIB,
    maxCalls: pick("--code-max-calls", values["code-max-calls"], "MCP_CODE_MAX_CALLS", 1, 10_000, DEFAULT_CODE_LIMITS.maxCalls),
    maxResultBytes: pick("--code-max-result", values["code-max-result"], "MCP_CODE_MAX_RESULT_BYTES", 1_000, 100_000_000, DEFAULT_CODE_LIMITS.maxResultBytes),
  };
}

function integerFlag(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new UsageError(`${flag} must be an integer from ${min} to ${max}`);
  return value;
}

function installSignalHandlers(handle: TransportHandle, logger: Logger): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info(`received ${signal}, shutting down`);
    // Do not wait forever for a stuck upstream call.
    setTimeout(() => process.exit(process.exitCode ?? 0), 5_000).unref();
    void handle.close().then(() => process.exit(process.exitCode ?? 0));
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
