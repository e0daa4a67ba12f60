/**
 * `data/declarations.json` (tool name → TypeScript declaration) with one operation per line, and
 * `data/declaration-offsets.txt` (line i: byte offset and length of tool i's declaration, as a
 * JSON string, in the first file; length 0 when it has none; see offsets-file.ts).
 * `describe_operation` reads one declaration by its range instead of parsing them all (MS Graph
 * beta: 113 MB); `openapi://declarations` serves the first file whole.
 */
import { readRecord } from "./offsets-file.js";

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
