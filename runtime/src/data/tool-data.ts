/**
 * The stored tool definitions (`data/tools.json`, `data/definitions.json`), read whole when first
 * needed. Shared `$defs` are stored once (MS Graph beta: 77 % of the tools file): a stored tool maps
 * its `$defs` names to indexes into the definitions array. A large API's server reads one tool at
 * a time instead, from files that may be stored packed (feature `large-data`).
 */
import { existsSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { ToolDefinition } from "../api/types.js";

/** A tool as stored: `defs` ($defs name → index into `data/definitions.json`) instead of `$defs`. */
export type StoredTool = ToolDefinition & { defs?: Record<string, number> };

/** The tool definitions back from their stored form (`defs` → shared `inputSchema.$defs`); throws on a missing definition. */
export function loadTools(stored: StoredTool[], definitions: unknown[] = []): ToolDefinition[] {
  return stored.map((tool) => {
    if (tool.defs === undefined) return tool;
    const $defs: Record<string, unknown> = {};
    for (const [name, index] of Object.entries(tool.defs)) {
      if (!(index in definitions))
        throw new Error(
          `tool ${tool.name}: $defs/${name} names definition ${index}, which data/definitions.json does not have`,
        );
      $defs[name] = definitions[index];
    }
    // Same key order as the planned definition: `inputSchema` in its place, `$defs` last in it.
    const entries = Object.entries(tool).flatMap(([key, value]) =>
      key === "defs" ? [] : key === "inputSchema" ? [[key, { ...tool.inputSchema, $defs }]] : [[key, value]],
    );
    return Object.fromEntries(entries) as ToolDefinition;
  });
}

/** One entry of `data/catalog.json`: what the toolset filters need of an operation, without its schemas. */
export type CatalogEntry = [name: string, method: string, path: string, tags: string[]];

/** The operation tools of a generated server: names at start, the rest read when first needed. */
export interface ToolSource {
  /** Every tool name, in tool order. */
  names: readonly string[];
  /** The catalog, in tool order; read on the first call, then kept. */
  catalog(): readonly CatalogEntry[];
  /** Every tool definition, in catalog order; read and parsed on the first call, then kept. */
  load(): readonly ToolDefinition[];
  /** The definition of tool `name` (undefined when the server has no such tool). */
  get(name: string): ToolDefinition | undefined;
  /** Tool `name`'s place in tool order; -1 when none. */
  indexOf(name: string): number;
}

/** Reads the files of data/ whole, by name. */
export interface DataFiles {
  read(name: string): string;
}

/** The text of data file `file`; undefined when it is absent. */
export function readDataText(file: URL): string | undefined {
  return existsSync(file) ? readFileSync(file, "utf8") : undefined;
}

/** The `data/` folder `dir` as a URL that ends with a slash. */
export function dataFolder(dir: string | URL): URL {
  if (typeof dir === "string") return pathToFileURL(dir.endsWith("/") ? dir : `${dir}/`);
  return new URL(dir.href.endsWith("/") ? dir.href : `${dir.href}/`);
}

/** The files of the `data/` folder `dir` on disk, each read with `readText`. */
export function folderFiles(dir: string | URL, readText = readDataText): DataFiles {
  const folder = dataFolder(dir);
  return {
    read: (name) => {
      const text = readText(new URL(name, folder));
      if (text === undefined) throw new Error(`data/${name} is missing (regenerate the server)`);
      return text;
    },
  };
}

/**
 * A tool source over the files of the `data/` folder `dir` (tool-names.json now, the others whole
 * when first needed), or over `DataFiles` held elsewhere (a Worker's bundle, feature `fetch`).
 */
export function dataToolSource(dir: string | URL | DataFiles): ToolSource {
  const files = typeof dir === "string" || dir instanceof URL ? folderFiles(dir) : dir;
  const read = (name: string) => JSON.parse(files.read(name)) as unknown;
  const names = read("tool-names.json") as string[];
  let catalog: CatalogEntry[] | undefined;
  let all: readonly ToolDefinition[] | undefined;
  let byName: Map<string, ToolDefinition> | undefined;
  let positions: Map<string, number> | undefined;
  const load = () => (all ??= loadTools(read("tools.json") as StoredTool[], read("definitions.json") as unknown[]));
  return {
    names,
    indexOf: (name) => (positions ??= new Map(names.map((item, i) => [item, i]))).get(name) ?? -1,
    catalog: () => (catalog ??= read("catalog.json") as CatalogEntry[]),
    load,
    get: (name) => (byName ??= new Map(load().map((tool) => [tool.name, tool]))).get(name),
  };
}

/** A tool source over definitions already in memory (tests, embedders). */
export function memoryToolSource(tools: readonly ToolDefinition[]): ToolSource {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const positions = new Map(tools.map((tool, index) => [tool.name, index]));
  return {
    names: tools.map((tool) => tool.name),
    catalog: () => tools.map((tool) => [tool.name, tool.http.method, tool.http.path, tool.tags ?? []]),
    load: () => tools,
    get: (name) => byName.get(name),
    indexOf: (name) => positions.get(name) ?? -1,
  };
}

/** Whether `tools` is a ToolSource rather than the definitions themselves. */
export function isToolSource(tools: readonly ToolDefinition[] | ToolSource): tools is ToolSource {
  return !Array.isArray(tools);
}
