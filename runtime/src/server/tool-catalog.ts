/** The tools one server offers (operation, custom and meta tools): lookup, `tools/list` pages, OAuth scopes. */
import type { CustomTool } from "../api/extensions.js";
import type { ListPager } from "./list-pages.js";
import type { ListedTool } from "../api/mcp-types.js";
import type { MetaTools, OperationLookup, ServedSurface } from "./surfaces.js";
import type { ToolDefinition } from "../api/types.js";
import type { RequestContext } from "./request-context.js";

/** Who asks, as far as what they may see goes: OAuth scopes and the connection's choice. */
export type Access = Pick<RequestContext, "scopes" | "choice">;

/** Operation tools known by name and loaded on first need (20,000 operations start without parsing schemas). */
export interface LazyTools {
  names: readonly string[];
  /** The definitions of `names`, in the same order. */
  load(): readonly ToolDefinition[];
  /** One definition, without loading the others (optional: `load` serves otherwise). */
  get?(name: string): ToolDefinition | undefined;
}

/** Any tool a server can list or call. */
export type AnyTool = ToolDefinition | CustomTool<any> | ListedTool;

/** The OAuth scopes an MCP token needs to call an operation (feature `oauth`). */
export type ToolScopes = (tool: ToolDefinition) => string[];

/** Makes the meta tools of a surface over the operations (undefined on `all`). */
export type MakeMeta = (surface: ServedSurface, operations: OperationLookup) => MetaTools | undefined;

/** Operations, custom tools and meta tools of one server, checked for duplicate names. */
export class ToolCatalog {
  /** The name of every operation this server offers, whatever the surface. */
  readonly operationNames: ReadonlySet<string>;
  /** The meta tools of the server's own surface; undefined on `all`. */
  readonly meta: MetaTools | undefined;
  readonly customTools: readonly CustomTool<any>[];
  private readonly customByName = new Map<string, CustomTool<any>>();
  private readonly lookup: OperationLookup;
  private loadedOperations: { tools: readonly ToolDefinition[]; byName: Map<string, ToolDefinition> } | undefined;
  /** Meta tools of the other surfaces client views are served, made on first need. */
  private readonly metaBySurface = new Map<ServedSurface, MetaTools | undefined>();

  /** Throws on a duplicate tool name. */
  constructor(
    private readonly operations: LazyTools,
    customTools: readonly CustomTool<any>[],
    private readonly toolScopes: ToolScopes | undefined,
    private readonly surface: ServedSurface,
    private readonly makeMeta: MakeMeta,
  ) {
    this.operationNames = new Set(operations.names);
    this.customTools = [...customTools];
    this.lookup = { names: this.operationNames, get: (name) => this.operation(name), all: () => this.loaded().tools };
    this.meta = makeMeta(surface, this.lookup);
    const listedNames = new Set(this.meta ? this.meta.tools().map((tool) => tool.name) : this.operationNames);
    if (this.meta === undefined && this.operationNames.size < operations.names.length)
      throw new Error(`duplicate tool name: ${duplicateName(operations.names)}`);
    for (const tool of this.customTools) {
      if (this.customByName.has(tool.name) || listedNames.has(tool.name))
        throw new Error(`duplicate tool name: ${tool.name}`);
      this.customByName.set(tool.name, tool);
    }
  }

  /** The operation definitions, loaded on first need (see LazyTools). */
  loaded(): { tools: readonly ToolDefinition[]; byName: Map<string, ToolDefinition> } {
    if (!this.loadedOperations) {
      const tools = this.operations.load();
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
    if (this.loadedOperations === undefined && this.operations.get) return this.operations.get(name);
    return this.loaded().byName.get(name);
  }

  /** The meta tools of `surface` (undefined on `all`): the server's own, or made once for client views. */
  metaOn(surface: ServedSurface): MetaTools | undefined {
    if (surface === this.surface) return this.meta;
    if (!this.metaBySurface.has(surface)) this.metaBySurface.set(surface, this.makeMeta(surface, this.lookup));
    return this.metaBySurface.get(surface);
  }

  /** The custom tool, or (where `meta` is undefined: surface `all`) the operation tool, called `name`. */
  findOn(name: string, meta: MetaTools | undefined): ToolDefinition | CustomTool<any> | undefined {
    return this.customByName.get(name) ?? (meta ? undefined : this.operation(name));
  }

  /** One `tools/list` page of `meta`'s surface (undefined: `all`), with only what `access` may call. */
  list(
    params: Record<string, unknown>,
    access: Access,
    pager: ListPager,
    meta: MetaTools | undefined,
    shown?: (tool: ListedTool) => ListedTool,
  ): Record<string, unknown> {
    const show = shown ? (tool: AnyTool) => shown(listedTool(tool)) : listedTool;
    if (meta) return pager.page("tools", [...meta.tools(), ...this.customTools], params, show);
    // Until something loads every definition, a page reads only its own (by name, from the
    // offsets), so the first page of a server of 20,000 operations costs what its 100 tools cost.
    const get = this.operations.get;
    const filtered = access.scopes !== undefined || access.choice?.offered !== undefined;
    if (!filtered && this.loadedOperations === undefined && get) {
      return pager.page("tools", [...this.operations.names, ...this.customTools], params, (item) => {
        const tool = typeof item === "string" ? get(item) : item;
        if (tool === undefined) throw new Error(`the tool definitions do not match the catalog (${String(item)})`);
        return show(tool);
      });
    }
    const { tools } = this.loaded();
    const visible = filtered ? tools.filter((tool) => this.mayCall(tool.name, access)) : tools;
    return pager.page("tools", [...visible, ...this.customTools], params, show);
  }

  /** Whether a caller with these OAuth scopes (none: no OAuth) and connection choice may call operation `name`. */
  mayCall(name: string, { scopes, choice }: Access): boolean {
    if (choice?.offered && !choice.offered.has(name)) return false;
    return !scopes || this.requiredScopes(name).every((scope) => scopes.has(scope));
  }

  /** The meta tools a request is served: those of its connection's chosen surface, else the server's. */
  metaFor(access: Access): MetaTools | undefined {
    const surface = access.choice?.surface;
    return surface === undefined ? this.meta : this.metaOn(surface);
  }

  /** OAuth scopes a `tools/call` with these params needs: those of the tool, or of the operation a meta tool calls. */
  callScopes(params: { name?: unknown; arguments?: unknown }): string[] {
    if (typeof params.name !== "string") return [];
    if (!this.meta?.find(params.name)) return this.requiredScopes(params.name);
    const target = this.meta.target(params.name, params.arguments);
    return target === undefined ? [] : this.requiredScopes(target);
  }

  /** OAuth scopes an MCP token needs for an operation (none without feature `oauth`). */
  requiredScopes(toolName: string): string[] {
    if (!this.toolScopes) return [];
    const tool = this.operation(toolName);
    return tool ? this.toolScopes(tool) : [];
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

/** The first name that occurs twice. */
function duplicateName(names: readonly string[]): string {
  const seen = new Set<string>();
  return names.find((name) => seen.has(name) || !seen.add(name)) ?? "";
}
