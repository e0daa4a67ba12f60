/**
 * `data/declarations.json` (tool name → TypeScript declaration) with one operation per line, and
 * `data/declarations-index.json` (tool name → byte offset and length of that declaration's JSON
 * string in the first file). `describe_operation` reads one declaration by its range instead of
 * parsing them all (MS Graph beta: 113 MB); `openapi://declarations` serves the first file whole.
 */
import { asciiJson } from "./tool-data.js";

/** Both files' text, from the declarations in tool order (generation time). */
export function declarationFiles(declarations: Record<string, string>): { text: string; index: string } {
  const entries = Object.entries(declarations);
  const lines = ["{"];
  const ranges: Record<string, [number, number]> = {};
  let offset = 2; // "{\n"
  entries.forEach(([name, declaration], i) => {
    const key = `  ${asciiJson(name)}: `;
    const value = asciiJson(declaration);
    ranges[name] = [offset + key.length, value.length];
    const line = `${key}${value}${i < entries.length - 1 ? "," : ""}`;
    lines.push(line);
    offset += line.length + 1;
  });
  lines.push("}", "");
  const indexLines = Object.entries(ranges).map(([name, range], i, all) => `  ${asciiJson(name)}: ${JSON.stringify(range)}${i < all.length - 1 ? "," : ""}`);
  return { text: lines.join("\n"), index: entries.length === 0 ? "{}\n" : `{\n${indexLines.join("\n")}\n}\n` };
}

/**
 * A reader of single declarations: `readData` reads a whole data file (undefined when absent),
 * `readRange` a byte range of one. The index loads on the first call; a name it lacks (or a
 * project without an index) has no declaration.
 */
export function declarationReader(
  readData: (file: string) => string | undefined,
  readRange: (file: string, offset: number, length: number) => string,
): (name: string) => string | undefined {
  let index: Record<string, [number, number]> | undefined;
  return (name) => {
    if (index === undefined) {
      const text = readData("declarations-index.json");
      index = text === undefined ? {} : (JSON.parse(text) as Record<string, [number, number]>);
    }
    const range = Object.hasOwn(index, name) ? index[name] : undefined;
    if (range === undefined) return undefined;
    const value = JSON.parse(readRange("declarations.json", range[0], range[1])) as unknown;
    return typeof value === "string" ? value : undefined;
  };
}
