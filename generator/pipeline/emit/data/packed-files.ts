/**
 * The packed form of a large data file (read by runtime/src/data/packed-file.ts): its bytes in
 * blocks of PACKED_BLOCK_BYTES, each deflated (raw: no header that names the system), one line of base64 per block, and an offsets file
 * saying where each line is. Only files over {@link PACK_MIN_BYTES} are packed: smaller projects
 * keep plain JSON that diffs and reads well, and a server reads small files whole at no cost.
 */
import { deflateRawSync } from "node:zlib";
import { PACKED_BLOCK_BYTES } from "../../../shared/contract.js";
import type { EmittedFile } from "../emitted-file.js";
import { offsetsText } from "./data-files.js";

/**
 * Data files longer than this are packed (characters of text). MS Graph beta's declarations (120 MB),
 * tools (75 MB) and document (47 MB) are; GitHub's largest data file (about 12 MB) is not.
 */
export const PACK_MIN_BYTES = 16 * 2 ** 20;

/** The data files the runtime reads through packed-file.ts (whole, or by byte range). */
const PACKABLE = /^data\/(tools|definitions|declarations|catalog|tool-names|search-index|openapi)\.json$/;

/** `file` as its two packed files (`<path>.packed`, `<path>.packed-offsets.txt`). Deterministic. */
export function packedFile(file: EmittedFile): EmittedFile[] {
  const lines: string[] = [];
  const ranges: Array<[number, number]> = [];
  let offset = 0;
  for (const block of blocksOf(file.content)) {
    // Level 6 (zlib's default): level 9 saves 2 % more for twice the time.
    const line = deflateRawSync(block).toString("base64");
    lines.push(line);
    ranges.push([offset, line.length]);
    offset += line.length + 1;
  }
  return [
    { path: `${file.path}.packed`, content: lines.map((line) => `${line}\n`).join(""), formatted: true },
    { path: `${file.path}.packed-offsets.txt`, content: offsetsText(ranges), formatted: true },
  ];
}

/**
 * The UTF-8 bytes of `text` in blocks of PACKED_BLOCK_BYTES. ASCII text (the data files are written
 * so) is cut block by block, without a copy of the whole file's bytes (MS Graph beta: 120 MB).
 */
function* blocksOf(text: string): Generator<Buffer> {
  const bytes = /[^\x00-\x7f]/.test(text) ? Buffer.from(text, "utf8") : undefined;
  const length = bytes?.length ?? text.length;
  for (let start = 0; start < length; start += PACKED_BLOCK_BYTES) {
    const end = start + PACKED_BLOCK_BYTES;
    yield bytes ? bytes.subarray(start, end) : Buffer.from(text.slice(start, end), "latin1");
  }
}

/** `files` with each large data file the runtime can read packed replaced by its packed form. */
export function packLargeFiles(files: EmittedFile[], minBytes = PACK_MIN_BYTES): EmittedFile[] {
  return files.flatMap((file) =>
    PACKABLE.test(file.path) && file.content.length > minBytes ? packedFile(file) : [file],
  );
}
