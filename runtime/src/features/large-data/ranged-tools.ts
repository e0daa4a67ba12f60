/**
 * A large API's tool source: one tool read by byte range where `data/tool-offsets.txt` says it is,
 * with only the shared `$defs` bodies it uses (`data/definition-offsets.txt`), so a server of
 * thousands of tools answers its first call without parsing the whole tools file. The files may be
 * stored packed (packed-file.ts).
 */
import type { ToolDefinition } from "../../api/types.js";
import {
  dataFolder,
  dataToolSource,
  folderFiles,
  loadTools,
  type DataFiles,
  type StoredTool,
  type ToolSource,
} from "../../data/tool-data.js";
import { readRecord } from "./offsets-file.js";
import { readDataText, readRange } from "./packed-file.js";

/** Reads the files of data/: whole, or a byte range (one record of a large file). */
export interface RangedDataFiles extends DataFiles {
  range(name: string, offset: number, length: number): string;
}

/** Look-ups by scanning the names before a tool source builds a map of them. */
const POSITION_SCANS = 64;

/** The files of the `data/` folder `dir` on disk, packed or plain. */
function packedFolderFiles(dir: string | URL): RangedDataFiles {
  const folder = dataFolder(dir);
  return {
    read: folderFiles(folder, readDataText).read,
    range: (name, offset, length) => readRange(new URL(name, folder), offset, length),
  };
}

/**
 * A tool source over the files of the `data/` folder `dir` (tool-names.json now, one tool by range
 * when first asked for, the others whole when all are needed), or over `RangedDataFiles` held
 * elsewhere (a Worker's bundle, feature `fetch`).
 */
export function rangedToolSource(dir: string | URL | RangedDataFiles): ToolSource {
  const files = typeof dir === "string" || dir instanceof URL ? packedFolderFiles(dir) : dir;
  const whole = dataToolSource(files);
  const { names } = whole;
  // Definitions read one by one, kept so that tools share them in memory.
  const definitions: unknown[] = [];
  /** Item `index` of `data/<kind>s.json`, where `data/<kind>-offsets.txt` says it is (`what` names it in errors). */
  const item = (kind: "tool" | "definition", index: number, what: string): unknown => {
    const record = readRecord((offset, length) => files.range(`${kind}-offsets.txt`, offset, length), index, 2);
    if (record === undefined)
      throw new Error(`data/${kind}-offsets.txt has no line for ${what} (regenerate the server)`);
    return JSON.parse(files.range(`${kind}s.json`, record[0]!, record[1]!));
  };
  const byName = new Map<string, ToolDefinition>();
  // A tool's line number is its place in the names: a scan for the first few look-ups (a map of
  // 22,000 names costs more than the first describe_operation may take), a map once they add up.
  let lookups = 0;
  let positions: Map<string, number> | undefined;
  const position = (name: string): number => {
    if (positions === undefined && ++lookups > POSITION_SCANS) positions = new Map(names.map((item, i) => [item, i]));
    return positions ? (positions.get(name) ?? -1) : names.indexOf(name);
  };
  const read = (name: string): ToolDefinition | undefined => {
    const index = position(name);
    if (index < 0) return undefined;
    const stored = item("tool", index, `tool ${name}`) as StoredTool;
    if (stored.name !== name)
      throw new Error(
        `data/tools.json does not hold tool ${name} where data/tool-offsets.txt says (regenerate the server)`,
      );
    const used: unknown[] = [];
    for (const index of Object.values(stored.defs ?? {}))
      used[index] = definitions[index] ??= item("definition", index, `definition ${index}`);
    return loadTools([stored], used)[0];
  };
  return {
    ...whole,
    indexOf: position,
    get: (name) => {
      let tool = byName.get(name);
      if (tool === undefined && (tool = read(name)) !== undefined) byName.set(name, tool);
      return tool;
    },
  };
}
