/**
 * The MCP dispatcher: one entry point for every transport. It validates JSON-RPC envelopes,
 * routes requests through a method table, tracks in-flight requests for cancellation and turns
 * thrown errors into wire errors. Legacy era (revisions negotiated by `initialize`) for now;
 * the modern era plugs in as more entries in the method tables plus per-request `_meta` checks.
 */
import {
  ErrorCode,
  RpcError,
  classifyMessage,
  errorResponse,
  successResponse,
  type JsonRpcId,
  type JsonRpcResponse,
} from "./jsonrpc.js";
import { CredentialStore } from "./credentials.js";
import { silentLogger, type Logger } from "./logger.js";
import { cursorKey } from "./pagination.js";
import { checkPassthroughRules, passthroughCredentials, type PassthroughRule } from "./passthrough.js";
import type { CallToolResult, ListedTool } from "./mcp-types.js";
import { textResult } from "./mcp-types.js";
import { BATCH_PROTOCOL_VERSION, negotiateProtocolVersion } from "./protocol.js";
import type { ServerInfo, ToolDefinition } from "./types.js";
import { UpstreamCancelledError, callUpstream, type UpstreamOptions } from "./upstream.js";
import { SchemaValidator } from "./validation.js";

/** Default number of tools per `tools/list` page. */
export const DEFAULT_PAGE_SIZE = 100;

/** What the transport knows about the message it hands to the dispatcher. */
export interface RequestContext {
  /**
   * The protocol revision in force for this message when the transport knows it (HTTP: the
   * `MCP-Protocol-Version` header or its default). When absent, the revision negotiated by
   * `initialize` on this server instance is used (stdio: one client per process).
   */
  protocolVersion?: string;
  /** OAuth scopes of the caller's token, when the HTTP transport runs as a resource server. */
  scopes?: ReadonlySet<string>;
  /** Incoming HTTP request headers (lower-case names), for passthrough rules; absent on stdio. */
  headers?: Record<string, string | string[] | undefined>;
  /** Aborted by the transport when the requester is gone (e.g. HTTP client disconnected). */
  signal?: AbortSignal;
  /**
   * Partition for matching `notifications/cancelled` to in-flight request ids, so one client
   * cannot cancel another's request that happens to use the same id.
   */
  scope?: string;
}

/** Options for {@link McpServer}. */
export interface McpServerOptions {
  info: ServerInfo;
  tools: ToolDefinition[];
  upstream: UpstreamOptions;
  /** stderr logger; defaults to silent. */
  logger?: Logger;
  /** Tools per `tools/list` page (default 100). */
  pageSize?: number;
  /** Where upstream credentials are read from (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Incoming headers that carry per-user upstream credentials (HTTP only; default none). */
  passthrough?: PassthroughRule[];
}

/** Per-request data handed to method handlers. */
interface HandlerContext {
  id: JsonRpcId;
  ctx: RequestContext;
  /** Aborted on `notifications/cancelled` or when the transport's signal aborts. */
  signal: AbortSignal;
}

type Params = Record<string, unknown>;
type RequestHandler = (params: Params, call: HandlerContext) => Promise<Record<string, unknown>>;
type NotificationHandler = (params: Params, ctx: RequestContext) => void;

const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** An MCP server over a fixed set of HTTP-backed tools. Transport-independent. */
export class McpServer {
  readonly info: ServerInfo;
  private readonly tools: ToolDefinition[];
  private readonly toolsByName = new Map<string, ToolDefinition>();
  private readonly upstream: UpstreamOptions;
  private readonly logger: Logger;
  private readonly pageSize: number;
  private readonly validator: SchemaValidator;
  private readonly credentials: CredentialStore;
  private readonly cursorKey: Buffer;
  private readonly passthrough: PassthroughRule[];
  private readonly userAgent: string;
  private readonly inFlight = new Map<string, AbortController>();
  private negotiatedVersion: string | undefined;
  private clientLogLevel = "info";

  private readonly requestHandlers: Record<string, RequestHandler> = {
    initialize: async (params) => this.initialize(params),
    ping: async () => ({}),
    "tools/list": async (params, call) => this.listTools(params, call.ctx.scopes),
    "tools/call": async (params, call) => this.callTool(params, call),
    "logging/setLevel": async (params) => this.setLogLevel(params),
  };

  private readonly notificationHandlers: Record<string, NotificationHandler> = {
    "notifications/initialized": () => {},
    "notifications/cancelled": (params, ctx) => this.cancel(params, ctx),
  };

  constructor(options: McpServerOptions) {
    this.info = options.info;
    this.tools = [...options.tools];
    for (const tool of this.tools) {
      if (this.toolsByName.has(tool.name)) throw new Error(`duplicate tool name: ${tool.name}`);
      this.toolsByName.set(tool.name, tool);
    }
    this.upstream = options.upstream;
    this.logger = options.logger ?? silentLogger;
    this.pageSize = Math.max(1, options.pageSize ?? DEFAULT_PAGE_SIZE);
    this.validator = new SchemaValidator(this.logger);
    this.cursorKey = cursorKey(options.env ?? process.env);
    this.passthrough = options.passthrough ?? [];
    checkPassthroughRules(this.passthrough, options.info.securitySchemes ?? []);
    this.credentials = new CredentialStore(options.info.securitySchemes ?? [], options.env ?? process.env, options.upstream.timeoutMs);
    this.userAgent = `${options.info.name}/${options.info.version} (mcp-gen)`;
  }

  /** The revision negotiated by the last `initialize` on this instance, if any. */
  get protocolVersion(): string | undefined {
    return this.negotiatedVersion;
  }

  /** Entry point for transports: a parsed JSON payload, single message or batch array. */
  async dispatch(payload: unknown, ctx: RequestContext = {}): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    return Array.isArray(payload) ? this.handleBatch(payload, ctx) : this.handle(payload, ctx);
  }

  /**
   * Handles a JSON-RPC batch. Legal only under revision 2025-03-26; otherwise (or when empty)
   * the answer is a single InvalidRequest error. Returns undefined when nothing needs answering.
   */
  async handleBatch(messages: unknown[], ctx: RequestContext = {}): Promise<JsonRpcResponse[] | JsonRpcResponse | undefined> {
    const version = ctx.protocolVersion ?? this.negotiatedVersion;
    if (version !== BATCH_PROTOCOL_VERSION) {
      return errorResponse(null, {
        code: ErrorCode.InvalidRequest,
        message: `JSON-RPC batches are only supported in protocol revision ${BATCH_PROTOCOL_VERSION} (current: ${version ?? "none negotiated"})`,
      });
    }
    if (messages.length === 0) return errorResponse(null, { code: ErrorCode.InvalidRequest, message: "empty batch" });
    const responses = await Promise.all(messages.map((message) => this.handle(message, ctx)));
    const answered = responses.filter((r): r is JsonRpcResponse => r !== undefined);
    return answered.length > 0 ? answered : undefined;
  }

  /** Handles one message. Resolves to the response, or undefined for notifications, responses and cancelled requests. */
  async handle(message: unknown, ctx: RequestContext = {}): Promise<JsonRpcResponse | undefined> {
    const classified = classifyMessage(message);
    switch (classified.kind) {
      case "invalid":
        return errorResponse(classified.id, { code: ErrorCode.InvalidRequest, message: `Invalid request: ${classified.reason}` });
      case "response":
        return undefined; // this server never sends requests, so there is nothing to match
      case "notification": {
        const { method, params } = classified.message;
        const handler = Object.hasOwn(this.notificationHandlers, method) ? this.notificationHandlers[method] : undefined;
        if (!handler) {
          this.logger.debug(`ignoring unknown notification ${method}`);
          return undefined;
        }
        try {
          handler(isParams(params) ? params : {}, ctx);
        } catch (error) {
          this.logger.error(`notification ${method} failed`, { error: describe(error) });
        }
        return undefined;
      }
      case "request":
        return this.handleRequest(classified.message.id, classified.message.method, classified.message.params, ctx);
    }
  }

  private async handleRequest(id: JsonRpcId, method: string, params: unknown, ctx: RequestContext): Promise<JsonRpcResponse | undefined> {
    // Object.hasOwn: method names like "constructor" must not reach the prototype.
    const handler = Object.hasOwn(this.requestHandlers, method) ? this.requestHandlers[method] : undefined;
    if (!handler) return errorResponse(id, { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` });
    if (params !== undefined && !isParams(params)) {
      return errorResponse(id, { code: ErrorCode.InvalidParams, message: "params must be an object" });
    }

    const controller = new AbortController();
    const onTransportAbort = (): void => controller.abort(ctx.signal?.reason);
    if (ctx.signal?.aborted) return undefined;
    ctx.signal?.addEventListener("abort", onTransportAbort, { once: true });
    const key = inFlightKey(ctx.scope, id);
    this.inFlight.set(key, controller);
    try {
      const result = await handler((params as Params | undefined) ?? {}, { id, ctx, signal: controller.signal });
      return controller.signal.aborted ? undefined : successResponse(id, result);
    } catch (error) {
      if (controller.signal.aborted || error instanceof UpstreamCancelledError) return undefined;
      if (error instanceof RpcError) return errorResponse(id, error.toJSON());
      this.logger.error(`request ${method} failed`, { error: describe(error) });
      return errorResponse(id, { code: ErrorCode.InternalError, message: "Internal error" });
    } finally {
      ctx.signal?.removeEventListener("abort", onTransportAbort);
      if (this.inFlight.get(key) === controller) this.inFlight.delete(key);
    }
  }

  private initialize(params: Params): Record<string, unknown> {
    const protocolVersion = negotiateProtocolVersion(params.protocolVersion);
    this.negotiatedVersion = protocolVersion;
    const serverInfo: Record<string, unknown> = { name: this.info.name, version: this.info.version };
    if (this.info.title !== undefined) serverInfo.title = this.info.title;
    const result: Record<string, unknown> = {
      protocolVersion,
      capabilities: { tools: { listChanged: false }, logging: {} },
      serverInfo,
    };
    if (this.info.description) result.instructions = this.info.description;
    return result;
  }

  private listTools(params: Params, scopes: ReadonlySet<string> | undefined): Record<string, unknown> {
    // With OAuth scopes, callers see only the tools their token may call.
    const visible = scopes ? this.tools.filter((tool) => this.requiredScopes(tool.name).every((scope) => scopes.has(scope))) : this.tools;
    const offset = params.cursor === undefined ? 0 : decodeCursor(params.cursor, visible.length);
    const page = visible.slice(offset, offset + this.pageSize).map(listedTool);
    const next = offset + this.pageSize;
    return next < visible.length ? { tools: page, nextCursor: encodeCursor(next) } : { tools: page };
  }

  /**
   * OAuth scopes a caller's MCP token needs for a tool: those of the first security alternative
   * of its operation that uses an OAuth 2 / OpenID Connect scheme (empty when there is none).
   */
  requiredScopes(toolName: string): string[] {
    const tool = this.toolsByName.get(toolName);
    const oauthKeys = new Set((this.info.securitySchemes ?? []).filter((s) => s.type === "oauth2" || s.type === "openIdConnect").map((s) => s.key));
    for (const alternative of tool?.http.security ?? []) {
      const scopes = Object.entries(alternative).filter(([key]) => oauthKeys.has(key)).flatMap(([, list]) => list);
      if (scopes.length > 0) return [...new Set(scopes)];
    }
    return [];
  }

  private async callTool(params: Params, call: HandlerContext): Promise<CallToolResult> {
    const name = params.name;
    if (typeof name !== "string") throw new RpcError(ErrorCode.InvalidParams, "tools/call requires a string 'name'");
    const tool = this.toolsByName.get(name);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const args = params.arguments ?? {};
    if (!isParams(args)) throw new RpcError(ErrorCode.InvalidParams, `arguments for tool ${name} must be an object`);

    // Input-validation failures are tool errors (isError), not protocol errors (SEP-1303).
    const outcome = this.validator.validate(tool.inputSchema, args, `input of tool ${name}`);
    if (!outcome.ok) return textResult(`Invalid arguments for tool ${name}: ${outcome.errors.join("; ")}`, true);

    return callUpstream(tool, args, {
      upstream: this.upstream,
      userAgent: this.userAgent,
      validator: this.validator,
      signal: call.signal,
      logger: this.logger,
      credentials: this.credentials,
      cursorKey: this.cursorKey,
      fromRequest: passthroughCredentials(this.passthrough, call.ctx.headers, this.info.securitySchemes ?? []),
    });
  }

  private setLogLevel(params: Params): Record<string, unknown> {
    if (typeof params.level !== "string" || !LOG_LEVELS.includes(params.level)) {
      throw new RpcError(ErrorCode.InvalidParams, `level must be one of: ${LOG_LEVELS.join(", ")}`);
    }
    this.clientLogLevel = params.level;
    this.logger.debug(`client log level set to ${this.clientLogLevel}`);
    return {};
  }

  private cancel(params: Params, ctx: RequestContext): void {
    const requestId = params.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const controller = this.inFlight.get(inFlightKey(ctx.scope, requestId));
    if (!controller) return; // already finished, or unknown: the spec says ignore
    this.logger.debug(`cancelling request ${String(requestId)}`);
    controller.abort(new Error(typeof params.reason === "string" ? params.reason : "cancelled by client"));
  }
}

/** Opaque `tools/list` cursor: base64url of `{"o": offset}`. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset }), "utf8").toString("base64url");
}

/** Decodes a cursor; throws InvalidParams unless it is one this server could have issued. */
export function decodeCursor(cursor: unknown, total: number): number {
  const invalid = new RpcError(ErrorCode.InvalidParams, "Invalid cursor");
  if (typeof cursor !== "string" || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid;
  }
  const offset = isParams(decoded) ? decoded.o : undefined;
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset <= 0 || offset >= total) throw invalid;
  return offset;
}

function listedTool(tool: ToolDefinition): ListedTool {
  const listed: ListedTool = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
  if (tool.title !== undefined) listed.title = tool.title;
  if (tool.outputSchema !== undefined) listed.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) listed.annotations = tool.annotations;
  return listed;
}

function inFlightKey(scope: string | undefined, id: JsonRpcId): string {
  // typeof keeps the string "1" and the number 1 apart, as JSON-RPC does.
  return `${scope ?? ""}\u0000${typeof id}:${String(id)}`;
}

function isParams(value: unknown): value is Params {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
