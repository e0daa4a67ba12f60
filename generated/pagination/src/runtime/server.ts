/**
 * The MCP dispatcher: one entry point for every transport and both protocol eras. It validates
 * JSON-RPC envelopes, tells the eras apart per request (`initialize` → legacy; modern `_meta` →
 * stateless 2026-07-28), routes through one method table per era, tracks in-flight requests for
 * cancellation, decorates modern results (`resultType`, caching hints, server identity) and turns
 * thrown errors into wire errors with their HTTP status hints.
 */
import {
  ErrorCode,
  RpcError,
  classifyMessage,
  errorResponse,
  successResponse,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "./jsonrpc.js";
import { CredentialStore } from "./credentials.js";
import { classifyEra, hasModernMeta, isLogLevel, logLevelAtLeast, requireClientCapability, type McpLogLevel, type RequestEra } from "./era.js";
import { matchUriTemplate, type CustomTool, type Extension, type InputRequest, type InputRequiredResult, type RequestTools } from "./extensions.js";
import { ClientRequests } from "./client-requests.js";
import { confirmDestructiveCall } from "./confirm.js";
import { StateSealer } from "./request-state.js";
import { silentLogger, type Logger } from "./logger.js";
import { collectPages, requestedPages } from "./collect.js";
import { cursorKey } from "./pagination.js";
import { checkPassthroughRules, passthroughCredentials, type PassthroughRule } from "./passthrough.js";
import type { CallToolResult, ListedTool } from "./mcp-types.js";
import { textResult } from "./mcp-types.js";
import {
  ALL_PROTOCOL_VERSIONS,
  BATCH_PROTOCOL_VERSION,
  META_SERVER_INFO,
  META_SUBSCRIPTION_ID,
  negotiateProtocolVersion,
} from "./protocol.js";
import { ResourceCatalog } from "./resources.js";
import type { ServerInfo, ToolDefinition } from "./types.js";
import PQueue from "p-queue";
import { DEFAULT_UPSTREAM_CONCURRENCY, UpstreamCancelledError, callUpstream, type UpstreamOptions } from "./upstream.js";
import { SchemaValidator } from "./validation.js";
import { CALL_OPERATION, EXECUTE_CODE, MetaTools, type ServedSurface } from "./surfaces.js";
import type { CodeLimits } from "./code-mode.js";
import { TASKS_EXTENSION, TaskStore, declaresTasks, missingTasksExtension, type TaskOptions, type TaskRound } from "./tasks.js";
import { Cluster } from "./cluster.js";
import { SharedTasks } from "./shared-tasks.js";
import type { StateStore } from "./state.js";
import type { LegacySession } from "./sessions.js";
import { isRecord } from "./own.js";

/** Default largest JSON-RPC batch (revision 2025-03-26) answered; a longer one is refused whole. */
export const DEFAULT_MAX_BATCH = 100;

/** Default number of items per list page (`tools/list`, `resources/list`). */
export const DEFAULT_PAGE_SIZE = 100;
/**
 * Most pages a full `tools/list` takes with the default page size: a larger list gets larger
 * pages. @modelcontextprotocol/client 2.x lists every page of `listTools()` but stops with an error
 * after 64 (its `listMaxPages`); MS Graph beta's 22,361 tools would take 224 pages of 100.
 */
export const MAX_LIST_PAGES = 32;
/**
 * Most JSON characters of one enlarged page (see MAX_LIST_PAGES): the stdio client of SDK 1.x
 * closes the connection on a message over 10 MB (its read buffer's limit).
 */
export const MAX_PAGE_BYTES = 8 * 2 ** 20;

/**
 * Caching hints on modern list, read and discover results. The catalog is fixed when the server
 * is generated and never depends on the caller's authorization, so it is public.
 */
export const CACHE_HINTS = { ttlMs: 300_000, cacheScope: "public" } as const;

/** Methods whose complete modern results carry {@link CACHE_HINTS}. */
const CACHEABLE = new Set(["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"]);

/** What the transport knows about the message it hands to the dispatcher. */
export interface RequestContext {
  /**
   * The protocol revision the transport saw (HTTP: the `MCP-Protocol-Version` header or its
   * default). When absent, legacy requests use the revision negotiated by `initialize` on this
   * instance (stdio: one client per process); modern requests always use their own `_meta`.
   */
  protocolVersion?: string;
  /** OAuth scopes of the caller's token, when the HTTP transport runs as a resource server. */
  scopes?: ReadonlySet<string>;
  /** The token's subject in resource-server mode: tasks belong to the subject that created them. */
  subject?: string;
  /** Incoming HTTP request headers (lower-case names), for passthrough rules; absent on stdio. */
  headers?: Record<string, string | string[] | undefined>;
  /** Aborted by the transport when the requester is gone (modern HTTP: the response stream closed). */
  signal?: AbortSignal;
  /**
   * Partition for matching `notifications/cancelled` to in-flight request ids, so one client
   * cannot cancel another's request that happens to use the same id.
   */
  scope?: string;
  /**
   * Delivers a message related to this request: notifications (progress, log messages,
   * subscription acknowledgements) and, in the legacy era, requests to the client (elicitation,
   * sampling, roots) whose responses come back through {@link McpServer.handle}. Absent when the
   * transport cannot stream: notifications are then dropped and client requests refused.
   */
  notify?: (message: JsonRpcNotification | JsonRpcRequest) => void;
  /**
   * The legacy HTTP session of this request (`--sessions`): its client capabilities and log level
   * apply instead of this instance's last `initialize`; `logging/setLevel` changes it in place and
   * the transport saves it.
   */
  session?: LegacySession;
}

/** Options for {@link McpServer}. */
export interface McpServerOptions {
  info: ServerInfo;
  /** The operation tools, or their names and a loader called when a definition is first needed. */
  tools: readonly ToolDefinition[] | LazyTools;
  upstream: UpstreamOptions;
  /** The upstream API's OpenAPI document as JSON text (or a function reading it on demand), served as a resource when given. */
  apiDocument?: string | (() => string);
  /** JSON text of tool name → TypeScript declaration (or a function reading it), served as `openapi://declarations`. */
  declarations?: string | (() => string);
  /** The user's additions (tools, resources, templates, prompts, hooks); see extensions.ts. */
  extension?: Extension;
  /** stderr logger; defaults to silent. */
  logger?: Logger;
  /** Items per list page (default: 100, or what keeps a list within MAX_LIST_PAGES pages). */
  pageSize?: number;
  /** Largest JSON-RPC batch answered (default {@link DEFAULT_MAX_BATCH}); longer batches get one -32600 error. */
  maxBatch?: number;
  /** Where upstream credentials are read from (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Incoming headers that carry per-user upstream credentials (HTTP only; default none). */
  passthrough?: PassthroughRule[];
  /** HMAC key for `requestState` (share it across instances); default: random per process. */
  stateSecret?: string;
  /**
   * Destructive tools (annotation `destructiveHint`, e.g. every DELETE) first ask the user to
   * confirm: modern clients get an `input_required` elicitation with sealed, expiring state bound
   * to the exact arguments. Legacy clients cannot be asked (no server→client requests), so the
   * call is refused with an `isError` result.
   */
  confirmDestructive?: boolean;
  /**
   * The tasks extension (modern era): generated tools still running after `afterMs` (default
   * 2000) become tasks for clients that declared `io.modelcontextprotocol/tasks`; custom tools
   * opt in with `taskSupport`. `false` turns the extension off. See tasks.ts.
   */
  tasks?: (TaskOptions & { afterMs?: number }) | false;
  /**
   * What is listed for the operations (surfaces.ts): `all` (default) one tool per operation;
   * `search` and `code` a few meta tools that find, describe and call them. `tools` are the
   * operations offered (toolset filters already applied): no surface reaches any other.
   */
  surface?: ServedSurface;
  /** Reads a data file of the generated project (`search-index.json`, `declarations.json`); undefined when absent. */
  readData?: (file: string) => string | undefined;
  /** The TypeScript declaration of one operation (read alone); without it `declarations.json` is parsed whole. */
  declarationOf?: (name: string) => string | undefined;
  /** Limits of each `execute_code` run on the code surface (`--code-*` flags). */
  codeLimits?: CodeLimits;
  /**
   * Shared state (state.ts): with a shared store (Redis), tasks are readable, answerable and
   * cancellable through every instance, and a legacy `notifications/cancelled` reaches the
   * instance running the request. Default: this process only.
   */
  state?: StateStore;
}

/**
 * One operation call's request context (opaque outside the server): what `callOperation` needs
 * to run an operation on behalf of a `tools/call` (progress token, MRTR fields, cancellation).
 */
export interface OperationCallContext {
  readonly params: Record<string, unknown>;
  readonly call: unknown;
}

/** Default deadline after which a generated tool's call becomes a task. */
export const DEFAULT_TASK_AFTER_MS = 2000;

/** Per-request data handed to method handlers. */
interface HandlerContext {
  id: JsonRpcId;
  method: string;
  ctx: RequestContext;
  era: RequestEra;
  /** Aborted on `notifications/cancelled` or when the transport's signal aborts. */
  signal: AbortSignal;
  /**
   * True for the later rounds of a task: their `requestState` never left this server, so its
   * expiry (meant for states travelling through clients) does not apply while the task lives.
   */
  serverHeldState?: boolean;
}

type Params = Record<string, unknown>;
type RequestHandler = (params: Params, call: HandlerContext) => Promise<Record<string, unknown>>;
type NotificationHandler = (params: Params, ctx: RequestContext) => void;

/**
 * Operation tools known by name from the start and loaded on first need, so that a server of
 * 20,000 operations answers `initialize` without parsing their schemas.
 */
export interface LazyTools {
  names: readonly string[];
  /** The definitions of `names`, in the same order. */
  load(): readonly ToolDefinition[];
  /** One definition, without loading the others (optional: `load` serves otherwise). */
  get?(name: string): ToolDefinition | undefined;
}

/** The operation definitions, once loaded. */
interface LoadedOperations {
  tools: readonly ToolDefinition[];
  byName: Map<string, ToolDefinition>;
  resources: ResourceCatalog;
}

/** An MCP server over a fixed set of HTTP-backed tools. Transport-independent. */
export class McpServer {
  readonly info: ServerInfo;
  private readonly customTools: CustomTool<any>[];
  /** Custom tools by name (operation tools are found through `operations`). */
  private readonly customByName = new Map<string, CustomTool<any>>();
  /** The name of every operation this server offers, whatever the surface. */
  private readonly operationNames: ReadonlySet<string>;
  /** The operation names in tool order (the order of `tools/list`). */
  private readonly operationOrder: readonly string[];
  private readonly loadOperations: () => readonly ToolDefinition[];
  private readonly getOperation: ((name: string) => ToolDefinition | undefined) | undefined;
  private loadedOperations: LoadedOperations | undefined;
  private readonly apiDocument: string | (() => string) | undefined;
  private readonly declarations: string | (() => string) | undefined;
  /** The meta tools of the `search`/`code` surface; undefined on `all`. */
  private readonly meta: MetaTools | undefined;
  private readonly extension: Extension;
  private readonly sealer: StateSealer;
  private readonly confirmDestructive: boolean;
  private readonly upstream: UpstreamOptions;
  private readonly logger: Logger;
  private readonly pageSize: number;
  /** The page size was set by the embedder (not adapted to the list's length). */
  private readonly pageSizeSet: boolean;
  private readonly maxBatch: number;
  /** Every upstream call of this server waits here for one of a bounded number of slots. */
  private readonly upstreamQueue: PQueue;
  private readonly validator: SchemaValidator;
  private readonly credentials: CredentialStore;
  private readonly cursorKey: Buffer;
  private readonly passthrough: PassthroughRule[];
  /** Keys of the OAuth 2 / OpenID Connect schemes, whose scopes an MCP token must carry. */
  private readonly oauthSchemes: ReadonlySet<string>;
  private readonly userAgent: string;
  private readonly inFlight = new Map<string, AbortController>();
  private readonly subscriptions = new Set<() => void>();
  /** Modern tasks; undefined when the extension is off. */
  private readonly tasks: TaskStore | undefined;
  /** The other instances, when the state store is shared. */
  private readonly cluster: Cluster | undefined;
  /** Tasks of every instance (shared store and tasks on). */
  private readonly sharedTasks: SharedTasks | undefined;
  /** Resolves once this instance listens to the others (at once without a shared store). */
  readonly ready: Promise<void>;
  private readonly taskAfterMs: number;
  /** Legacy server→client requests awaiting the client's response. */
  private readonly clientRequests = new ClientRequests();
  private negotiatedVersion: string | undefined;
  /** Capabilities the legacy client declared in `initialize`. */
  private legacyClientCapabilities: Record<string, unknown> = {};
  /** Legacy `logging/setLevel`; undefined until the client asks, so nothing is sent unasked. */
  private clientLogLevel: McpLogLevel | undefined;

  /** Methods served in both eras. */
  private readonly commonHandlers: Record<string, RequestHandler> = {
    "tools/list": async (params, call) => this.listTools(params, call.ctx.scopes),
    "tools/call": async (params, call) => this.callTool(params, call),
    "resources/list": async (params) =>
      this.page("resources", [...(this.extension.resources ?? []).map(({ read: _read, ...listed }) => listed), ...this.loaded().resources.list()], params),
    "resources/templates/list": async (params) =>
      this.page(
        "resourceTemplates",
        [...(this.extension.resourceTemplates ?? []).map(({ read: _read, complete: _complete, ...listed }) => listed), ...this.loaded().resources.templates()],
        params,
      ),
    "resources/read": async (params, call) => this.readResource(params, call),
    "prompts/list": async (params) => this.page("prompts", (this.extension.prompts ?? []).map(listedPrompt), params),
    "prompts/get": async (params, call) => this.getPrompt(params, call),
    "completion/complete": async (params) => this.complete(params),
  };

  /** Legacy era (≤ 2025-11-25): lifecycle and session-scoped utilities. */
  private readonly legacyHandlers: Record<string, RequestHandler> = {
    ...this.commonHandlers,
    initialize: async (params) => this.initialize(params),
    ping: async () => ({}),
    "logging/setLevel": async (params, call) => this.setLogLevel(params, call.ctx),
    // Subscriptions are accepted; this catalog never changes, so no update is ever due.
    "resources/subscribe": async (params) => requireUri(params),
    "resources/unsubscribe": async (params) => requireUri(params),
  };

  /** Modern era (2026-07-28): stateless, no `initialize`/`ping`/`logging/setLevel`. */
  private readonly modernHandlers: Record<string, RequestHandler> = {
    ...this.commonHandlers,
    "server/discover": async () => this.discover(),
    "subscriptions/listen": async (params, call) => this.listen(params, call),
    "tasks/get": async (params, call) => this.taskStore(call).get(params.taskId, call.ctx.subject),
    "tasks/update": async (params, call) => this.taskStore(call).update(params.taskId, params.inputResponses, call.ctx.subject),
    "tasks/cancel": async (params, call) => this.taskStore(call).cancel(params.taskId, call.ctx.subject),
  };

  private readonly notificationHandlers: Record<string, NotificationHandler> = {
    "notifications/initialized": () => {},
    "notifications/cancelled": (params, ctx) => this.cancel(params, ctx),
  };

  constructor(options: McpServerOptions) {
    this.info = options.info;
    const tools = isLazyTools(options.tools) ? options.tools : eagerTools(options.tools);
    this.operationNames = new Set(tools.names);
    this.operationOrder = tools.names;
    this.loadOperations = () => tools.load();
    this.getOperation = tools.get ? (name) => tools.get!(name) : undefined;
    this.apiDocument = options.apiDocument;
    this.declarations = options.declarations;
    this.extension = options.extension ?? {};
    this.sealer = new StateSealer(options.stateSecret);
    this.confirmDestructive = options.confirmDestructive ?? false;
    this.customTools = [...(this.extension.tools ?? [])];
    const surface = options.surface ?? "all";
    this.meta =
      surface === "all"
        ? undefined
        : new MetaTools({
            surface,
            title: options.info.title ?? options.info.name,
            operations: { names: this.operationNames, get: (name) => this.operation(name), all: () => this.loaded().tools },
            readSearchIndex: () => options.readData?.("search-index.json"),
            readDeclarations: () => options.readData?.("declarations.json"),
            ...(options.declarationOf ? { readDeclaration: options.declarationOf } : {}),
            ...(options.codeLimits ? { codeLimits: options.codeLimits } : {}),
          });
    const listedNames = new Set(this.meta ? this.meta.tools().map((tool) => tool.name) : this.operationNames);
    if (this.meta === undefined && this.operationNames.size < tools.names.length) throw new Error(`duplicate tool name: ${duplicateName(tools.names)}`);
    for (const tool of this.customTools) {
      if (this.customByName.has(tool.name) || listedNames.has(tool.name)) throw new Error(`duplicate tool name: ${tool.name}`);
      this.customByName.set(tool.name, tool);
    }
    this.upstream = options.upstream;
    this.logger = options.logger ?? silentLogger;
    this.pageSize = Math.max(1, options.pageSize ?? DEFAULT_PAGE_SIZE);
    this.pageSizeSet = options.pageSize !== undefined;
    this.maxBatch = Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH);
    this.upstreamQueue = new PQueue({ concurrency: Math.max(1, options.upstream.concurrency ?? DEFAULT_UPSTREAM_CONCURRENCY) });
    this.validator = new SchemaValidator(this.logger);
    this.cursorKey = cursorKey(options.env ?? process.env);
    this.passthrough = options.passthrough ?? [];
    this.oauthSchemes = new Set((options.info.securitySchemes ?? []).filter((s) => s.type === "oauth2" || s.type === "openIdConnect").map((s) => s.key));
    checkPassthroughRules(this.passthrough, options.info.securitySchemes ?? []);
    this.credentials = new CredentialStore(options.info.securitySchemes ?? [], options.env ?? process.env, options.upstream.timeoutMs);
    this.userAgent = `${options.info.name}/${options.info.version} (mcp-gen)`;
    const state = options.state?.shared ? options.state : undefined;
    this.cluster = state ? new Cluster(state, this.logger) : undefined;
    let shared: SharedTasks | undefined;
    // With a shared store, every task change is written there, and no task is made while it is down.
    const sharing = state ? { onChange: (snapshot: Parameters<SharedTasks["write"]>[0]) => shared!.write(snapshot), canCreate: () => state.available() } : {};
    this.tasks = options.tasks === false ? undefined : new TaskStore({ ...(options.tasks || {}), ...sharing });
    this.sharedTasks = shared = this.tasks && this.cluster ? new SharedTasks(this.tasks, this.cluster, this.logger) : undefined;
    this.taskAfterMs = options.tasks ? (options.tasks.afterMs ?? DEFAULT_TASK_AFTER_MS) : DEFAULT_TASK_AFTER_MS;
    this.ready = this.cluster
      ? this.cluster.start(
          async (command) => {
            if (!shared) throw new RpcError(ErrorCode.MethodNotFound, "tasks are off on this instance");
            return shared.command(command);
          },
          (message) => {
            if (message.type === "client-response" && isParams(message.message)) this.clientRequests.settle(message.message as unknown as JsonRpcResponse);
            else this.cancelLocal(message);
          },
        )
      : Promise.resolve();
  }

  /** Leaves the other instances (stops the heartbeat); the state store itself is the embedder's to close. */
  async leaveCluster(): Promise<void> {
    await this.cluster?.stop();
  }

  /** The revision negotiated by the last `initialize` on this instance, if any. */
  get protocolVersion(): string | undefined {
    return this.negotiatedVersion;
  }

  /** The tool called `name`, if any (the HTTP transport checks `Mcp-Param-*` headers against it). */
  findTool(name: string): ToolDefinition | CustomTool<any> | undefined {
    return this.customByName.get(name) ?? (this.meta ? undefined : this.operation(name));
  }

  /** The operation definitions, loaded on first need (see LazyTools). */
  private loaded(): LoadedOperations {
    if (!this.loadedOperations) {
      const tools = this.loadOperations();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const missing = [...this.operationNames].find((name) => !byName.has(name));
      if (missing !== undefined || byName.size !== this.operationNames.size) throw new Error(`the tool definitions do not match the catalog (${missing ?? "extra tools"})`);
      this.loadedOperations = { tools, byName, resources: new ResourceCatalog(tools, this.apiDocument, this.declarations) };
    }
    return this.loadedOperations;
  }

  /** Operation `name`, if this server offers it (without loading anything for another name). */
  private operation(name: string): ToolDefinition | undefined {
    if (!this.operationNames.has(name)) return undefined;
    if (this.loadedOperations === undefined && this.getOperation) return this.getOperation(name);
    return this.loaded().byName.get(name);
  }

  /** Ends every open `subscriptions/listen` gracefully (each gets its closing result). */
  closeSubscriptions(): void {
    for (const end of [...this.subscriptions]) end();
  }

  /** Tasks of this instance still working (the HTTP drain gives them its grace period to finish). */
  get workingTasks(): number {
    return this.tasks?.working ?? 0;
  }

  /** Cancels every unfinished task (server shutdown): their upstream requests are aborted. */
  cancelTasks(): void {
    this.tasks?.abortAll();
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
    // Refused whole, before any message runs: a partial answer would hide which calls ran.
    if (messages.length > this.maxBatch) {
      return errorResponse(null, {
        code: ErrorCode.InvalidRequest,
        message: `JSON-RPC batch too large: ${messages.length} messages, the limit is ${this.maxBatch} (server flag --max-batch, env MCP_MAX_BATCH)`,
      });
    }
    // Notifications inside a batch have no stream of their own.
    const batchCtx: RequestContext = { ...ctx, notify: undefined };
    const responses = await Promise.all(messages.map((message) => this.handle(message, batchCtx)));
    const answered = responses.filter((r): r is JsonRpcResponse => r !== undefined);
    return answered.length > 0 ? answered : undefined;
  }

  /** Handles one message. Resolves to the response, or undefined for notifications, responses and cancelled requests. */
  async handle(message: unknown, ctx: RequestContext = {}): Promise<JsonRpcResponse | undefined> {
    const classified = classifyMessage(message);
    switch (classified.kind) {
      case "invalid":
        return errorResponse(classified.id, { code: ErrorCode.InvalidRequest, message: `Invalid request: ${classified.reason}` });
      case "response": {
        // The answer to a legacy server→client request; unknown ids are ignored. A session's
        // answer may reach another instance than the one that asked (ids are unique per process).
        const settled = this.clientRequests.settle(classified.message);
        if (!settled && this.cluster && ctx.session) {
          this.cluster.broadcast({ type: "client-response", message: classified.message }).catch((error: unknown) => {
            this.logger.warn("client response not sent to the other instances", { error: describe(error) });
          });
        }
        return undefined;
      }
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
    if (params !== undefined && !isParams(params)) {
      return errorResponse(id, { code: ErrorCode.InvalidParams, message: "params must be an object" });
    }
    let era: RequestEra;
    try {
      // A plain `initialize` means legacy semantics, whatever the transport's version hint says;
      // one carrying modern `_meta` is a modern request for a removed method (-32601, HTTP 404).
      era = method === "initialize" && !hasModernMeta(params) ? { modern: false, version: undefined } : classifyEra(params, ctx.protocolVersion, this.negotiatedVersion);
    } catch (error) {
      return this.errorFrom(id, method, error);
    }
    const table = era.modern ? this.modernHandlers : this.legacyHandlers;
    // Object.hasOwn: method names like "constructor" must not reach the prototype.
    const handler = Object.hasOwn(table, method) ? table[method] : undefined;
    if (!handler) {
      return errorResponse(id, { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` }, era.modern ? 404 : undefined);
    }

    const controller = new AbortController();
    const onTransportAbort = (): void => controller.abort(ctx.signal?.reason);
    if (ctx.signal?.aborted) return undefined;
    ctx.signal?.addEventListener("abort", onTransportAbort, { once: true });
    const key = inFlightKey(ctx.scope, id);
    this.inFlight.set(key, controller);
    try {
      const result = await handler((params as Params | undefined) ?? {}, { id, method, ctx, era, signal: controller.signal });
      if (controller.signal.aborted) return undefined;
      return successResponse(id, era.modern ? this.modernResult(method, result, ctx) : result);
    } catch (error) {
      if (controller.signal.aborted || error instanceof UpstreamCancelledError) return undefined;
      return this.errorFrom(id, method, error);
    } finally {
      ctx.signal?.removeEventListener("abort", onTransportAbort);
      if (this.inFlight.get(key) === controller) this.inFlight.delete(key);
    }
  }

  private errorFrom(id: JsonRpcId, method: string, error: unknown): JsonRpcResponse {
    if (error instanceof RpcError) return errorResponse(id, error.toJSON(), error.httpStatus);
    this.logger.error(`request ${method} failed`, { error: describe(error) });
    return errorResponse(id, { code: ErrorCode.InternalError, message: "Internal error" });
  }

  /** Modern results: `resultType`, the server's identity, and caching hints where required. */
  private modernResult(method: string, result: Record<string, unknown>, ctx: RequestContext): Record<string, unknown> {
    const resultType = typeof result.resultType === "string" ? result.resultType : "complete";
    const meta = isParams(result._meta) ? result._meta : {};
    const decorated: Record<string, unknown> = {
      ...result,
      resultType,
      _meta: { ...meta, [META_SERVER_INFO]: this.implementation() },
    };
    if (resultType === "complete" && CACHEABLE.has(method)) Object.assign(decorated, CACHE_HINTS);
    // A tool list filtered by the caller's OAuth scopes is theirs alone.
    if (method === "tools/list" && ctx.scopes && resultType === "complete") decorated.cacheScope = "private";
    return decorated;
  }

  private implementation(): Record<string, unknown> {
    const implementation: Record<string, unknown> = { name: this.info.name, version: this.info.version };
    if (this.info.title !== undefined) implementation.title = this.info.title;
    return implementation;
  }

  private capabilities(): Record<string, unknown> {
    return {
      tools: { listChanged: false },
      resources: { subscribe: true, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
      logging: {},
    };
  }

  private initialize(params: Params): Record<string, unknown> {
    const protocolVersion = negotiateProtocolVersion(params.protocolVersion);
    this.negotiatedVersion = protocolVersion;
    this.legacyClientCapabilities = isParams(params.capabilities) ? params.capabilities : {};
    const result: Record<string, unknown> = { protocolVersion, capabilities: this.capabilities(), serverInfo: this.implementation() };
    if (this.info.description) result.instructions = this.info.description;
    return result;
  }

  private discover(): Record<string, unknown> {
    const capabilities = this.capabilities();
    if (this.tasks) capabilities.extensions = { [TASKS_EXTENSION]: {} };
    const result: Record<string, unknown> = { supportedVersions: [...ALL_PROTOCOL_VERSIONS], capabilities };
    if (this.info.description) result.instructions = this.info.description;
    return result;
  }

  private listTools(params: Params, scopes: ReadonlySet<string> | undefined): Record<string, unknown> {
    if (this.meta) return this.page("tools", [...this.meta.tools(), ...this.customTools], params, listedTool);
    // Until something loads every definition, a page reads only its own (by name, from the
    // offsets), so the first page of a server of 20,000 operations costs what its 100 tools cost.
    if (!scopes && this.loadedOperations === undefined && this.getOperation) {
      const get = this.getOperation;
      return this.page("tools", [...this.operationOrder, ...this.customTools], params, (item) => listedTool(typeof item === "string" ? definedOperation(item, get(item)) : item));
    }
    // With OAuth scopes, callers see only the tools their token may call.
    const { tools } = this.loaded();
    const visible = scopes ? tools.filter((tool) => this.mayCall(tool.name, scopes)) : tools;
    return this.page("tools", [...visible, ...this.customTools], params, listedTool);
  }

  /** Whether a caller with these OAuth scopes (undefined: no OAuth) may call operation `name`. */
  private mayCall(name: string, scopes: ReadonlySet<string> | undefined): boolean {
    return !scopes || this.requiredScopes(name).every((scope) => scopes.has(scope));
  }

  /**
   * OAuth scopes a `tools/call` with these params needs: those of the tool, or for
   * `call_operation` those of the operation it calls (the HTTP transport answers 403 without them).
   */
  callScopes(params: { name?: unknown; arguments?: unknown }): string[] {
    if (typeof params.name !== "string") return [];
    if (this.meta?.find(params.name) && params.name === CALL_OPERATION) {
      const target = isParams(params.arguments) ? params.arguments.name : undefined;
      return typeof target === "string" ? this.requiredScopes(target) : [];
    }
    return this.requiredScopes(params.name);
  }

  /**
   * OAuth scopes a caller's MCP token needs for a tool: those of the first security alternative
   * of its operation that uses an OAuth 2 / OpenID Connect scheme (empty when there is none).
   */
  requiredScopes(toolName: string): string[] {
    const tool = this.operation(toolName);
    const security = tool && "http" in tool ? tool.http.security : undefined;
    for (const alternative of security ?? []) {
      const scopes = Object.entries(alternative).filter(([key]) => this.oauthSchemes.has(key)).flatMap(([, list]) => list);
      if (scopes.length > 0) return [...new Set(scopes)];
    }
    return [];
  }

  /** One page of a list, with an opaque, validated cursor; `show` maps only the page's items. */
  private page<T>(key: string, items: readonly T[], params: Params, show: (item: T) => unknown = (item) => item): Record<string, unknown> {
    const offset = params.cursor === undefined ? 0 : decodeCursor(params.cursor, items.length);
    const size = this.pageSizeSet ? this.pageSize : Math.max(this.pageSize, Math.ceil(items.length / MAX_LIST_PAGES));
    const end = Math.min(items.length, offset + size);
    let next = end;
    let shown: unknown[];
    if (size <= this.pageSize) shown = items.slice(offset, end).map(show);
    else {
      // Enlarged pages end early at MAX_PAGE_BYTES: SDK 1.x's stdio client drops a message over 10 MB.
      shown = [];
      let bytes = 0;
      for (let i = offset; i < end; i++) {
        const item = show(items[i]!);
        const length = JSON.stringify(item).length;
        if (shown.length > 0 && bytes + length > MAX_PAGE_BYTES) {
          next = i;
          break;
        }
        shown.push(item);
        bytes += length;
      }
    }
    const page = { [key]: shown };
    return next < items.length ? { ...page, nextCursor: encodeCursor(next) } : page;
  }

  /**
   * `tools/call`. Modern clients that declared the tasks extension may get a task instead of the
   * result when the tool allows it and the call outlasts its deadline (tasks.ts); a tool that
   * requires tasks refuses other modern clients with -32021. Legacy calls always run in line.
   */
  private async callTool(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    const name = params.name;
    if (typeof name !== "string") throw new RpcError(ErrorCode.InvalidParams, "tools/call requires a string 'name'");
    const metaTool = this.meta?.find(name);
    const tool = metaTool ?? this.findTool(name);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    // call_operation runs an operation, so it may become a task as the operation's own tool may.
    const custom = "handler" in tool ? (tool as CustomTool<any>) : undefined;
    const support = custom ? (custom.taskSupport ?? "forbidden") : "http" in tool || name === CALL_OPERATION || name === EXECUTE_CODE ? "optional" : "forbidden";
    if (!this.tasks || !call.era.modern || support === "forbidden") return this.runTool(tool, params, call);
    if (!declaresTasks(call.era.clientCapabilities)) {
      if (support === "required") throw missingTasksExtension();
      return this.runTool(tool, params, call);
    }
    const afterMs = custom ? (custom.taskAfterMs ?? 0) : this.taskAfterMs;
    // Once the call is a task, its notifications would reach no one: the request has been answered.
    const run = (round: TaskRound) => {
      const notify = call.ctx.notify;
      const ctx: RequestContext = { ...call.ctx, notify: notify && ((message) => round.detached() || notify(message)) };
      const roundParams = round.detached() ? { ...params, inputResponses: round.inputResponses, requestState: round.requestState } : params;
      return this.runTool(tool, roundParams, { ...call, ctx, signal: round.signal, serverHeldState: round.detached() });
    };
    return this.tasks.start(run, afterMs, call.signal, call.ctx.subject);
  }

  /** The task store for a `tasks/*` request: -32601 when the extension is off, -32021 when the client did not declare it. */
  private taskStore(call: HandlerContext): TaskStore | SharedTasks {
    if (!this.tasks) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${call.method}`, undefined, 404);
    if (!call.era.modern || !declaresTasks(call.era.clientCapabilities)) throw missingTasksExtension();
    return this.sharedTasks ?? this.tasks;
  }

  /** Runs one tool call to its result (or an `input_required` result): a meta tool, an operation or a custom tool. */
  private async runTool(tool: ToolDefinition | CustomTool<any> | ListedTool, params: Params, call: HandlerContext): Promise<CallToolResult | InputRequiredResult> {
    if ("http" in tool) return this.callOperation(tool.name, params.arguments ?? {}, { params, call });
    const name = tool.name;
    const args = params.arguments ?? {};
    if (!isParams(args)) throw new RpcError(ErrorCode.InvalidParams, `arguments for tool ${name} must be an object`);
    const outcome = this.validator.validate(tool.inputSchema, args, `input of tool ${name}`);
    if (!outcome.ok) return textResult(`Invalid arguments for tool ${name}: ${outcome.errors.join("; ")}`, true);
    if (!("handler" in tool)) {
      const allowed = (operation: string): boolean => this.operationNames.has(operation) && this.mayCall(operation, call.ctx.scopes);
      return this.meta!.call(name, args, allowed, (operation, operationArgs, signal) =>
        this.callOperation(operation, operationArgs, { params, call: signal ? { ...call, signal } : call }),
        call.signal,
      );
    }
    return this.callCustomTool(tool, args, this.requestTools(params, call));
  }

  /**
   * Runs operation `name` with `args`: the one code path of every operation call, whether from its
   * own tool (surface `all`), `call_operation` or code mode. Validation, confirmation of
   * destructive calls, hooks, credentials, pagination, progress and cancellation all happen here.
   * `context` is the request's (from the server; the params' progress token and MRTR fields apply).
   */
  async callOperation(name: string, args: unknown, context: OperationCallContext): Promise<CallToolResult | InputRequiredResult> {
    const call = context.call as HandlerContext;
    const tool = this.operation(name);
    if (!tool) return textResult(`Unknown operation '${name}'. Use search_operations to find operation names.`, true);
    if (!this.mayCall(name, call.ctx.scopes)) return textResult(`Operation ${name} needs OAuth scopes this token lacks: ${this.requiredScopes(name).join(" ")}`, true);
    // The request as if it had called the operation's own tool: MRTR state binds to the operation.
    const params: Params = { ...context.params, name, arguments: args };
    if (!isParams(args)) throw new RpcError(ErrorCode.InvalidParams, `arguments for tool ${name} must be an object`);

    // Input-validation failures are tool errors (isError), not protocol errors (SEP-1303).
    const outcome = this.validator.validate(tool.inputSchema, args, `input of tool ${name}`);
    if (!outcome.ok) return textResult(`Invalid arguments for tool ${name}: ${outcome.errors.join("; ")}`, true);
    const tools = this.requestTools(params, call);

    if (this.confirmDestructive && tool.annotations?.destructiveHint) {
      const gate = await confirmDestructiveCall(tool, args, tools, call.era.modern);
      if (gate) return gate;
    }

    const hooks = this.extension.hooks;
    let upstreamArgs = args;
    if (hooks?.beforeCall) {
      const before = await hooks.beforeCall(tool, args, tools);
      if (before && isCallToolResult(before)) return before;
      if (before) upstreamArgs = before as Record<string, unknown>;
    }

    // Log lines name the operation template only: never argument values, URLs or headers.
    const operation = `${tool.http.method.toUpperCase()} ${tool.http.path}`;
    this.progress(params, call, 0, `calling ${operation}`);
    this.clientLog(call, "debug", { tool: name, event: "upstream request", operation });
    const started = Date.now();
    const fetchPage = (pageArgs: Record<string, unknown>) =>
      callUpstream(tool, pageArgs, {
        upstream: this.upstream,
        userAgent: this.userAgent,
        validator: this.validator,
        signal: call.signal,
        logger: this.logger,
        credentials: this.credentials,
        cursorKey: this.cursorKey,
        queue: this.upstreamQueue,
        fromRequest: passthroughCredentials(this.passthrough, call.ctx.headers, this.info.securitySchemes ?? []),
      });
    const pages = requestedPages(tool, upstreamArgs);
    const firstPage = await fetchPage(upstreamArgs);
    const upstreamResult =
      pages > 1
        ? await collectPages(tool, upstreamArgs, firstPage, pages, fetchPage, {
            signal: call.signal,
            onPage: (done, total) => this.sendProgress(params, call, done, total, `page ${done} of up to ${total}`),
          })
        : firstPage;
    this.clientLog(call, upstreamResult.isError ? "warning" : "info", { tool: name, event: "upstream response", operation, ok: !upstreamResult.isError, ms: Date.now() - started });
    // Progress must only grow: a collection already reported its pages.
    if (pages <= 1) this.progress(params, call, 1, "done");
    const after = hooks?.afterCall ? await hooks.afterCall(tool, upstreamArgs, upstreamResult, tools) : undefined;
    return after ?? upstreamResult;
  }

  /** Runs a custom tool; protocol errors (RpcError) propagate, anything else is an `isError` result. */
  private async callCustomTool(tool: CustomTool<any>, args: Params, tools: RequestTools): Promise<CallToolResult | InputRequiredResult> {
    try {
      return await tool.handler(args, tools);
    } catch (error) {
      if (error instanceof RpcError || tools.signal.aborted) throw error;
      this.logger.warn(`custom tool ${tool.name} failed`, { error: describe(error) });
      return textResult(error instanceof Error ? error.message : String(error), true);
    }
  }

  /**
   * The helpers a custom handler gets for one request. Validates MRTR retry fields first:
   * malformed `inputResponses` or an invalid (tampered, expired, foreign) `requestState` → -32602.
   */
  private requestTools(params: Params, call: HandlerContext): RequestTools {
    const binding = { method: call.method, target: String(params.name ?? params.uri ?? "") };
    const responses = params.inputResponses ?? {};
    if (!isParams(responses) || !Object.values(responses).every(isParams)) {
      throw new RpcError(ErrorCode.InvalidParams, "inputResponses must be an object whose values are result objects");
    }
    const state = params.requestState === undefined ? undefined : this.sealer.open(binding, params.requestState, call.serverHeldState);
    const legacyCapabilities = call.ctx.session?.clientCapabilities ?? this.legacyClientCapabilities;
    const clientCapabilities = call.era.modern ? call.era.clientCapabilities : legacyCapabilities;
    return {
      inputResponses: responses as Record<string, Record<string, unknown>>,
      state,
      inputRequired: (inputRequests, nextState) => {
        if (!call.era.modern) throw new RpcError(ErrorCode.InvalidRequest, "input_required results need protocol revision 2026-07-28");
        for (const request of Object.values(inputRequests)) requireClientCapability(call.era, INPUT_CAPABILITY[request.method]);
        const result: InputRequiredResult = { resultType: "input_required", inputRequests };
        if (nextState !== undefined) result.requestState = this.sealer.seal(binding, nextState);
        return result;
      },
      signal: call.signal,
      era: call.era,
      clientCapabilities,
      progress: (progress, total, message) => this.sendProgress(params, call, progress, total, message),
      log: (level, data) => this.clientLog(call, level, data),
      clientRequest: (method, requestParams) => {
        if (call.era.modern) throw new RpcError(ErrorCode.InvalidRequest, "client requests are legacy-era only; use inputRequired()");
        if (!isParams(clientCapabilities[INPUT_CAPABILITY[method]])) {
          throw new RpcError(ErrorCode.InvalidRequest, `The client did not declare the '${INPUT_CAPABILITY[method]}' capability`);
        }
        if (!call.ctx.notify) throw new RpcError(ErrorCode.InvalidRequest, "This transport cannot send requests to the client (HTTP: Accept text/event-stream)");
        return this.clientRequests.send(call.ctx.notify, method, requestParams, call.signal);
      },
      requireClientCapability: (capability) => {
        if (call.era.modern) requireClientCapability(call.era, capability);
        else if (!isParams(legacyCapabilities[capability])) {
          throw new RpcError(ErrorCode.InvalidRequest, `This request requires the client capability '${capability}'`);
        }
      },
    };
  }

  private async getPrompt(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    const prompt = (this.extension.prompts ?? []).find((p) => p.name === params.name);
    if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(params.name)}`);
    const args = params.arguments ?? {};
    if (!isParams(args) || Object.values(args).some((v) => typeof v !== "string")) {
      throw new RpcError(ErrorCode.InvalidParams, "prompt arguments must be an object of strings");
    }
    const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
    if (missing.length > 0) throw new RpcError(ErrorCode.InvalidParams, `Missing required prompt arguments: ${missing.join(", ")}`);
    return prompt.get(args as Record<string, string>, this.requestTools(params, call));
  }

  private async readCustomResource(uri: string, params: Params, call: HandlerContext): Promise<unknown[] | undefined> {
    const fixed = (this.extension.resources ?? []).find((r) => r.uri === uri);
    if (fixed) return fixed.read(this.requestTools(params, call));
    for (const template of this.extension.resourceTemplates ?? []) {
      const variables = matchUriTemplate(template.uriTemplate, uri);
      if (variables) return template.read(uri, variables, this.requestTools(params, call));
    }
    return undefined;
  }

  private async readResource(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    const uri = params.uri;
    if (typeof uri !== "string") throw new RpcError(ErrorCode.InvalidParams, "resources/read requires a string 'uri'");
    const contents = (await this.readCustomResource(uri, params, call)) ?? this.loaded().resources.read(uri);
    if (!contents) {
      // SEP-2164: -32602 in the modern era, -32002 in the legacy one; never empty contents.
      throw new RpcError(call.era.modern ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    }
    return { contents };
  }

  private complete(params: Params): Record<string, unknown> {
    const ref = isParams(params.ref) ? params.ref : undefined;
    const argument = isParams(params.argument) ? params.argument : undefined;
    if (!ref || typeof ref.type !== "string" || !argument || typeof argument.name !== "string") {
      throw new RpcError(ErrorCode.InvalidParams, "completion/complete requires 'ref' and 'argument.name'");
    }
    const prefix = typeof argument.value === "string" ? argument.value : "";
    if (ref.type === "ref/resource" && typeof ref.uri === "string") {
      const custom = (this.extension.resourceTemplates ?? []).find((t) => t.uriTemplate === ref.uri);
      if (custom) return { completion: completion(custom.complete?.(argument.name, prefix) ?? []) };
      return { completion: this.loaded().resources.complete(ref.uri, argument.name, prefix) };
    }
    if (ref.type === "ref/prompt") {
      const prompt = (this.extension.prompts ?? []).find((p) => p.name === ref.name);
      if (!prompt) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(ref.name)}`);
      return { completion: completion(prompt.complete?.(argument.name, prefix) ?? []) };
    }
    throw new RpcError(ErrorCode.InvalidParams, `Unsupported completion reference type: ${ref.type}`);
  }

  /**
   * Modern `subscriptions/listen`: acknowledges first (with the honoured filter), then holds the
   * stream open until the client cancels it or the server shuts down. The catalog of this server
   * never changes, so no list-changed notification type is honoured. With the tasks extension,
   * `taskIds` (of tasks this instance holds) get `notifications/tasks` on every status change.
   */
  private async listen(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    if (!call.ctx.notify) throw new RpcError(ErrorCode.InvalidRequest, "subscriptions/listen needs a streaming response (Accept: text/event-stream)", undefined, 400);
    if (params.notifications !== undefined && !isParams(params.notifications)) {
      throw new RpcError(ErrorCode.InvalidParams, "notifications must be an object", undefined, 400);
    }
    const subscriptionMeta = { [META_SUBSCRIPTION_ID]: call.id };
    // Resource subscriptions are honoured (no update is ever due); list changes never happen.
    const requested = isParams(params.notifications) ? params.notifications.resourceSubscriptions : undefined;
    const honoured: Record<string, unknown> = Array.isArray(requested) && requested.every((uri) => typeof uri === "string") ? { resourceSubscriptions: requested } : {};
    const taskIds = this.listenedTasks(isParams(params.notifications) ? params.notifications.taskIds : undefined, call.era, call.ctx.subject);
    if (taskIds) honoured.taskIds = taskIds;
    const notify = call.ctx.notify;
    notify({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: honoured, _meta: subscriptionMeta } });
    const unsubscribe = taskIds?.length
      ? this.tasks!.subscribe((task) => {
          if (taskIds.includes(task.taskId as string)) notify({ jsonrpc: "2.0", method: "notifications/tasks", params: { ...task, _meta: subscriptionMeta } });
        })
      : undefined;
    await new Promise<void>((resolve) => {
      const end = (): void => {
        unsubscribe?.();
        this.subscriptions.delete(end);
        call.signal.removeEventListener("abort", end);
        resolve();
      };
      this.subscriptions.add(end);
      call.signal.addEventListener("abort", end, { once: true });
    });
    return { _meta: subscriptionMeta };
  }

  /**
   * The task ids a listen request may follow: those this instance holds. Undefined when none are
   * asked for or the extension is off; -32021 when the client did not declare the extension.
   */
  private listenedTasks(requested: unknown, era: RequestEra, subject: string | undefined): string[] | undefined {
    if (requested === undefined || !this.tasks) return undefined;
    if (!Array.isArray(requested) || !requested.every((id) => typeof id === "string")) {
      throw new RpcError(ErrorCode.InvalidParams, "notifications.taskIds must be an array of strings", undefined, 400);
    }
    if (!era.modern || !declaresTasks(era.clientCapabilities)) throw missingTasksExtension();
    const tasks = this.tasks;
    return requested.filter((id) => tasks.has(id, subject));
  }

  private setLogLevel(params: Params, ctx: RequestContext): Record<string, unknown> {
    if (!isLogLevel(params.level)) throw new RpcError(ErrorCode.InvalidParams, "level must be an RFC 5424 level name (debug … emergency)");
    if (ctx.session) ctx.session.logLevel = params.level;
    else this.clientLogLevel = params.level;
    this.logger.debug(`client log level set to ${params.level}`);
    return {};
  }

  /** Sends `notifications/message` for this request when the client asked for that level. */
  private clientLog(call: HandlerContext, level: McpLogLevel, data: unknown): void {
    const threshold = call.era.modern ? call.era.logLevel : call.ctx.session ? call.ctx.session.logLevel : this.clientLogLevel;
    if (threshold === undefined || !logLevelAtLeast(level, threshold) || !call.ctx.notify || call.signal.aborted) return;
    call.ctx.notify({ jsonrpc: "2.0", method: "notifications/message", params: { level, logger: this.info.name, data } });
  }

  /** Progress of a generated tool call: 0 before the upstream call, 1 (of 1) after it. */
  private progress(params: Params, call: HandlerContext, progress: number, message: string): void {
    this.sendProgress(params, call, progress, 1, message);
  }

  /** Sends `notifications/progress` when the request carried a progress token. */
  private sendProgress(params: Params, call: HandlerContext, progress: number, total: number | undefined, message: string | undefined): void {
    const meta = isParams(params._meta) ? params._meta : undefined;
    const token = meta?.progressToken;
    if ((typeof token !== "string" && typeof token !== "number") || !call.ctx.notify || call.signal.aborted) return;
    const body: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) body.total = total;
    if (message !== undefined) body.message = message;
    call.ctx.notify({ jsonrpc: "2.0", method: "notifications/progress", params: body });
  }

  private cancel(params: Params, ctx: RequestContext): void {
    const requestId = params.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const reason = typeof params.reason === "string" ? params.reason : "cancelled by client";
    if (this.cancelLocal({ scope: ctx.scope, requestId, reason })) return;
    // A legacy session's request may run on another instance: every instance looks for it.
    if (this.cluster && ctx.session && ctx.scope !== undefined) {
      this.cluster.broadcast({ type: "cancel", scope: ctx.scope, requestId, reason }).catch((error: unknown) => {
        this.logger.warn("cancellation not sent to the other instances", { error: describe(error) });
      });
    }
  }

  /** Aborts the request `requestId` of `scope` if it runs here; false when it does not. */
  private cancelLocal(message: Record<string, unknown>): boolean {
    const { scope, requestId, reason } = message;
    if (typeof requestId !== "string" && typeof requestId !== "number") return false;
    const controller = this.inFlight.get(inFlightKey(typeof scope === "string" ? scope : undefined, requestId));
    if (!controller) return false; // already finished, or unknown: the spec says ignore
    this.logger.debug(`cancelling request ${String(requestId)}`);
    controller.abort(new Error(typeof reason === "string" ? reason : "cancelled by client"));
    return true;
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

function listedPrompt(prompt: NonNullable<Extension["prompts"]>[number]): Record<string, unknown> {
  const { get: _get, complete: _complete, ...listed } = prompt;
  return listed;
}

/** The client capability each kind of input request needs. */
const INPUT_CAPABILITY: Record<InputRequest["method"], string> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

function requireUri(params: Params): Record<string, unknown> {
  if (typeof params.uri !== "string") throw new RpcError(ErrorCode.InvalidParams, "a string 'uri' is required");
  return {};
}

function completion(values: string[]): { values: string[]; total: number; hasMore: boolean } {
  return { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 };
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return isParams(value) && Array.isArray(value.content);
}

function listedTool(tool: ToolDefinition | CustomTool<any> | ListedTool): ListedTool {
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
  return isRecord(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function isLazyTools(tools: readonly ToolDefinition[] | LazyTools): tools is LazyTools {
  return !Array.isArray(tools);
}

/** Definitions given up front, as LazyTools that are already loaded. */
function eagerTools(given: readonly ToolDefinition[]): LazyTools {
  const tools = [...given];
  return { names: tools.map((tool) => tool.name), load: () => tools };
}

/** The first name that occurs twice. */
/** The definition `get` found for operation `name`; a name without one is a local fault (stale data files). */
function definedOperation(name: string, tool: ToolDefinition | undefined): ToolDefinition {
  if (tool === undefined) throw new Error(`the tool definitions do not match the catalog (${name})`);
  return tool;
}

function duplicateName(names: readonly string[]): string {
  const seen = new Set<string>();
  return names.find((name) => seen.has(name) || !seen.add(name)) ?? "";
}
