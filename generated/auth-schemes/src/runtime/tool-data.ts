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
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { pathToFileURL } from "node:url";
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
 * and for name clashes, the rest for the toolset filters), without its schemas, and where its
 * definition is in `data/tools.json` (byte offset and length: that file has one tool per line).
 */
export type CatalogEntry = [name: string, method: string, path: string, tags: string[], offset: number, length: number];

/**
 * The operation tools of a generated server, loaded when first needed: only their names are read
 * at start (`data/tool-names.json`); the catalog when toolset filters or a definition need it; one
 * definition by its byte range when a request needs it (describe, call); all of them (MS Graph
 * beta: 57 MB) only when a request needs all (`tools/list` of every tool).
 */
export interface ToolSource {
  /** Every tool name, in tool order. */
  names: readonly string[];
  /** The catalog, in tool order; read on the first call, then kept. */
  catalog(): readonly CatalogEntry[];
  /** Every tool definition, in catalog order; read and parsed on the first call, then kept. */
  load(): readonly ToolDefinition[];
  /** The definition of tool `name` (undefined when the catalog has no such tool). */
  get(name: string): ToolDefinition | undefined;
}

/** The lines of `data/tools.json`: `[`, one tool per line, `]`; with each tool's byte range in the text. */
export function toolLines(stored: readonly StoredTool[]): { text: string; ranges: Array<[offset: number, length: number]> } {
  const ranges: Array<[number, number]> = [];
  const lines = ["["];
  let offset = 2; // "[\n"
  stored.forEach((tool, index) => {
    const json = asciiJson(tool);
    ranges.push([offset + 2, json.length]);
    const line = `  ${json}${index < stored.length - 1 ? "," : ""}`;
    lines.push(line);
    offset += line.length + 1;
  });
  lines.push("]", "");
  return { text: lines.join("\n"), ranges };
}

/**
 * JSON with every non-ASCII character written as a `\\u` escape: the same value, one byte per
 * character, so string offsets are byte offsets (and V8 keeps the text at one byte per character).
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The catalog of these tools, with their ranges in `data/tools.json` (generation time). */
export function catalogOf(tools: readonly ToolDefinition[], ranges: ReadonlyArray<readonly [number, number]>): CatalogEntry[] {
  return tools.map((tool, index) => [tool.name, tool.http.method, tool.http.path, tool.tags ?? [], ranges[index]![0], ranges[index]![1]]);
}

/** A tool source over the files of the `data/` folder `dir` (tool-names.json now, the others when needed). */
export function dataToolSource(dir: string | URL): ToolSource {
  const folder = typeof dir === "string" ? pathToFileURL(dir.endsWith("/") ? dir : `${dir}/`) : new URL(dir.href.endsWith("/") ? dir.href : `${dir.href}/`);
  const file = (name: string) => new URL(name, folder);
  const read = (name: string) => readFileSync(file(name), "utf8");
  const names = JSON.parse(read("tool-names.json")) as string[];
  let catalog: CatalogEntry[] | undefined;
  let entries: Map<string, CatalogEntry> | undefined;
  const readCatalog = () => (catalog ??= JSON.parse(read("catalog.json")) as CatalogEntry[]);
  const entry = (name: string) => (entries ??= new Map(readCatalog().map((item) => [item[0], item]))).get(name);
  let all: readonly ToolDefinition[] | undefined;
  let definitions: unknown[] | undefined;
  const byName = new Map<string, ToolDefinition>();
  return {
    names,
    catalog: readCatalog,
    load: () => (all ??= loadTools(JSON.parse(read("tools.json")) as StoredTool[], (definitions ??= JSON.parse(read("definitions.json")) as unknown[]))),
    get: (name) => {
      let tool = byName.get(name);
      if (tool === undefined) {
        const found = entry(name);
        if (found === undefined) return undefined;
        const stored = JSON.parse(readRange(file("tools.json"), found[4], found[5])) as StoredTool;
        if (stored.name !== name) throw new Error(`data/tools.json does not hold tool ${name} where data/catalog.json says (regenerate the server)`);
        tool = loadTools([stored], (definitions ??= JSON.parse(read("definitions.json")) as unknown[]))[0]!;
        byName.set(name, tool);
      }
      return tool;
    },
  };
}

/** `length` bytes of `file` from `offset`, as UTF-8 text. */
export function readRange(file: URL, offset: number, length: number): string {
  const buffer = Buffer.alloc(length);
  const fd = openSync(file, "r");
  try {
    let done = 0;
    while (done < length) {
      const read = readSync(fd, buffer, done, length - done, offset + done);
      if (read === 0) break;
      done += read;
    }
    return buffer.toString("utf8", 0, done);
  } finally {
    closeSync(fd);
  }
}

/** A tool source over definitions already in memory (tests, embedders). */
export function memoryToolSource(tools: readonly ToolDefinition[]): ToolSource {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return {
    names: tools.map((tool) => tool.name),
    catalog: () => tools.map((tool) => [tool.name, tool.http.method, tool.http.path, tool.tags ?? [], 0, 0]),
    load: () => tools,
    get: (name) => byName.get(name),
  };
}

/** Whether `tools` is a ToolSource rather than the definitions themselves. */
export function isToolSource(tools: readonly ToolDefinition[] | ToolSource): tools is ToolSource {
  return !Array.isArray(tools);
}
