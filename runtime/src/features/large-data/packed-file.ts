/**
 * Data files stored packed (a large API's `data/*.json`: MS Graph beta's declarations are 120 MB
 * as text, 15 MB packed). `<file>.packed` holds the file's bytes in blocks of {@link PACKED_BLOCK_BYTES},
 * each deflated (raw) and written as one line of base64 (text, so every tool that handles the project's
 * files handles it); `<file>.packed-offsets.txt` says where each line is (offsets-file.ts). A byte
 * range of the file is read by inflating only the blocks that hold it. Readers here take either form.
 */
import { existsSync, readFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";
import { readBytes, readRecord } from "./offsets-file.js";

/** Bytes of the file per block (the last block may be shorter). */
export const PACKED_BLOCK_BYTES = 65_536;

/** The packed form's two files, beside where `file` would be. */
export function packedFiles(file: URL): { blocks: URL; offsets: URL } {
  return { blocks: new URL(`${file.href}.packed`), offsets: new URL(`${file.href}.packed-offsets.txt`) };
}

/** Base64 lines of deflated blocks, inflated and joined. */
function inflateLines(lines: string): Buffer {
  const blocks = lines
    .split("\n")
    .flatMap((line) => (line === "" ? [] : [inflateRawSync(Buffer.from(line, "base64"))]));
  return Buffer.concat(blocks);
}

/** The whole text of data file `file`, plain or packed; undefined when it is neither. */
export function readDataText(file: URL): string | undefined {
  if (existsSync(file)) return readFileSync(file, "utf8");
  const { blocks } = packedFiles(file);
  return existsSync(blocks) ? inflateLines(readFileSync(blocks, "latin1")).toString("utf8") : undefined;
}

/** Whether each file read by range is plain (checked once per file: a server's files do not change under it). */
const plainFiles = new Map<string, boolean>();

/** `length` bytes of data file `file` (plain or packed) from `offset`, as UTF-8 text. */
export function readRange(file: URL, offset: number, length: number): string {
  let plain = plainFiles.get(file.href);
  if (plain === undefined) plainFiles.set(file.href, (plain = existsSync(file)));
  return plain ? readBytes(file, offset, length).toString("utf8") : readPackedRange(file, offset, length);
}

/** `length` bytes of packed file `file` from `offset`, as UTF-8 text: only the blocks that hold them are read. */
export function readPackedRange(file: URL, offset: number, length: number): string {
  if (length <= 0) return "";
  const { blocks, offsets } = packedFiles(file);
  const record = (block: number): number[] => {
    const found = readRecord((at, size) => readBytes(offsets, at, size).toString("latin1"), block, 2);
    if (found === undefined) throw new Error(`${offsets.pathname} has no block ${block} (regenerate the server)`);
    return found;
  };
  const first = Math.floor(offset / PACKED_BLOCK_BYTES);
  const [start] = record(first);
  const [end, endLength] = record(Math.floor((offset + length - 1) / PACKED_BLOCK_BYTES));
  const from = offset - first * PACKED_BLOCK_BYTES;
  const lines = readBytes(blocks, start!, end! + endLength! - start!).toString("latin1");
  return inflateLines(lines).toString("utf8", from, from + length);
}
