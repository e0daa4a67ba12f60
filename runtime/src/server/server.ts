/**
 * `McpServer`, the public face of the runtime: it composes the pieces that serve MCP (one server
 * per process or per HTTP endpoint, transport-independent) and holds the legacy lifecycle
 * (`initialize`, `ping`, `logging/setLevel`) and `server/discover`. The pieces:
 * - dispatcher.ts: envelopes, batches, eras, in-flight requests and cancellation, errors, modern
 *   result decoration;
 * - tool-catalog.ts and tool-call.ts: the tools offered and listed, `tools/call`, the one
 *   operation call path, custom tools, OAuth scopes;
 * - request-tools.ts: progress, client logging, MRTR and legacy client requests;
 * - subscriptions.ts: `subscriptions/listen` and task notifications; tasks.ts: `tasks/*`;
 * - resource-methods.ts, prompts.ts, completion.ts: resources, prompts and completion;
 * - list-pages.ts: list pages and their cursors.
 */
import { complete } from "./completion.js";
import { UpstreamQueue } from "../upstream/queue.js";
import { Dispatcher, DEFAULT_MAX_BATCH } from "./dispatcher.js";
import { isLogLevel } from "../protocol/era.js";
import { ErrorCode, RpcError, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import { ListPager } from "./list-pages.js";
import { silentLogger, type Logger } from "../protocol/logger.js";
import type { CallToolResult, ListedTool, InputRequiredResult } from "../api/mcp-types.js";
import type { CustomTool, Extension } from "../api/extensions.js";
import { isRecord } from "../protocol/own.js";
import type { MakeCredentials } from "../upstream/auth.js";
import type { MakePaging } from "../upstream/paging.js";
import { PromptMethods } from "./prompts.js";
import { ALL_PROTOCOL_VERSIONS, negotiateProtocolVersion } from "../protocol/versions.js";
import type { HandlerContext, NotificationHandler, Params, RequestContext, RequestHandler } from "./request-context.js";
import { ClientChannel } from "./request-tools.js";
import { ResourceMethods } from "./resource-methods.js";
import { Subscriptions } from "./subscriptions.js";
import type { MetaTools, OperationLookup, ServedSurface, SurfaceMakers, SurfaceName } from "./surfaces.js";
import { modernClientInfo, clientInfoOf, type ClientInfo } from "../protocol/client-info.js";
import type { ClientView, ClientViews, MakeClientViews } from "./views.js";
import { TASKS_EXTENSION, declaresTasks, missingTasksExtension, type MakeTasks, type Tasks } from "./tasks.js";
import type { Cluster, MakeCluster } from "../state/cluster.js";
import { MemoryStateStore, type StateStore } from "../state/state.js";
import type { MakeUserSignIn } from "./user-sign-in.js";
import { ToolCaller, type CallGate, type OperationCallContext } from "./tool-call.js";
import { listedTool, ToolCatalog, type LazyTools } from "./tool-catalog.js";
import type { ServerInfo, ToolDefinition } from "../api/types.js";
import { DEFAULT_UPSTREAM_CONCURRENCY, type UpstreamOptions } from "../upstream/upstream.js";
import { SchemaValidator } from "../api/validation.js";
import { answererOf, type Settlement } from "./client-requests.js";

export type { RequestContext } from "./request-context.js";
export type { LazyTools } from "./tool-catalog.js";
export type { OperationCallContext } from "./tool-call.js";

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
  /** Items per list page (default: 100, or what keeps a list within MAX_LIST_PAGES pages, list-pages.ts). */
  pageSize?: number;
  /** Largest JSON-RPC batch answered (default {@link DEFAULT_MAX_BATCH}); longer batches get one -32600 error. */
  maxBatch?: number;
  /** Where upstream credentials are read from (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Upstream credentials (feature `auth`): without them no credential is sent. */
  credentials?: MakeCredentials;
  /** Per-user upstream credentials (feature `user-oauth`): each user signs in. */
  userSignIn?: MakeUserSignIn;
  /** Upstream pagination (feature `pagination`): without it no tool pages. */
  paging?: MakePaging;
  /** HMAC key for `requestState` (share it across instances); default: random per process. */
  stateSecret?: string;
  /** A check before each operation call goes upstream (feature `confirm`: `--confirm-destructive`). */
  gate?: CallGate;
  /**
   * The tasks extension (feature `tasks`, modern era): generated tools still running after its
   * deadline become tasks for clients that declared `io.modelcontextprotocol/tasks`; custom tools
   * opt in with `taskSupport`. Absent: no tasks. See tasks.ts.
   */
  tasks?: MakeTasks;
  /**
   * Shared state (state.ts): with a shared store (Redis) and its cluster (feature `redis`), tasks
   * are readable, answerable and cancellable through every instance, and a legacy session's
   * `notifications/cancelled` and answers to server→client requests reach the instance concerned.
   * Default: this process only.
   */
  state?: StateStore;
  /** Joins the other instances of a shared store (feature `redis`). */
  cluster?: MakeCluster;
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
  /** Meta tools of the surfaces besides `all` (features `search`, `code`); a surface without them is not served. */
  surfaces?: SurfaceMakers;
  /** Views for clients that differ from the server's configuration (feature `clients`, views.ts). */
  clientViews?: MakeClientViews;
  /** The surface asked for before `auto` was resolved to `surface` (default: `surface`); `auto` adapts per profile. */
  requestedSurface?: SurfaceName;
}

/** An MCP server over a fixed set of HTTP-backed tools. Transport-independent. */
export class McpServer {
  readonly info: ServerInfo;
  private readonly extension: Extension;
  private readonly logger: Logger;
  private readonly tools: ToolCatalog;
  private readonly caller: ToolCaller;
  private readonly channel: ClientChannel;
  private readonly resources: ResourceMethods;
  private readonly prompts: PromptMethods;
  private readonly subscriptions: Subscriptions;
  private readonly pager: ListPager;
  private readonly dispatcher: Dispatcher;
  /** Modern tasks; undefined when the extension is off. */
  private readonly tasks: Tasks | undefined;
  /** The other instances, when the state store is shared. */
  private readonly cluster: Cluster | undefined;
  /** Resolves once this instance listens to the others (at once without a shared store). */
  readonly ready: Promise<void>;
  private negotiatedVersion: string | undefined;
  /** The surface resolved at start, and how meta tools of a surface are made (for client views). */
  private readonly surface: ServedSurface;
  private readonly makeMeta: (surface: ServedSurface, operations: OperationLookup) => MetaTools | undefined;
  /** Views for the clients that match a profile; undefined without profiles. */
  private readonly views: ClientViews | undefined;
  /** The legacy client's identity from `initialize` on this instance. */
  private legacyClient: ClientInfo | undefined;

  constructor(options: McpServerOptions) {
    this.info = options.info;
    this.extension = options.extension ?? {};
    this.channel = new ClientChannel(options.info.name, options.stateSecret);
    const surface = options.surface ?? "all";
    this.surface = surface;
    this.makeMeta = (served, operations) => {
      if (served === "all") return undefined;
      const make = options.surfaces?.[served];
      if (!make) throw new Error(`surface ${served} is not part of this server (see its features)`);
      return make({
        title: options.info.title ?? options.info.name,
        operations,
        readData: options.readData,
        readDeclaration: options.declarationOf,
      });
    };
    this.tools = new ToolCatalog(
      options.tools,
      this.extension.tools ?? [],
      options.info.securitySchemes ?? [],
      surface === "all" ? undefined : (operations) => this.makeMeta(surface, operations)!,
    );
    this.logger = options.logger ?? silentLogger;
    this.views = options.clientViews?.({
      requested: options.requestedSurface ?? surface,
      served: surface,
      packageName: options.info.name,
      operationCount: this.tools.operationNames.size,
      listedOperations: () => this.tools.loaded().tools.map(listedTool),
      namesOn: (served) => this.tools.namesOn(this.metaOn(served)),
      serves: (served) => served === "all" || options.surfaces?.[served] !== undefined,
      logger: this.logger,
    });
    this.pager = new ListPager(options.pageSize);
    this.cluster = options.state?.shared ? options.cluster?.(options.state, this.logger) : undefined;
    this.tasks = options.tasks?.({ cluster: this.cluster, logger: this.logger });
    this.caller = new ToolCaller({
      catalog: this.tools,
      channel: this.channel,
      validator: new SchemaValidator(this.logger),
      logger: this.logger,
      hooks: this.extension.hooks,
      gate: options.gate,
      tasks: this.tasks,
      upstream: options.upstream,
      userAgent: `${options.info.name}/${options.info.version} (mcp-gen)`,
      credentials: options.credentials?.(
        options.info.securitySchemes ?? [],
        options.env ?? process.env,
        options.upstream.timeoutMs,
      ),
      paging: options.paging?.(options.env ?? process.env),
      userSignIn: options.userSignIn?.({ state: options.state ?? new MemoryStateStore(), logger: this.logger }),
      upstreamQueue: new UpstreamQueue(Math.max(1, options.upstream.concurrency ?? DEFAULT_UPSTREAM_CONCURRENCY)),
    });
    this.channel.useApi((call) => this.caller.api(call));
    this.resources = new ResourceMethods(
      this.extension,
      { catalog: this.tools, apiDocument: options.apiDocument, declarations: options.declarations },
      this.channel,
    );
    this.prompts = new PromptMethods(this.extension.prompts ?? [], this.channel);
    this.subscriptions = new Subscriptions(this.tasks);

    /** Methods served in both eras. */
    const common: Record<string, RequestHandler> = {
      "tools/list": async (params, call) => {
        const view = this.viewOf(params, call);
        return view
          ? this.tools.listServed(params, call.ctx.scopes, this.pager, this.metaOn(view.surface), (tool) =>
              view.listed(tool),
            )
          : this.tools.list(params, call.ctx.scopes, this.pager);
      },
      "tools/call": async (params, call) => {
        const view = this.viewOf(params, call);
        return view ? this.caller.callTool(...this.servedCall(view, params, call)) : this.caller.callTool(params, call);
      },
      "resources/list": async (params) => this.resources.list(params, this.pager),
      "resources/templates/list": async (params) => this.resources.templates(params, this.pager),
      "resources/read": async (params, call) => this.resources.read(params, call),
      "prompts/list": async (params) => this.prompts.list(params, this.pager),
      "prompts/get": async (params, call) => this.prompts.get(params, call),
      "completion/complete": async (params) =>
        complete(params, {
          resourceTemplates: this.extension.resourceTemplates ?? [],
          generated: () => this.resources.generated(),
          prompts: this.prompts,
        }),
    };
    /** Legacy era (≤ 2025-11-25): lifecycle and session-scoped utilities. */
    const legacy: Record<string, RequestHandler> = {
      ...common,
      initialize: async (params) => this.initialize(params),
      ping: async () => ({}),
      "logging/setLevel": async (params, call) => this.setLogLevel(params, call.ctx),
      // Subscriptions are accepted; this catalog never changes, so no update is ever due.
      "resources/subscribe": async (params) => requireUri(params),
      "resources/unsubscribe": async (params) => requireUri(params),
    };
    /** Modern era (2026-07-28): stateless, no `initialize`/`ping`/`logging/setLevel`. */
    const modern: Record<string, RequestHandler> = {
      ...common,
      "server/discover": async () => this.discover(),
      "subscriptions/listen": async (params, call) => this.subscriptions.listen(params, call),
      "tasks/get": async (params, call) => this.taskStore(call).get(params.taskId, call.ctx.subject),
      "tasks/update": async (params, call) =>
        this.taskStore(call).update(params.taskId, params.inputResponses, call.ctx.subject),
      "tasks/cancel": async (params, call) => this.taskStore(call).cancel(params.taskId, call.ctx.subject),
    };
    const notifications: Record<string, NotificationHandler> = { "notifications/initialized": () => {} };
    this.dispatcher = new Dispatcher({
      legacy,
      modern,
      notifications,
      onResponse: (response, ctx) => {
        const answerer = answererOf(ctx);
        const settled = this.settleClientResponse(response, answerer);
        // A session's answer may reach another instance than the one that asked: that one checks the answerer too.
        if (settled === "unknown" && this.cluster && ctx.session)
          this.broadcast({ type: "client-response", answerer, message: response });
      },
      // A legacy session's request may run on another instance: every instance looks for it.
      onCancelElsewhere: (cancellation, ctx) => {
        if (this.cluster && ctx.session) this.broadcast({ type: "cancel", ...cancellation });
      },
      negotiatedVersion: () => this.negotiatedVersion,
      implementation: () => this.implementation(),
      maxBatch: Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH),
      logger: this.logger,
    });
    const tasks = this.tasks;
    this.ready = this.cluster
      ? this.cluster.start(
          async (command) => {
            if (!tasks?.command) throw new RpcError(ErrorCode.MethodNotFound, "tasks are off on this instance");
            return tasks.command(command);
          },
          (message) => this.onBroadcast(message),
        )
      : Promise.resolve();
  }

  /** Leaves the other instances (stops the heartbeat); the state store itself is the embedder's to close. */
  async leaveCluster(): Promise<void> {
    await this.cluster?.stop();
  }

  /** Tasks of this instance still working (the HTTP drain gives them its grace period to finish). */
  get workingTasks(): number {
    return this.tasks?.working ?? 0;
  }

  private broadcast(message: Record<string, unknown>): void {
    this.cluster!.broadcast(message).catch((error: unknown) => {
      this.logger.warn(`${String(message.type)} not sent to the other instances`, {
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }

  /** Settles a server→client request with a client's response; an answer from another client than the asked one is refused and logged. */
  private settleClientResponse(response: JsonRpcResponse, answerer: string): Settlement {
    const settled = this.channel.settle(response, answerer);
    if (settled === "refused")
      this.logger.warn("refused a client's answer to a request the server sent to another session or caller", {
        id: String(response.id).slice(0, 64),
      });
    return settled;
  }

  /** Another instance's broadcast: a cancellation or a client's response for a request that may be ours. */
  private onBroadcast(message: Record<string, unknown>): void {
    if (message.type === "client-response" && isRecord(message.message) && typeof message.answerer === "string")
      this.settleClientResponse(message.message as unknown as JsonRpcResponse, message.answerer);
    else if (
      message.type === "cancel" &&
      (typeof message.requestId === "string" || typeof message.requestId === "number")
    ) {
      this.dispatcher.cancelLocal(
        typeof message.scope === "string" ? message.scope : undefined,
        message.requestId,
        String(message.reason ?? "cancelled by client"),
      );
    }
  }

  /** The revision negotiated by the last `initialize` on this instance, if any. */
  get protocolVersion(): string | undefined {
    return this.negotiatedVersion;
  }

  /** The tool called `name`, if any (the HTTP transport checks `Mcp-Param-*` headers against it). */
  findTool(name: string): ToolDefinition | CustomTool<any> | undefined {
    return this.tools.find(name);
  }

  /** The meta tools of `surface` (undefined on `all`), made on first need. */
  private metaOn(surface: ServedSurface): MetaTools | undefined {
    return this.tools.metaOn(surface, this.surface, this.makeMeta);
  }

  /** The view of the client that sent `params` (modern `_meta`, else the legacy `initialize`); undefined: the server's own. */
  private viewOf(params: Params, call: HandlerContext): ClientView | undefined {
    const legacy = call.ctx.client === undefined ? this.legacyClient : (call.ctx.client ?? undefined);
    return this.views?.viewFor(call.era.modern ? modernClientInfo(params) : legacy);
  }

  /** A `tools/call` of a client view in the server's terms: the original name, decoded arguments, the view's surface. */
  private servedCall(view: ClientView, params: Params, call: HandlerContext): [Params, HandlerContext] {
    const meta = this.metaOn(view.surface);
    const served = typeof params.name === "string" ? params.name : "";
    const name = view.originalName(served) ?? served;
    const tool = meta?.find(name) ?? this.tools.findOn(name, meta);
    const decoded =
      tool && params.arguments !== undefined ? { arguments: view.decode(listedTool(tool), params.arguments) } : {};
    return [
      { ...params, ...(typeof params.name === "string" ? { name } : {}), ...decoded },
      { ...call, view: { meta } },
    ];
  }

  /**
   * The tool a served name stands for, as that client was shown it (the HTTP transport checks the
   * `Mcp-Param-*` headers of a modern request against the schema its client saw).
   */
  servedTool(name: string, params: Params): ListedTool | undefined {
    const view = this.views?.viewFor(modernClientInfo(params));
    if (!view) return this.findTool(name);
    const meta = this.metaOn(view.surface);
    const original = view.originalName(name) ?? name;
    const tool = meta?.find(original) ?? this.tools.findOn(original, meta);
    return tool ? view.listed(listedTool(tool)) : undefined;
  }

  /** Ends every open `subscriptions/listen` gracefully (each gets its closing result). */
  closeSubscriptions(): void {
    this.subscriptions.closeAll();
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
  async handleBatch(
    messages: unknown[],
    ctx: RequestContext = {},
  ): Promise<JsonRpcResponse[] | JsonRpcResponse | undefined> {
    return this.dispatcher.handleBatch(messages, ctx);
  }

  /** Handles one message. Resolves to the response, or undefined for notifications, responses and cancelled requests. */
  async handle(message: unknown, ctx: RequestContext = {}): Promise<JsonRpcResponse | undefined> {
    return this.dispatcher.handle(message, ctx);
  }

  /**
   * OAuth scopes a `tools/call` with these params needs: those of the tool, or for
   * `call_operation` those of the operation it calls (the HTTP transport answers 403 without them).
   */
  callScopes(params: { name?: unknown; arguments?: unknown }): string[] {
    return this.tools.callScopes(params);
  }

  /**
   * OAuth scopes a caller's MCP token needs for a tool: those of the first security alternative
   * of its operation that uses an OAuth 2 / OpenID Connect scheme (empty when there is none).
   */
  requiredScopes(toolName: string): string[] {
    return this.tools.requiredScopes(toolName);
  }

  /**
   * Runs operation `name` with `args`: the one code path of every operation call, whether from its
   * own tool (surface `all`), `call_operation` or code mode (see tool-call.ts).
   * `context` is the request's (from the server; the params' progress token and MRTR fields apply).
   */
  async callOperation(
    name: string,
    args: unknown,
    context: OperationCallContext,
  ): Promise<CallToolResult | InputRequiredResult> {
    return this.caller.callOperation(name, args, context);
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
    this.channel.legacyCapabilities = isRecord(params.capabilities) ? params.capabilities : {};
    this.legacyClient = clientInfoOf(params.clientInfo);
    const result: Record<string, unknown> = {
      protocolVersion,
      capabilities: this.capabilities(),
      serverInfo: this.implementation(),
    };
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

  private setLogLevel(params: Params, ctx: RequestContext): Record<string, unknown> {
    if (!isLogLevel(params.level))
      throw new RpcError(ErrorCode.InvalidParams, "level must be an RFC 5424 level name (debug … emergency)");
    if (ctx.session) ctx.session.logLevel = params.level;
    else this.channel.legacyLogLevel = params.level;
    this.logger.debug(`client log level set to ${params.level}`);
    return {};
  }

  /** The tasks for a `tasks/*` request: -32601 when the extension is off, -32021 when the client did not declare it. */
  private taskStore(call: HandlerContext): Tasks {
    if (!this.tasks) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${call.method}`, undefined, 404);
    if (!call.era.modern || !declaresTasks(call.era.clientCapabilities)) throw missingTasksExtension();
    return this.tasks;
  }
}

function requireUri(params: Params): Record<string, unknown> {
  if (typeof params.uri !== "string") throw new RpcError(ErrorCode.InvalidParams, "a string 'uri' is required");
  return {};
}
