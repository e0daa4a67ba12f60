/**
 * `McpServer`, the public face of the runtime (transport-independent): it composes the pieces of
 * this folder and holds the legacy lifecycle, `server/discover` and the method tables of both eras.
 */
import { UpstreamQueue } from "../upstream/queue.js";
import { Dispatcher, DEFAULT_MAX_BATCH, type DispatcherOptions } from "./dispatcher.js";
import { isLogLevel } from "../protocol/era.js";
import { ErrorCode, RpcError, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import { ListPager } from "./list-pages.js";
import { silentLogger, type Logger } from "../protocol/logger.js";
import type { CustomTool, Extension } from "../api/extensions.js";
import { isRecord } from "../protocol/own.js";
import type { MakeCredentials } from "../upstream/auth-slot.js";
import type { MakePaging } from "../upstream/paging-slot.js";
import { ALL_PROTOCOL_VERSIONS, negotiateProtocolVersion } from "../protocol/versions.js";
import type { HandlerContext, Params, RequestContext, RequestHandler } from "./request-context.js";
import { ClientChannel, type ClientRequests, type MakeClientRequests, type MakeRequestTools } from "./request-tools.js";
import { ResourceMethods } from "./resources.js";
import type { ChooseAuto, ServedSurface, SurfaceMakers, SurfaceName } from "./surfaces.js";
import type { ListedTool } from "../api/mcp-types.js";
import { clientInfoOf, type ClientInfo } from "../protocol/client-info.js";
import { Subscriptions, TASKS_EXTENSION, type MakeTasks, type Tasks } from "./tasks-slot.js";
import type { Cluster, MakeCluster } from "../state/cluster-slot.js";
import type { StateStore } from "../state/state.js";
import { DEFAULT_RESULT_BUDGET_TOKENS } from "../upstream/result-tokens.js";
import { RESULT_LINK_TTL_MS, RESULT_URI_PREFIX, ResultLinks, resultOwner } from "./result-links.js";
import { ToolCaller } from "./tool-call.js";
import type { LinkBinaries } from "./result-step.js";
import type { CallGate, MakeUserSignIn } from "./call-slots.js";
import { ToolCatalog, type LazyTools, type ToolScopes } from "./tool-catalog.js";
import type { ServerInfo, ToolDefinition } from "../api/types.js";
import {
  DEFAULT_UPSTREAM_CONCURRENCY,
  DEFAULT_UPSTREAM_HOST_CONCURRENCY,
  type UpstreamOptions,
} from "../upstream/upstream.js";
import { SchemaValidator, type CompileSchema } from "../api/validation.js";
import type { MakeAdmission, RequestObserver } from "./observe.js";
import type { ChosenTools, ConnectionChoices, MakeConnectionChoices, ToolChoice } from "./choice-slot.js";
import type { MakeToolViews, ToolViews } from "./views-slot.js";
import type { CustomCode, CustomContent } from "./custom-slot.js";

export type { RequestContext } from "./request-context.js";

/** What the clients feature adapts: the server's `tools/*` methods, its catalog and its legacy client. */
export interface ClientViewsContext {
  /** The surface asked for (`auto` adapts to each view) and what it resolved to for the server. */
  requested: SurfaceName;
  served: ServedSurface;
  packageName: string;
  catalog: ToolCatalog;
  pager: ListPager;
  /** The core's `tools/call`; a request's `view` says which surface's meta tools it calls. */
  callTool: RequestHandler;
  serves: (surface: ServedSurface) => boolean;
  /** Resolves `auto` for a client's cap on tools (feature `search`); without it `auto` is `all`. */
  autoSurface: ChooseAuto | undefined;
  /** The client of this instance's legacy `initialize`. */
  legacyClient: () => ClientInfo | undefined;
  /** Links tools to their views for a client that renders them (feature `apps`); undefined otherwise. */
  viewLinks: (call: HandlerContext) => ((tool: ListedTool) => ListedTool) | undefined;
  logger: Logger;
}

/** `tools/list` and `tools/call` as each client is served them, and the tool a served name stands for. */
export interface ClientToolMethods {
  list: RequestHandler;
  call: RequestHandler;
  servedTool(name: string, params: Params): ListedTool | undefined;
}

/** Makes the tools methods of a server's client views; the clients feature provides it. */
export type MakeClientViews = (context: ClientViewsContext) => ClientToolMethods;

/** Options for {@link McpServer}. */
export interface McpServerOptions {
  info: ServerInfo;
  /** The operation tools, or their names and a loader called when a definition is first needed. */
  tools: readonly ToolDefinition[] | LazyTools;
  upstream: UpstreamOptions;
  /** Compiles JSON Schemas where ajv cannot (feature `fetch` on Workers); default ajv. */
  compileSchema?: CompileSchema;
  /** The upstream API's OpenAPI document as JSON text (or its reader), served as a resource when given. */
  apiDocument?: string | (() => string);
  /** JSON text of tool name → TypeScript declaration (or its reader), served as `openapi://declarations`. */
  declarations?: string | (() => string);
  /** The user's additions (tools, resources, templates, prompts, hooks); see extensions.ts. */
  extension?: Extension;
  /** Runs the user's code: hooks, the `api` client, resource templates (feature `custom`). */
  customCode?: CustomCode;
  /** The tools each HTTP connection may choose with its URL or headers (feature `toolsets`). */
  connectionChoices?: MakeConnectionChoices;
  /** stderr logger; defaults to silent. */
  logger?: Logger;
  /** Items per list page (default: 100, or what keeps a list within MAX_LIST_PAGES pages, list-pages.ts). */
  pageSize?: number;
  /** Tokens a tool result's text may take (result-tokens.ts; default {@link DEFAULT_RESULT_BUDGET_TOKENS}). */
  resultBudget?: number;
  /** Largest JSON-RPC batch answered (default {@link DEFAULT_MAX_BATCH}); longer batches get one -32600 error. */
  maxBatch?: number;
  /** Where upstream credentials are read from (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** HMAC key for `requestState` (share it across instances); default: random per process. */
  stateSecret?: string;
  /** Shared state (state.ts); with a shared store and its cluster (feature `redis`) instances work as one. */
  state?: StateStore;
  /** What is listed for the operations (surfaces.ts): `all` (default), or the meta tools of `surfaces`. */
  surface?: ServedSurface;
  /** The surface asked for before `auto` was resolved to `surface` (default: `surface`); `auto` adapts per profile. */
  requestedSurface?: SurfaceName;
  /** Reads a data file of the generated project (`search-index.json`, `declarations.json`); undefined when absent. */
  readData?: (file: string) => string | undefined;
  /** Reads a byte range of a data file and gives an operation's place in it (one declaration, read alone). */
  readDataRange?: (file: string, offset: number, length: number) => string;
  operationIndex?: (name: string) => number;
  /** Feature slots (runtime/src/cli/features.ts); each absent one is off: auth, user-oauth, pagination, … */
  credentials?: MakeCredentials;
  userSignIn?: MakeUserSignIn;
  paging?: MakePaging;
  gate?: CallGate;
  clientRequests?: MakeClientRequests;
  /** The helpers handlers that ask the user get (feature `input-requests`). */
  requestTools?: MakeRequestTools;
  tasks?: MakeTasks;
  cluster?: MakeCluster;
  surfaces?: SurfaceMakers;
  autoSurface?: ChooseAuto;
  clientViews?: MakeClientViews;
  toolScopes?: ToolScopes;
  /** Watches every request and its upstream requests (feature `otel`). */
  observer?: RequestObserver;
  /** Decides whether each request runs now (feature `rate-limit`). */
  admission?: MakeAdmission;
  /** Views of the operations' results for clients that render them (feature `apps`). */
  toolViews?: MakeToolViews;
  /** Links binary content over the inline size (feature `binary-links`). */
  linkBinaries?: LinkBinaries;
}

/** An MCP server over a fixed set of HTTP-backed tools. Transport-independent. */
export class McpServer {
  readonly info: ServerInfo;
  private readonly logger: Logger;
  private readonly tools: ToolCatalog;
  private readonly caller: ToolCaller;
  private readonly channel: ClientChannel;
  private readonly subscriptions: Subscriptions;
  private readonly pager: ListPager;
  private readonly dispatcher: Dispatcher;
  private readonly tasks: Tasks | undefined;
  private readonly cluster: Cluster | undefined;
  /** `tools/*` as the clients that match a profile are served them (feature `clients`). */
  private readonly views: ClientToolMethods | undefined;
  /** The tool surfaces HTTP connections chose, checked against this server's. */
  private readonly choices: ConnectionChoices | undefined;
  /** The complete bodies of results the budget shortened. */
  private readonly resultLinks: ResultLinks;
  /** The operations' views (feature `apps`). */
  private readonly toolViews: ToolViews | undefined;
  /** Resolves once this instance listens to the others (at once without a shared store). */
  readonly ready: Promise<void>;
  private negotiatedVersion: string | undefined;
  /** The legacy client's identity from `initialize` on this instance. */
  private legacyClient: ClientInfo | undefined;

  constructor(options: McpServerOptions) {
    const { info } = options;
    const extension = options.extension ?? {};
    if (!options.customCode && Object.values(extension).some((part) => Object.keys(part ?? {}).length > 0))
      throw new Error(
        "custom code (src/custom/) needs the custom feature: regenerate the server with mcp-gen --with custom",
      );
    this.info = info;
    this.logger = options.logger ?? silentLogger;
    this.channel = new ClientChannel(info.name, options.stateSecret, options.requestTools);
    const surface = options.surface ?? "all";
    const given = options.tools;
    this.tools = new ToolCatalog(
      Array.isArray(given) ? { names: given.map((tool) => tool.name), load: () => given } : (given as LazyTools),
      extension.tools ?? [],
      options.toolScopes,
      surface,
      (served, operations) => {
        if (served === "all") return undefined;
        const make = options.surfaces?.[served];
        if (!make) throw new Error(`surface ${served} is not part of this server (see its features)`);
        const title = info.title ?? info.name;
        const { readData, readDataRange, operationIndex: indexOf } = options;
        return make({ title, operations, readData, readDataRange, indexOf });
      },
    );
    this.pager = new ListPager(options.pageSize);
    // A connection may pick another surface only where the process lists every operation (`all`).
    const surfaces = surface === "all" ? ["all", ...Object.keys(options.surfaces ?? {})] : [surface];
    this.choices = options.connectionChoices?.(() => this.tools.loaded().tools, surfaces as ServedSurface[]);
    this.cluster = options.state?.shared ? options.cluster?.(options.state, this.logger) : undefined;
    const tasks = (this.tasks = options.tasks?.({ cluster: this.cluster, logger: this.logger }));
    const requests = options.clientRequests?.({ cluster: this.cluster, logger: this.logger });
    this.channel.requests = requests;
    this.resultLinks = new ResultLinks(options.state);
    this.caller = this.makeCaller(options, tasks);
    this.channel.apiFor = (call) => this.caller.api(call);
    const callTool: RequestHandler = (params, call) => this.caller.callTool(params, call);
    this.views = options.clientViews?.({
      requested: options.requestedSurface ?? surface,
      served: surface,
      packageName: info.name,
      catalog: this.tools,
      pager: this.pager,
      callTool,
      serves: (served) => served === "all" || options.surfaces?.[served] !== undefined,
      autoSurface: options.autoSurface,
      legacyClient: () => this.legacyClient,
      viewLinks: (call) => this.viewLinks(call),
      logger: this.logger,
    });
    const custom = options.customCode?.content(extension);
    this.toolViews = options.toolViews?.(() => this.tools.loaded().tools, this.tools.meta);
    const resources = new ResourceMethods(
      custom,
      {
        operations: () => this.tools.loaded().tools,
        apiDocument: options.apiDocument,
        declarations: options.declarations,
      },
      this.channel,
      this.toolViews,
    );
    this.subscriptions = new Subscriptions(tasks);

    this.dispatcher = new Dispatcher(this.dispatcherOptions(options, { resources, custom, callTool, requests }));
    this.ready =
      this.cluster?.join({
        command: tasks?.command?.bind(tasks),
        onBroadcast: (message) => requests?.onBroadcast(message),
        cancelLocal: (scope, requestId, reason) => void this.dispatcher.cancelLocal(scope, requestId, reason),
      }) ?? Promise.resolve();
  }

  /** The caller of tools and operations, over the feature slots of `options`. */
  private makeCaller(options: McpServerOptions, tasks: Tasks | undefined): ToolCaller {
    const { info, upstream } = options;
    const env = options.env ?? process.env;
    const validator = new SchemaValidator(this.logger, options.compileSchema);
    return new ToolCaller({
      catalog: this.tools,
      channel: this.channel,
      validator,
      logger: this.logger,
      hooks: options.extension?.hooks && options.customCode?.hooks(options.extension.hooks),
      customCode: options.customCode,
      gate: options.gate,
      state: options.state,
      tasks,
      upstream,
      userAgent: `${info.name}/${info.version} (mcp-gen)`,
      credentials: options.credentials?.(info.securitySchemes ?? [], env, upstream),
      paging: options.paging?.(env),
      userSignIn: options.userSignIn?.({ state: options.state, logger: this.logger }),
      results: {
        budgetTokens: options.resultBudget ?? DEFAULT_RESULT_BUDGET_TOKENS,
        links: this.resultLinks,
        validator,
        viewFields: (tool, call) => this.toolViews?.shownFields(tool.name, this.channel.capabilitiesOf(call)),
        linkBinaries: options.linkBinaries,
      },
      upstreamQueue: new UpstreamQueue(Math.max(1, upstream.concurrency ?? DEFAULT_UPSTREAM_CONCURRENCY), {
        perKey: Math.max(1, upstream.hostConcurrency ?? DEFAULT_UPSTREAM_HOST_CONCURRENCY),
        rate: upstream.ratePerSecond,
      }),
    });
  }

  /** The methods of both eras and the dispatcher's hooks into this server. */
  private dispatcherOptions(
    options: McpServerOptions,
    parts: {
      resources: ResourceMethods;
      custom: CustomContent | undefined;
      callTool: RequestHandler;
      requests: ClientRequests | undefined;
    },
  ): DispatcherOptions {
    const { resources, custom, callTool, requests } = parts;
    const tasks = this.tasks;
    /** Methods served in both eras. */
    const listTools: RequestHandler = async (params, call) =>
      this.tools.list(params, call.ctx, this.pager, this.tools.metaFor(call.ctx), this.viewLinks(call));
    // A connection that chose its surface is served it as chosen, not through a client profile's view.
    const views = this.views;
    const common: Record<string, RequestHandler> = {
      "tools/list": views
        ? (params, call) => (call.ctx.choice?.surface ? listTools : views.list)(params, call)
        : listTools,
      "tools/call": views
        ? (params, call) => (call.ctx.choice?.surface ? callTool : views.call)(params, call)
        : callTool,
      "resources/list": async (params, call) => resources.list(params, this.pager, call),
      "resources/templates/list": async (params) => resources.templates(params, this.pager),
      "resources/read": async (params, call) =>
        (await this.readResultLink(params, call)) ?? resources.read(params, call),
      "prompts/list": async (params) => this.pager.page("prompts", custom?.prompts ?? [], params),
      "prompts/get": async (params, call) => {
        if (!custom) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(params.name)}`);
        return custom.getPrompt(params, this.channel.requestTools(params, call));
      },
      "completion/complete": async (params) => resources.complete(params),
    };
    // Resource subscriptions are accepted; this catalog never changes, so no update is ever due.
    const subscribe: RequestHandler = async (params) => {
      if (typeof params.uri !== "string") throw new RpcError(ErrorCode.InvalidParams, "a string 'uri' is required");
      return {};
    };
    return {
      // Legacy era (≤ 2025-11-25): lifecycle and session-scoped utilities.
      legacy: {
        ...common,
        initialize: async (params) => this.initialize(params),
        ping: async () => ({}),
        "logging/setLevel": async (params, call) => this.setLogLevel(params, call.ctx),
        "resources/subscribe": subscribe,
        "resources/unsubscribe": subscribe,
      },
      // Modern era (2026-07-28): stateless, no `initialize`/`ping`/`logging/setLevel`.
      modern: {
        ...common,
        "server/discover": async () =>
          this.withInstructions({
            supportedVersions: [...ALL_PROTOCOL_VERSIONS],
            capabilities: this.capabilities(true),
          }),
        "subscriptions/listen": async (params, call) => this.subscriptions.listen(params, call),
        // `tasks/*` (feature `tasks`): without it, -32601 like any unknown method.
        ...tasks?.methods,
      },
      observer: options.observer,
      admission: options.admission?.({ state: options.state, logger: this.logger }),
      onResponse: (response, ctx) => requests?.receive(response, ctx),
      // A legacy session's request may run on another instance: every instance looks for it.
      onCancelElsewhere: (cancellation, ctx) => {
        if (ctx.session) this.cluster?.cancelElsewhere(cancellation);
      },
      negotiatedVersion: () => this.negotiatedVersion,
      implementation: () => this.implementation(),
      maxBatch: Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH),
      logger: this.logger,
    };
  }

  /** Links each listed tool to its view, for a client that renders views (feature `apps`); else nothing. */
  private viewLinks(call: HandlerContext): ((tool: ListedTool) => ListedTool) | undefined {
    const views = this.toolViews;
    return views?.renderedBy(this.channel.capabilitiesOf(call)) ? (tool) => views.linked(tool) : undefined;
  }

  /**
   * `resources/read` of a result link (result-links.ts): its contents for the caller that made the
   * call; another caller, an expired or unknown link is not found; undefined for any other URI.
   */
  private async readResultLink(params: Params, call: HandlerContext): Promise<Record<string, unknown> | undefined> {
    const uri = params.uri;
    if (typeof uri !== "string" || !uri.startsWith(RESULT_URI_PREFIX)) return undefined;
    const contents = await this.resultLinks.read(resultOwner(call.ctx), uri);
    if (contents) return { contents: [contents] };
    throw new RpcError(
      call.era.modern ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound,
      `Resource not found: ${uri} (result links are read by the caller that made the call, for ${RESULT_LINK_TTL_MS / 60_000} minutes)`,
      { uri },
    );
  }

  /** Leaves the other instances (stops the heartbeat); the state store itself is the embedder's to close. */
  async leaveCluster(): Promise<void> {
    await this.cluster?.stop();
  }

  /** Tasks of this instance still working (the HTTP drain gives them its grace period to finish). */
  get workingTasks(): number {
    return this.tasks?.working ?? 0;
  }

  /** The revision negotiated by the last `initialize` on this instance, if any. */
  get protocolVersion(): string | undefined {
    return this.negotiatedVersion;
  }

  /** The tool called `name`, if any (the HTTP transport checks `Mcp-Param-*` headers against it). */
  findTool(name: string): ToolDefinition | CustomTool<any> | undefined {
    return this.tools.findOn(name, this.tools.meta);
  }

  /**
   * The tool a served name stands for, as that client was shown it (the HTTP transport checks the
   * `Mcp-Param-*` headers of a modern request against the schema its client saw).
   */
  servedTool(name: string, params: Params): ReturnType<ClientToolMethods["servedTool"]> {
    return this.views ? this.views.servedTool(name, params) : this.findTool(name);
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
  dispatch(payload: unknown, ctx: RequestContext = {}): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    return Array.isArray(payload) ? this.dispatcher.handleBatch(payload, ctx) : this.dispatcher.handle(payload, ctx);
  }

  /** Handles one message. Resolves to the response, or undefined for notifications, responses and cancelled requests. */
  handle(message: unknown, ctx: RequestContext = {}): Promise<JsonRpcResponse | undefined> {
    return this.dispatcher.handle(message, ctx);
  }

  /** A connection's choice of tools checked against this server's (HTTP answers 400 with the message). */
  chooseTools(choice: ToolChoice): ChosenTools | string {
    return this.choices?.resolve(choice) ?? { offered: undefined, surface: undefined };
  }

  /** A request's choice of tools from its query or headers (feature `toolsets`; none without it). */
  readToolChoice(
    search: string,
    headers: Record<string, string | string[] | undefined>,
  ): ToolChoice | string | undefined {
    return this.choices?.read(search, headers);
  }

  /** OAuth scopes a `tools/call` with these params needs (the HTTP transport answers 403 without them). */
  callScopes(params: { name?: unknown; arguments?: unknown }): string[] {
    return this.tools.callScopes(params);
  }

  private implementation(): Record<string, unknown> {
    const { name, version, title } = this.info;
    return title === undefined ? { name, version } : { name, version, title };
  }

  /** The server's capabilities; the tasks extension is declared to modern clients only. */
  private capabilities(modern: boolean): Record<string, unknown> {
    return {
      tools: { listChanged: false },
      resources: { subscribe: true, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
      logging: {},
      ...(modern && this.tasks && { extensions: { [TASKS_EXTENSION]: {} } }),
    };
  }

  private initialize(params: Params): Record<string, unknown> {
    const protocolVersion = (this.negotiatedVersion = negotiateProtocolVersion(params.protocolVersion));
    this.channel.legacyCapabilities = isRecord(params.capabilities) ? params.capabilities : {};
    this.legacyClient = clientInfoOf(params.clientInfo);
    const serverInfo = this.implementation();
    return this.withInstructions({ protocolVersion, capabilities: this.capabilities(false), serverInfo });
  }

  private withInstructions(result: Record<string, unknown>): Record<string, unknown> {
    return this.info.description ? { ...result, instructions: this.info.description } : result;
  }

  private setLogLevel(params: Params, ctx: RequestContext): Record<string, unknown> {
    if (!isLogLevel(params.level))
      throw new RpcError(ErrorCode.InvalidParams, "level must be an RFC 5424 level name (debug … emergency)");
    if (ctx.session) ctx.session.logLevel = params.level;
    else this.channel.legacyLogLevel = params.level;
    this.logger.debug(`client log level set to ${params.level}`);
    return {};
  }
}
