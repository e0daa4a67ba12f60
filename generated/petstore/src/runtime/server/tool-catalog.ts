// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * The tools one server offers: the operation tools (known by name from the start, their
 * definitions loaded on first need), the user's custom tools and, on the `search`/`code`
 * surfaces, the meta tools; lookup by name, the `tools/list` pages and the OAuth scopes each
 * operation needs.
 */
import type { CustomTool } from "../api/extensions.js";
import type { ListPager } from "./list-pages.js";
import type { ListedTool } from "../api/mcp-types.js";
import type { MetaTools, OperationLookup, ServedSurface } from "./surfaces.js";
import type { SecuritySchemeDefinition, ToolDefinition } from "../api/types.js";

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
export interface LoadedOperations {
  tools: readonly ToolDefinition[];
  byName: Map<string, ToolDefinition>;
}

/** Any tool a server can list or call. */
export type AnyTool = ToolDefinition | CustomTool<any> | ListedTool;

/** Operations, custom tools and meta tools of one server, checked for duplicate names. */
export class ToolCatalog {
  /** The name of every operation this server offers, whatever the surface. */
  readonly operationNames: ReadonlySet<string>;
  /** The meta tools of the `search`/`code` surface; undefined on `all`. */
  readonly meta: MetaTools | undefined;
  readonly customTools: readonly CustomTool<any>[];
  /** Custom tools by name (operation tools are found through {@link ToolCatalog.operation}). */
  private readonly customByName = new Map<string, CustomTool<any>>();
  /** The operation names in tool order (the order of `tools/list`). */
  private readonly operationOrder: readonly string[];
  private readonly loadOperations: () => readonly ToolDefinition[];
  private readonly getOperation: ((name: string) => ToolDefinition | undefined) | undefined;
  private loadedOperations: LoadedOperations | undefined;
  /** Keys of the OAuth 2 / OpenID Connect schemes, whose scopes an MCP token must carry. */
  private readonly oauthSchemes: ReadonlySet<string>;

  /**
   * `metaTools` builds the surface's meta tools over this catalog's operations (omit it on the
   * `all` surface). Throws on a duplicate tool name.
   */
  constructor(
    given: readonly ToolDefinition[] | LazyTools,
    customTools: readonly CustomTool<any>[],
    securitySchemes: readonly SecuritySchemeDefinition[],
    metaTools?: (operations: OperationLookup) => MetaTools,
  ) {
    const tools = isLazyTools(given) ? given : eagerTools(given);
    this.operationNames = new Set(tools.names);
    this.operationOrder = tools.names;
    this.loadOperations = () => tools.load();
    this.getOperation = tools.get ? (name) => tools.get!(name) : undefined;
    this.customTools = [...customTools];
    this.meta = metaTools?.({
      names: this.operationNames,
      get: (name) => this.operation(name),
      all: () => this.loaded().tools,
    });
    const listedNames = new Set(this.meta ? this.meta.tools().map((tool) => tool.name) : this.operationNames);
    if (this.meta === undefined && this.operationNames.size < tools.names.length)
      throw new Error(`duplicate tool name: ${duplicateName(tools.names)}`);
    for (const tool of this.customTools) {
      if (this.customByName.has(tool.name) || listedNames.has(tool.name))
        throw new Error(`duplicate tool name: ${tool.name}`);
      this.customByName.set(tool.name, tool);
    }
    this.oauthSchemes = new Set(
      securitySchemes.filter((s) => s.type === "oauth2" || s.type === "openIdConnect").map((s) => s.key),
    );
  }

  /** The operation definitions, loaded on first need (see LazyTools). */
  loaded(): LoadedOperations {
    if (!this.loadedOperations) {
      const tools = this.loadOperations();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const missing = [...this.operationNames].find((name) => !byName.has(name));
      if (missing !== undefined || byName.size !== this.operationNames.size)
        throw new Error(`the tool definitions do not match the catalog (${missing ?? "extra tools"})`);
      this.loadedOperations = { tools, byName };
    }
    return this.loadedOperations;
  }

  /** Operation `name`, if this server offers it (without loading anything for another name). */
  operation(name: string): ToolDefinition | undefined {
    if (!this.operationNames.has(name)) return undefined;
    if (this.loadedOperations === undefined && this.getOperation) return this.getOperation(name);
    return this.loaded().byName.get(name);
  }

  /** Meta tools of the other surfaces client views are served, made on first need (client-views.ts). */
  private readonly metaBySurface = new Map<ServedSurface, MetaTools | undefined>();

  /** The meta tools of `surface` (undefined on `all`): this catalog's own, or made once by `make`. */
  metaOn(
    surface: ServedSurface,
    own: ServedSurface,
    make: (surface: ServedSurface, operations: OperationLookup) => MetaTools | undefined,
  ): MetaTools | undefined {
    if (surface === own) return this.meta;
    if (!this.metaBySurface.has(surface))
      this.metaBySurface.set(
        surface,
        make(surface, {
          names: this.operationNames,
          get: (name) => this.operation(name),
          all: () => this.loaded().tools,
        }),
      );
    return this.metaBySurface.get(surface);
  }

  /** The custom tool, or (where `meta` is undefined: surface `all`) the operation tool, called `name`. */
  findOn(name: string, meta: MetaTools | undefined): ToolDefinition | CustomTool<any> | undefined {
    return this.customByName.get(name) ?? (meta ? undefined : this.operation(name));
  }

  /** The names `meta`'s surface lists (meta or operation tools, then custom tools), in order. */
  namesOn(meta: MetaTools | undefined): string[] {
    return [
      ...(meta ? meta.tools().map((tool) => tool.name) : this.operationOrder),
      ...this.customTools.map((tool) => tool.name),
    ];
  }

  /** One `tools/list` page of a client view: `meta`'s surface, each tool as `shown` serves it. */
  listServed(
    params: Record<string, unknown>,
    scopes: ReadonlySet<string> | undefined,
    pager: ListPager,
    meta: MetaTools | undefined,
    shown: (tool: ListedTool) => ListedTool,
  ): Record<string, unknown> {
    const show = (tool: AnyTool) => shown(listedTool(tool));
    if (meta) return pager.page("tools", [...meta.tools(), ...this.customTools], params, show);
    const { tools } = this.loaded();
    return pager.page(
      "tools",
      [...(scopes ? tools.filter((tool) => this.mayCall(tool.name, scopes)) : tools), ...this.customTools],
      params,
      show,
    );
  }

  /** The custom tool or (on the `all` surface) operation tool called `name`, if any; meta tools are not included. */
  find(name: string): ToolDefinition | CustomTool<any> | undefined {
    return this.customByName.get(name) ?? (this.meta ? undefined : this.operation(name));
  }

  /** One `tools/list` page; with OAuth `scopes`, only the tools the caller's token may call. */
  list(
    params: Record<string, unknown>,
    scopes: ReadonlySet<string> | undefined,
    pager: ListPager,
  ): Record<string, unknown> {
    if (this.meta) return pager.page("tools", [...this.meta.tools(), ...this.customTools], params, listedTool);
    // Until something loads every definition, a page reads only its own (by name, from the
    // offsets), so the first page of a server of 20,000 operations costs what its 100 tools cost.
    if (!scopes && this.loadedOperations === undefined && this.getOperation) {
      const get = this.getOperation;
      return pager.page("tools", [...this.operationOrder, ...this.customTools], params, (item) =>
        listedTool(typeof item === "string" ? definedOperation(item, get(item)) : item),
      );
    }
    const { tools } = this.loaded();
    const visible = scopes ? tools.filter((tool) => this.mayCall(tool.name, scopes)) : tools;
    return pager.page("tools", [...visible, ...this.customTools], params, listedTool);
  }

  /** Whether a caller with these OAuth scopes (undefined: no OAuth) may call operation `name`. */
  mayCall(name: string, scopes: ReadonlySet<string> | undefined): boolean {
    return !scopes || this.requiredScopes(name).every((scope) => scopes.has(scope));
  }

  /**
   * OAuth scopes a `tools/call` with these params needs: those of the tool, or for
   * `call_operation` those of the operation it calls.
   */
  callScopes(params: { name?: unknown; arguments?: unknown }): string[] {
    if (typeof params.name !== "string") return [];
    if (this.meta?.find(params.name)) {
      const target = this.meta.target(params.name, params.arguments);
      return target === undefined ? [] : this.requiredScopes(target);
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
      const scopes = Object.entries(alternative)
        .filter(([key]) => this.oauthSchemes.has(key))
        .flatMap(([, list]) => list);
      if (scopes.length > 0) return [...new Set(scopes)];
    }
    return [];
  }
}

/** A tool as `tools/list` shows it. */
export function listedTool(tool: AnyTool): ListedTool {
  const listed: ListedTool = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
  if (tool.title !== undefined) listed.title = tool.title;
  if (tool.outputSchema !== undefined) listed.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) listed.annotations = tool.annotations;
  return listed;
}

function isLazyTools(tools: readonly ToolDefinition[] | LazyTools): tools is LazyTools {
  return !Array.isArray(tools);
}

/** Definitions given up front, as LazyTools that are already loaded. */
function eagerTools(given: readonly ToolDefinition[]): LazyTools {
  const tools = [...given];
  return { names: tools.map((tool) => tool.name), load: () => tools };
}

/** The definition `get` found for operation `name`; a name without one is a local fault (stale data files). */
function definedOperation(name: string, tool: ToolDefinition | undefined): ToolDefinition {
  if (tool === undefined) throw new Error(`the tool definitions do not match the catalog (${name})`);
  return tool;
}

/** The first name that occurs twice. */
function duplicateName(names: readonly string[]): string {
  const seen = new Set<string>();
  return names.find((name) => seen.has(name) || !seen.add(name)) ?? "";
}
