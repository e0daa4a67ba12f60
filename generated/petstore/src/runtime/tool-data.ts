/**
 * The stored form of the tool definitions: `data/tools.json` and `data/definitions.json`.
 *
 * Input schemas refer to shared schemas through `$defs`. In a large API the same definitions come
 * back in thousands of tools (MS Graph beta: 272,000 `$defs` entries, 2,759 names, 77 % of the
 * tools file), so they are stored once: a stored tool carries `defs`, its `$defs` names mapped to
 * indexes into the definitions array, and loading puts the very same objects back in place. A
 * name may have several bodies across tools (a long API strips prose from oversized `$defs`), so
 * the index is per body, not per name; each tool gets back exactly the `$defs` it was planned with.
 */
import type { ToolDefinition } from "./types.js";

/** A tool as stored in `data/tools.json`: `inputSchema` without `$defs`, and `defs` instead. */
export type StoredTool = ToolDefinition & {
  /** `$defs` name → index into `data/definitions.json`. */
  defs?: Record<string, number>;
};

/** What `storeTools` produces: the two data files' contents, as values. */
export interface StoredTools {
  tools: StoredTool[];
  /** Every distinct `$defs` body, in order of first use. */
  definitions: unknown[];
}

/**
 * Moves every tool's `inputSchema.$defs` into one shared list of distinct bodies (compared as
 * JSON text). Deterministic: same tools, same output. The tools given are not changed.
 */
export function storeTools(tools: ToolDefinition[]): StoredTools {
  const definitions: unknown[] = [];
  const indexOf = new Map<string, number>();
  const stored = tools.map((tool): StoredTool => {
    const { $defs, ...inputSchema } = tool.inputSchema as { $defs?: Record<string, unknown> };
    if ($defs === undefined) return tool;
    const defs: Record<string, number> = {};
    for (const [name, body] of Object.entries($defs)) {
      const text = JSON.stringify(body);
      let index = indexOf.get(text);
      if (index === undefined) {
        index = definitions.push(body) - 1;
        indexOf.set(text, index);
      }
      defs[name] = index;
    }
    // `defs` goes right after the schema it completes, so a reader of the file finds it there.
    const entries = Object.entries(tool).flatMap(([key, value]) => (key === "inputSchema" ? [[key, inputSchema], ["defs", defs]] : [[key, value]]));
    return Object.fromEntries(entries) as StoredTool;
  });
  return { tools: stored, definitions };
}

/**
 * The tool definitions back from their stored form: each `defs` becomes `inputSchema.$defs`
 * again, sharing the definition objects between tools (schemas are never changed in place).
 * Throws when a tool names a definition the list does not have.
 */
export function loadTools(stored: StoredTool[], definitions: unknown[] = []): ToolDefinition[] {
  return stored.map((tool) => {
    if (tool.defs === undefined) return tool;
    const $defs: Record<string, unknown> = {};
    for (const [name, index] of Object.entries(tool.defs)) {
      if (!(index in definitions)) throw new Error(`tool ${tool.name}: $defs/${name} names definition ${index}, which data/definitions.json does not have`);
      $defs[name] = definitions[index];
    }
    // Same key order as the planned definition: `inputSchema` in its place, `$defs` last in it.
    const entries = Object.entries(tool).flatMap(([key, value]) => (key === "defs" ? [] : key === "inputSchema" ? [[key, { ...tool.inputSchema, $defs }]] : [[key, value]]));
    return Object.fromEntries(entries) as ToolDefinition;
  });
}

/** `loadTools` on the two files' text (`definitions` absent: a project without shared definitions). */
export function parseTools(toolsJson: string, definitionsJson?: string): ToolDefinition[] {
  return loadTools(JSON.parse(toolsJson) as StoredTool[], definitionsJson === undefined ? [] : (JSON.parse(definitionsJson) as unknown[]));
}

/**
 * One entry of `data/catalog.json`: what start-up needs of an operation (its name for the surface
 * and for name clashes, the rest for the toolset filters), without its schemas.
 */
export type CatalogEntry = [name: string, method: string, path: string, tags: string[]];

/**
 * The operation tools of a generated server, loaded when first needed: the catalog is read at
 * start, the definitions (MS Graph beta: 57 MB) on the first request that needs a schema.
 */
export interface ToolSource {
  catalog: readonly CatalogEntry[];
  /** Every tool definition, in catalog order; read and parsed on the first call, then kept. */
  load(): readonly ToolDefinition[];
}

/** The catalog of these tools (generation time). */
export function catalogOf(tools: readonly ToolDefinition[]): CatalogEntry[] {
  return tools.map((tool) => [tool.name, tool.http.method, tool.http.path, tool.tags ?? []]);
}

/** A tool source over the files of `data/`, read with `read` (catalog.json now, the others later). */
export function dataToolSource(read: (file: string) => string): ToolSource {
  const catalog = JSON.parse(read("catalog.json")) as CatalogEntry[];
  let tools: readonly ToolDefinition[] | undefined;
  return {
    catalog,
    load: () => (tools ??= parseTools(read("tools.json"), read("definitions.json"))),
  };
}

/** Whether `tools` is a ToolSource rather than the definitions themselves. */
export function isToolSource(tools: readonly ToolDefinition[] | ToolSource): tools is ToolSource {
  return !Array.isArray(tools);
}
