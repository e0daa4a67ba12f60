/**
 * Writing the data files of a generated project (`data/tools.json` and `definitions.json` one item
 * per line, `declarations.json` one member per line, the fixed-width `*-offsets.txt`, `catalog.json`)
 * in the form the runtime reads them (runtime/src/data/): generation-time code, so it is not
 * vendored into the servers. test/unit/tool-data.ts reads what this writes through the runtime.
 */
import { OFFSET_DIGITS, type CatalogEntry, type StoredTool, type ToolDefinition } from "../../../shared/contract.js";

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
  const { items, definitions } = shareDefinitions(tools);
  return { tools: items as StoredTool[], definitions };
}

/**
 * `storeTools` for anything with an `inputSchema` (tool definitions, the contract snapshot): each
 * item's `$defs` replaced by `defs`, name → index into `definitions`, placed right after the
 * schema it completes. Items without `$defs` are returned as they are.
 */
export function shareDefinitions<T extends { inputSchema: unknown }>(
  tools: readonly T[],
): { items: Array<T & { defs?: Record<string, number> }>; definitions: unknown[] } {
  const definitions: unknown[] = [];
  const indexOf = new Map<string, number>();
  // The plan's tools share body objects: each is written out once (MS Graph beta: 133 MB of text
  // when written per tool, 3 MB per object), and bodies equal as text still share one index.
  const textOf = new Map<unknown, string>();
  const items = tools.map((tool) => {
    const { $defs, ...inputSchema } = tool.inputSchema as { $defs?: Record<string, unknown> };
    if ($defs === undefined) return tool;
    const defs: Record<string, number> = {};
    for (const [name, body] of Object.entries($defs)) {
      let text = textOf.get(body);
      if (text === undefined) textOf.set(body, (text = JSON.stringify(body)));
      let index = indexOf.get(text);
      if (index === undefined) {
        index = definitions.push(body) - 1;
        indexOf.set(text, index);
      }
      defs[name] = index;
    }
    // `defs` goes right after the schema it completes, so a reader of the file finds it there.
    const entries = Object.entries(tool).flatMap(([key, value]) =>
      key === "inputSchema"
        ? [
            [key, inputSchema],
            ["defs", defs],
          ]
        : [[key, value]],
    );
    return Object.fromEntries(entries) as T & { defs: Record<string, number> };
  });
  return { items, definitions };
}

/** Where a data file's text goes, piece by piece (a string list, or packed-files.ts `DataFileWriter`). */
export interface TextSink {
  write(text: string): void;
}

/**
 * A JSON file with one member per line (`open`, the members, `close`), written to `out` line by
 * line, each member made from its item when its line is written (so a large file's members never
 * all exist at once); returns where each member's JSON begins after its `prefix` (`"name": ` in
 * an object; nothing in an array): the files of `data/` that the server reads one member at a time.
 */
export function writeMemberLines<T>(
  out: TextSink,
  open: string,
  close: string,
  items: readonly T[],
  member: (item: T) => { prefix: string; json: string },
): Array<[offset: number, length: number]> {
  const ranges: Array<[number, number]> = [];
  out.write(`${open}\n`);
  let offset = open.length + 1;
  items.forEach((item, index) => {
    const { prefix, json } = member(item);
    const line = `  ${prefix}${json}${index < items.length - 1 ? "," : ""}\n`;
    ranges.push([offset + 2 + prefix.length, json.length]);
    out.write(line);
    offset += line.length;
  });
  out.write(`${close}\n`);
  return ranges;
}

/** `writeMemberLines` into one text. */
export function memberLines(
  open: string,
  close: string,
  members: ReadonlyArray<{ prefix: string; json: string }>,
): { text: string; ranges: Array<[offset: number, length: number]> } {
  const pieces: string[] = [];
  const ranges = writeMemberLines({ write: (text) => pieces.push(text) }, open, close, members, (member) => member);
  return { text: pieces.join(""), ranges };
}

/** A JSON array with one item per line, and each item's byte range: `data/tools.json`, `data/definitions.json`. */
export function jsonLines(items: readonly unknown[]): {
  text: string;
  ranges: Array<[offset: number, length: number]>;
} {
  const pieces: string[] = [];
  const ranges = writeJsonLines({ write: (text) => pieces.push(text) }, items);
  return { text: pieces.join(""), ranges };
}

/** `jsonLines` written to `out`; returns each item's byte range. */
export function writeJsonLines(out: TextSink, items: readonly unknown[]): Array<[offset: number, length: number]> {
  return writeMemberLines(out, "[", "]", items, (item) => ({ prefix: "", json: asciiJson(item) }));
}

/**
 * JSON with every non-ASCII character written as a `\\u` escape: the same value, one byte per
 * character, so string offsets are byte offsets (and V8 keeps the text at one byte per character).
 */
export function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  // Most items are ASCII already: a test is cheaper than a replace that finds nothing.
  if (!NON_ASCII.test(json)) return json;
  return json.replace(NON_ASCII_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;

/** The catalog of these tools (generation time). */
export function catalogOf(tools: readonly ToolDefinition[]): CatalogEntry[] {
  return tools.map((tool) => [tool.name, tool.http.method, tool.http.path, tool.tags ?? []]);
}

/**
 * The files of `data/` that hold the tool definitions, from their stored form (generation time):
 * `tools.json` and `definitions.json` one item per line, and where each item is.
 */
export function toolDataFiles(stored: StoredTools): {
  tools: string;
  toolOffsets: string;
  definitions: string;
  definitionOffsets: string;
} {
  const tools: string[] = [];
  const definitions: string[] = [];
  const offsets = writeToolData(
    stored,
    { write: (text) => tools.push(text) },
    { write: (text) => definitions.push(text) },
  );
  return { tools: tools.join(""), definitions: definitions.join(""), ...offsets };
}

/** `toolDataFiles` with `tools.json` and `definitions.json` written to `tools` and `definitions`; returns their offsets files. */
export function writeToolData(
  stored: StoredTools,
  tools: TextSink,
  definitions: TextSink,
): { toolOffsets: string; definitionOffsets: string } {
  const toolOffsets = offsetsText(writeJsonLines(tools, stored.tools));
  return { toolOffsets, definitionOffsets: offsetsText(writeJsonLines(definitions, stored.definitions)) };
}

/** One number of an offsets record, padded: `1234` → `0000001234`. */
function padded(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value >= 10 ** OFFSET_DIGITS)
    throw new RangeError(`offset ${value} does not fit ${OFFSET_DIGITS} digits`);
  return String(value).padStart(OFFSET_DIGITS, "0");
}

/** The text of an offsets file: one line per record, every record with the same number of fields. */
export function offsetsText(records: ReadonlyArray<readonly number[]>): string {
  return records.map((record) => `${record.map(padded).join(" ")}\n`).join("");
}

/** Both files' text, from the declarations and the tool names in tool order (generation time). */
export function declarationFiles(
  declarations: Record<string, string>,
  toolNames: readonly string[],
): { text: string; offsets: string } {
  const pieces: string[] = [];
  const offsets = writeDeclarations({ write: (text) => pieces.push(text) }, declarations, toolNames);
  return { text: pieces.join(""), offsets };
}

/**
 * The declarations file (tool name → declaration, one per line) written to `out`; returns the text
 * of its offsets file (where each tool's is, in tool order).
 */
export function writeDeclarations(
  out: TextSink,
  declarations: Record<string, string>,
  toolNames: readonly string[],
): string {
  const entries = Object.entries(declarations);
  const ranges = writeMemberLines(out, "{", "}", entries, ([name, declaration]) => ({
    prefix: `${asciiJson(name)}: `,
    json: asciiJson(declaration),
  }));
  const byName = new Map(entries.map(([name], index) => [name, ranges[index]!]));
  return offsetsText(toolNames.map((name) => byName.get(name) ?? [0, 0]));
}
