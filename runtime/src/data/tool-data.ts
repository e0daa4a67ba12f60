/**
 * The stored tool definitions (`data/tools.json`, `data/definitions.json`) and declarations, read
 * whole or one item at a time by byte range. Shared `$defs` are stored once (MS Graph beta: 77 % of
 * the tools file): a stored tool maps its `$defs` names to indexes into the definitions array.
 * Offset files (`data/*-offsets.txt`): line i holds where item i of a one-item-per-line JSON file is,
 * as fixed-width decimal numbers (`0000001234 0000000567`), so one item is read without parsing all.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { ToolDefinition } from "../api/types.js";

/** Digits per number of an offsets file: offsets up to 10 GB. */
export const OFFSET_DIGITS = 10;

/** Bytes of one record of `fields` numbers, its newline included. */
export function recordLength(fields: number): number {
  return fields * (OFFSET_DIGITS + 1);
}

/** Record `index` (0-based) of an offsets file of `fields` numbers per record; undefined when the file is shorter. */
export function readRecord(
  readRange: (offset: number, length: number) => string,
  index: number,
  fields: number,
): number[] | undefined {
  const length = recordLength(fields);
  const text = readRange(index * length, length);
  if (text.length < length) return undefined;
  const numbers = text.slice(0, -1).split(" ").map(Number);
  if (numbers.length !== fields || numbers.some((n) => !Number.isInteger(n)))
    throw new Error(`record ${index} of an offsets file is damaged: ${JSON.stringify(text)} (regenerate the server)`);
  return numbers;
}

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
  /** Tool `name`'s place in tool order (its line in the `data/*-offsets.txt` files); -1 when none. */
  indexOf(name: string): number;
}

/** Look-ups by scanning the names before a tool source builds a map of them. */
const POSITION_SCANS = 64;

/** Reads the files of data/: whole, or a byte range (one record of a large file). */
export interface DataFiles {
  read(name: string): string;
  range(name: string, offset: number, length: number): string;
}

/** The files of the `data/` folder `dir` on disk. */
function folderFiles(dir: string | URL): DataFiles {
  const folder =
    typeof dir === "string"
      ? pathToFileURL(dir.endsWith("/") ? dir : `${dir}/`)
      : new URL(dir.href.endsWith("/") ? dir.href : `${dir.href}/`);
  const file = (name: string) => new URL(name, folder);
  return {
    read: (name) => readFileSync(file(name), "utf8"),
    range: (name, offset, length) => readRange(file(name), offset, length),
  };
}

/**
 * A tool source over the files of the `data/` folder `dir` (tool-names.json now, the others when
 * needed), or over `DataFiles` held elsewhere (a Worker's bundle, feature `fetch`).
 */
export function dataToolSource(dir: string | URL | DataFiles): ToolSource {
  const files = typeof dir === "string" || dir instanceof URL ? folderFiles(dir) : dir;
  const read = (name: string) => files.read(name);
  const names = JSON.parse(read("tool-names.json")) as string[];
  let catalog: CatalogEntry[] | undefined;
  let all: readonly ToolDefinition[] | undefined;
  // Definitions read one by one (kept, so tools share them in memory), or all at once.
  let definitions: unknown[] | undefined;
  const someDefinitions: unknown[] = [];
  /** Item `index` of `data/<kind>s.json`, where `data/<kind>-offsets.txt` says it is (`what` names it in errors). */
  const item = (kind: "tool" | "definition", index: number, what: string): unknown => {
    const record = readRecord((offset, length) => files.range(`${kind}-offsets.txt`, offset, length), index, 2);
    if (record === undefined)
      throw new Error(`data/${kind}-offsets.txt has no line for ${what} (regenerate the server)`);
    return JSON.parse(files.range(`${kind}s.json`, record[0]!, record[1]!));
  };
  const definition = (index: number): unknown =>
    definitions ? definitions[index] : (someDefinitions[index] ??= item("definition", index, `definition ${index}`));
  const byName = new Map<string, ToolDefinition>();
  // A tool's line number is its place in the names: a scan for the first few look-ups (a map of
  // 22,000 names costs more than the first describe_operation may take), a map once they add up.
  let lookups = 0;
  let positions: Map<string, number> | undefined;
  const position = (name: string): number => {
    if (positions === undefined && ++lookups > POSITION_SCANS) positions = new Map(names.map((item, i) => [item, i]));
    return positions ? (positions.get(name) ?? -1) : names.indexOf(name);
  };
  return {
    names,
    indexOf: position,
    catalog: () => (catalog ??= JSON.parse(read("catalog.json")) as CatalogEntry[]),
    load: () =>
      (all ??= loadTools(
        JSON.parse(read("tools.json")) as StoredTool[],
        (definitions ??= JSON.parse(read("definitions.json")) as unknown[]),
      )),
    get: (name) => {
      let tool = byName.get(name);
      if (tool === undefined) {
        const index = position(name);
        if (index < 0) return undefined;
        const stored = item("tool", index, `tool ${name}`) as StoredTool;
        if (stored.name !== name)
          throw new Error(
            `data/tools.json does not hold tool ${name} where data/tool-offsets.txt says (regenerate the server)`,
          );
        const used: unknown[] = [];
        for (const index of Object.values(stored.defs ?? {})) used[index] = definition(index);
        tool = loadTools([stored], used)[0]!;
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
