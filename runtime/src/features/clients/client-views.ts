/**
 * What one client is served, decided once per client profile: the surface (`auto` takes its tool
 * budget from the profile's tool limit), tool names within the profile's rules (see client-names.ts)
 * and input schemas in a form it takes (client-schema.ts). A request without a matching profile (and
 * no `--client`) gets the server's own view: nothing changes. Each decision is logged at info, once.
 */
import { configServerName } from "./client-names.js";
import { matchProfile, type RuntimeProfile } from "./client-profiles.js";
import type { ClientInfo } from "../../protocol/client-info.js";
import { nameMap, type NameMap } from "./client-names.js";
import { decodeArguments, shapeInputSchema, type Decoder } from "./client-schema.js";
import type { ListedTool } from "../../api/mcp-types.js";
import {
  AUTO_BUDGET,
  chooseSurface,
  type ClientView as ServedView,
  type ClientViews as Views,
  type ClientViewsContext,
  type ServedSurface,
} from "../../server/surfaces.js";

/** The profiles the views come from, and what the server tells them. */
export interface ClientViewsOptions extends ClientViewsContext {
  profiles: readonly RuntimeProfile[];
  /** The profile `--client` names: every request gets it, whatever its client says. */
  forced?: RuntimeProfile | undefined;
}

/** One profile's view of the server. */
export class ClientView implements ServedView {
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
export class ClientViews implements Views {
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
    const budget = { tools: profile.maxTools ?? AUTO_BUDGET.tools, tokens: AUTO_BUDGET.tokens };
    const chosen = chooseSurface("auto", operationCount, listedOperations, budget);
    return this.options.serves(chosen.surface)
      ? chosen
      : { surface: served, reason: `${chosen.reason}; this server has no ${chosen.surface} feature` };
  }
}
