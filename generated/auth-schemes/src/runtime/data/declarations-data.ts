// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * `data/declarations.json` (tool name → TypeScript declaration) with one operation per line, and
 * `data/declaration-offsets.txt` (line i: byte offset and length of tool i's declaration, as a
 * JSON string, in the first file; length 0 when it has none; see offsets-file.ts).
 * `describe_operation` reads one declaration by its range instead of parsing them all (MS Graph
 * beta: 113 MB); `openapi://declarations` serves the first file whole.
 */
import { offsetsText, readRecord } from "./offsets-file.js";
import { asciiJson, memberLines } from "./tool-data.js";

/** Both files' text, from the declarations and the tool names in tool order (generation time). */
export function declarationFiles(
  declarations: Record<string, string>,
  toolNames: readonly string[],
): { text: string; offsets: string } {
  const entries = Object.entries(declarations);
  const { text, ranges } = memberLines(
    "{",
    "}",
    entries.map(([name, declaration]) => ({ prefix: `${asciiJson(name)}: `, json: asciiJson(declaration) })),
  );
  const byName = new Map(entries.map(([name], index) => [name, ranges[index]!]));
  return { text, offsets: offsetsText(toolNames.map((name) => byName.get(name) ?? [0, 0])) };
}

/**
 * A reader of single declarations: `indexOf` gives a tool's position in tool order (-1: none),
 * `readRange` a byte range of a data file. A tool without a declaration (or a project without
 * the offsets file) has none.
 */
export function declarationReader(
  indexOf: (name: string) => number,
  readRange: (file: string, offset: number, length: number) => string,
): (name: string) => string | undefined {
  return (name) => {
    const index = indexOf(name);
    if (index < 0) return undefined;
    let record: number[] | undefined;
    try {
      record = readRecord((offset, length) => readRange("declaration-offsets.txt", offset, length), index, 2);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    if (record === undefined || record[1] === 0) return undefined;
    const value = JSON.parse(readRange("declarations.json", record[0]!, record[1]!)) as unknown;
    return typeof value === "string" ? value : undefined;
  };
}
