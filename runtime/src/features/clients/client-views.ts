/**
 * What one client is served, decided once per client profile: the surface (`auto` takes its tool
 * budget from the profile's tool limit), tool names within the profile's rules (see client-names.ts)
 * and input schemas in a form it takes (client-schema.ts). A request without a matching profile (and
 * no `--client`) gets the server's own view: nothing changes. Each decision is logged at info, once.
 */
import { configServerName } from "./client-names.js";
import { matchProfile, type RuntimeProfile } from "./client-profiles.js";
import { clientInfoOf, type ClientInfo } from "../../protocol/client-info.js";
import { isRecord } from "../../protocol/own.js";
import type { Logger } from "../../protocol/logger.js";
import { nameMap, type NameMap } from "./client-names.js";
import { decodeArguments, shapeInputSchema, type Decoder } from "./client-schema.js";
import type { ListedTool } from "../../api/mcp-types.js";
import type { HandlerContext, Params } from "../../server/request-context.js";
import type { ChooseAuto, ServedSurface, SurfaceName } from "../../server/surfaces.js";
import { listedTool } from "../../server/tool-catalog.js";
import type { ClientToolMethods, ClientViewsContext } from "../../server/server.js";

/** The profiles the views come from, and what the server tells them. */
export interface ClientViewsOptions {
  /** The surface asked for (`auto` adapts to each view); `served` is what it resolved to for the server. */
  requested: SurfaceName;
  served: ServedSurface;
  /** The server's npm name. */
  packageName: string;
  /** Operation tools offered, and what `tools/list` shows of them (asked for only when the count fits a budget). */
  operationCount: number;
  listedOperations: () => readonly ListedTool[];
  /** The names a surface lists, in order (meta or operation tools, then custom tools). */
  namesOn: (surface: ServedSurface) => readonly string[];
  /** Whether the server can serve `surface` (a feature serves it). */
  serves: (surface: ServedSurface) => boolean;
  /** Resolves `auto` for a profile's cap on tools (feature `search`); undefined without it. */
  autoSurface: ChooseAuto | undefined;
  logger: Logger;
  profiles: readonly RuntimeProfile[];
  /** The profile `--client` names: every request gets it, whatever its client says. */
  forced?: RuntimeProfile | undefined;
}

/** One profile's view of the server. */
export class ClientView {
  readonly surface: ServedSurface;
  private namesCache: NameMap | undefined;
  private readonly shaped = new Map<string, { tool: ListedTool; decoder: Decoder | undefined }>();

  constructor(
    readonly profile: RuntimeProfile,
    surface: { surface: ServedSurface; reason: string },
    private readonly options: ClientViewsOptions,
  ) {
    this.surface = surface.surface;
    const names = this.names();
    const serverName = configServerName(options.packageName);
    options.logger.info(
      `client profile ${profile.id}: surface ${surface.surface} (${surface.reason}); ${names.renamed} tool names rewritten for ${profile.namePattern ?? "no name pattern"}` +
        `${profile.maxQualifiedName ? ` and ${profile.maxQualifiedName} characters with the server name "${serverName}"` : ""}; ` +
        `${profile.schema ? "input schemas rewritten to the client's schema rules" : "input schemas served as they are"}`,
    );
  }

  originalName(served: string): string | undefined {
    return this.names().original(served);
  }

  /** The served ↔ original name map of what this view lists. */
  names(): NameMap {
    if (!this.namesCache) {
      const { profile, options } = this;
      const serverName = configServerName(options.packageName);
      const maxLength =
        profile.maxQualifiedName !== undefined ? profile.maxQualifiedName - serverName.length - 1 : undefined;
      this.namesCache = nameMap(options.namesOn(this.surface), {
        ...(profile.namePattern ? { pattern: profile.namePattern } : {}),
        ...(maxLength !== undefined ? { maxLength } : {}),
      });
    }
    return this.namesCache;
  }

  /** A listed tool as this client is served it (name and input schema), cached per tool. */
  listed(tool: ListedTool): ListedTool {
    return this.entry(tool).tool;
  }

  /** Arguments the client sent for original tool `tool`, back in the form the full schema validates. */
  decode(tool: ListedTool, args: unknown): unknown {
    return decodeArguments(args, this.entry(tool).decoder);
  }

  private entry(tool: ListedTool): { tool: ListedTool; decoder: Decoder | undefined } {
    let entry = this.shaped.get(tool.name);
    if (!entry) {
      const rules = this.profile.schema;
      const shaped = rules ? shapeInputSchema(tool.inputSchema, rules) : undefined;
      const served = this.names().served(tool.name);
      entry = {
        tool: { ...tool, name: served, ...(shaped ? { inputSchema: shaped.schema } : {}) },
        decoder: shaped?.decoder,
      };
      this.shaped.set(tool.name, entry);
    }
    return entry;
  }
}

/** The views of one server, one per profile met, made on first need. */
export class ClientViews {
  private readonly views = new Map<string, ClientView>();
  private readonly unmatched = new Set<string>();

  constructor(private readonly options: ClientViewsOptions) {}

  /** The view for a request from `client` (undefined: the server's own view). */
  viewFor(client: ClientInfo | undefined): ClientView | undefined {
    const profile = this.options.forced ?? matchProfile(this.options.profiles, client);
    if (!profile) {
      if (client && !this.unmatched.has(client.name) && this.unmatched.size < 100) {
        this.unmatched.add(client.name);
        this.options.logger.info(`client "${client.name}" matches no client profile: served as configured`);
      }
      return undefined;
    }
    let view = this.views.get(profile.id);
    if (!view) {
      view = new ClientView(profile, this.surfaceFor(profile), this.options);
      this.views.set(profile.id, view);
    }
    return view;
  }

  /** Every view made so far (a served name is resolved through them when the request names no client). */
  all(): readonly ClientView[] {
    return [...this.views.values()];
  }

  private surfaceFor(profile: RuntimeProfile): { surface: ServedSurface; reason: string } {
    const { requested, served, operationCount, listedOperations } = this.options;
    if (requested !== "auto") return { surface: served, reason: `asked for (--surface ${requested} or MCP_SURFACE)` };
    const chosen = this.options.autoSurface?.(operationCount, listedOperations, profile.maxTools);
    if (!chosen) return { surface: served, reason: "auto: this server has no search feature" };
    return this.options.serves(chosen.surface)
      ? chosen
      : { surface: served, reason: `${chosen.reason}; this server has no ${chosen.surface} feature` };
  }
}

/** The server's `tools/list` and `tools/call` served through the views of its clients' profiles. */
export function viewedTools(
  server: ClientViewsContext,
  options: Pick<ClientViewsOptions, "profiles" | "forced">,
): ClientToolMethods {
  const { catalog, pager } = server;
  const views = new ClientViews({
    ...server,
    ...options,
    operationCount: catalog.operationNames.size,
    listedOperations: () => catalog.loaded().tools.map(listedTool),
    namesOn: (surface) => {
      const meta = catalog.metaOn(surface);
      const listed = meta ? meta.tools().map((tool) => tool.name) : [...catalog.operationNames];
      return [...listed, ...catalog.customTools.map((tool) => tool.name)];
    },
  });
  /** The view of the client that sent `params` (modern `_meta`, else the legacy `initialize`); undefined: the server's own. */
  const viewOf = (params: Params, call: HandlerContext): ClientView | undefined => {
    const legacy = call.ctx.client === undefined ? server.legacyClient() : (call.ctx.client ?? undefined);
    return views.viewFor(call.era.modern ? modernClientInfo(params) : legacy);
  };
  /** The tool a view's served `name` stands for on the view's surface, with that surface's meta tools. */
  const originalTool = (view: ClientView, name: string) => {
    const meta = catalog.metaOn(view.surface);
    const original = view.originalName(name) ?? name;
    const tool = meta?.find(original) ?? catalog.findOn(original, meta);
    return { meta, name: original, ...(tool && { tool: listedTool(tool) }) };
  };
  return {
    list: async (params, call) => {
      const view = viewOf(params, call);
      const links = server.viewLinks(call);
      if (!view) return catalog.list(params, call.ctx, pager, catalog.meta, links);
      const meta = catalog.metaOn(view.surface);
      // A view's link (feature apps) joins the tool as this client is served it (that shape is cached per tool).
      const served = (tool: ListedTool): ListedTool => {
        const shown = view.listed(tool);
        const linked = links?.(tool)._meta;
        return linked === undefined ? shown : { ...shown, _meta: linked };
      };
      return catalog.list(params, call.ctx, pager, meta, served);
    },
    // A call in the server's terms: the original name, decoded arguments, the view's surface.
    call: async (params, call) => {
      const view = viewOf(params, call);
      if (!view) return server.callTool(params, call);
      const { meta, name, tool } = originalTool(view, typeof params.name === "string" ? params.name : "");
      const decoded = tool && params.arguments !== undefined ? { arguments: view.decode(tool, params.arguments) } : {};
      const served = { ...params, ...(typeof params.name === "string" ? { name } : {}), ...decoded };
      return server.callTool(served, { ...call, view: { meta } });
    },
    servedTool: (name, params) => {
      const view = views.viewFor(modernClientInfo(params));
      if (!view) return catalog.findOn(name, catalog.meta);
      const { tool } = originalTool(view, name);
      return tool && view.listed(tool);
    },
  };
}

/** The `_meta` key of the modern era's per-request client identity. */
const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

/** The modern request's client identity from its `_meta`, if it sent one. */
export function modernClientInfo(params: unknown): ClientInfo | undefined {
  return isRecord(params) && isRecord(params._meta) ? clientInfoOf(params._meta[META_CLIENT_INFO]) : undefined;
}
