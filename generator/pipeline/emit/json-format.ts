/**
 * prettier's JSON layout, printed here for the JSON files the emit stage writes with
 * `JSON.stringify(value, null, 2)` (package.json, tsconfig.json, server.json…), so that a
 * generation whose other files are left as printed (a big API, see format.ts) never loads
 * prettier (~0.1 CPU-s on GitHub, for four small files).
 *
 * From such a text, prettier's `json` parser keeps every non-empty object expanded (a line break
 * follows its `{`), prints a string, number, boolean or null as written, and puts an array of
 * such values on one line when it fits in the print width, else one value per line; an array
 * holding an expanded object is expanded too. What this module does not know to print as
 * prettier does (an array of numbers, which prettier fills line by line; nested arrays; an empty
 * object in an array; a line whose width depends on wide characters) makes it answer undefined,
 * and prettier formats the file. test/unit/json-format.ts compares both.
 */

/** prettier's print width for generated files (format.ts uses it too). */
export const PRINT_WIDTH = 100;

/** Printable ASCII: one column per character, as prettier measures. */
const NARROW = /^[\x20-\x7e]*$/;

/**
 * The text prettier makes of `content` (JSON, with `parser: "json"` and the generated files'
 * options), when `content` is exactly `JSON.stringify(value, null, 2)` plus a newline and this
 * module knows the layout; else undefined.
 */
export function prettierJson(content: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (`${JSON.stringify(value, null, 2)}\n` !== content) return undefined;
  const printed = printValue(value, "", 0, false);
  return printed === undefined ? undefined : `${printed}\n`;
}

/**
 * One value whose first character is at `column` of a line indented by `indent` (-1: not known,
 * the key has wide characters); `comma`: a comma follows it on that line (it counts towards the width).
 */
function printValue(value: unknown, indent: string, column: number, comma: boolean): string | undefined {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return printArray(value, indent, column, comma);
  const keys = Object.keys(value);
  if (keys.length === 0) return "{}";
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [i, key] of keys.entries()) {
    const prefix = `${inner}${JSON.stringify(key)}: `;
    const column = NARROW.test(prefix) ? prefix.length : -1; // -1: unknown
    const printed = printValue((value as Record<string, unknown>)[key], inner, column, i < keys.length - 1);
    if (printed === undefined) return undefined;
    lines.push(prefix + printed);
  }
  return `{\n${lines.join(",\n")}\n${indent}}`;
}

function printArray(items: unknown[], indent: string, column: number, comma: boolean): string | undefined {
  if (items.length === 0) return "[]";
  const objects = items.filter((item) => typeof item === "object" && item !== null);
  if (items.some((item) => typeof item === "number" || Array.isArray(item))) return undefined;
  if (objects.some((item) => Object.keys(item as object).length === 0)) return undefined;
  if (objects.length === 0) {
    const flat = `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;
    if (!NARROW.test(flat) || column < 0) return undefined;
    if (column + flat.length + (comma ? 1 : 0) <= PRINT_WIDTH) return flat;
  }
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [i, item] of items.entries()) {
    const printed = printValue(item, inner, inner.length, i < items.length - 1);
    if (printed === undefined) return undefined;
    lines.push(inner + printed);
  }
  return `[\n${lines.join(",\n")}\n${indent}]`;
}
