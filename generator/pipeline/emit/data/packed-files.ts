/**
 * The packed form of a large data file (read by runtime/src/features/large-data/packed-file.ts): its bytes in
 * blocks of PACKED_BLOCK_BYTES, each deflated (raw: no header that names the system), one line of base64 per block, and an offsets file
 * saying where each line is. Only files over {@link PACK_MIN_BYTES} are packed, and only in a project
 * with feature `large-data` (whose reader it is): smaller projects keep plain JSON that diffs and
 * reads well, and a server reads small files whole at no cost.
 * A file can be written piece by piece (`DataFileWriter`), so the whole text of a large one never
 * exists at once.
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

/** Characters above which the data files of a project with `features` are packed: none without feature `large-data`. */
export function packAbove(features: readonly string[]): number {
  return features.includes("large-data") ? PACK_MIN_BYTES : Infinity;
}

/** The data files the runtime reads through packed-file.ts (whole, or by byte range). */
const PACKABLE = /^data\/(tools|definitions|declarations|catalog|tool-names|search-index|openapi)\.json$/;

/**
 * Packs text written to it in pieces: its UTF-8 bytes cut into blocks of PACKED_BLOCK_BYTES where
 * the bytes fall, whatever the pieces (a character may straddle two blocks: the runtime joins the
 * bytes before decoding), each block deflated as soon as it is full.
 */
class BlockPacker {
  private readonly block = Buffer.alloc(PACKED_BLOCK_BYTES);
  private filled = 0;
  private readonly lines: string[] = [];
  private readonly ranges: Array<[number, number]> = [];
  private offset = 0;

  /** Adds `text`, a block's worth of characters at a time (never a copy of a long text's bytes). */
  write(text: string): void {
    for (let start = 0; start < text.length; ) {
      let end = Math.min(text.length, start + PACKED_BLOCK_BYTES);
      // A surrogate pair's halves encoded apart would each become a replacement character.
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end++;
      this.writeBytes(Buffer.from(text.slice(start, end), "utf8"));
      start = end;
    }
  }

  /** The packed file and its offsets, for `path`; the last block is flushed. */
  files(path: string): EmittedFile[] {
    this.flush();
    return [
      { path: `${path}.packed`, content: this.lines.map((line) => `${line}\n`).join(""), formatted: true },
      { path: `${path}.packed-offsets.txt`, content: offsetsText(this.ranges), formatted: true },
    ];
  }

  private writeBytes(bytes: Buffer): void {
    for (let at = 0; at < bytes.length; ) {
      const copied = bytes.copy(this.block, this.filled, at, at + PACKED_BLOCK_BYTES - this.filled);
      this.filled += copied;
      at += copied;
      if (this.filled === PACKED_BLOCK_BYTES) this.flush();
    }
  }

  private flush(): void {
    if (this.filled === 0) return;
    // Level 6 (zlib's default): level 9 saves 2 % more for twice the time.
    const line = deflateRawSync(this.block.subarray(0, this.filled)).toString("base64");
    this.lines.push(line);
    this.ranges.push([this.offset, line.length]);
    this.offset += line.length + 1;
    this.filled = 0;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** `file` as its two packed files (`<path>.packed`, `<path>.packed-offsets.txt`). Deterministic. */
export function packedFile(file: EmittedFile): EmittedFile[] {
  const packer = new BlockPacker();
  packer.write(file.content);
  return packer.files(file.path);
}

/** `files` with each large data file the runtime can read packed replaced by its packed form. */
export function packLargeFiles(files: EmittedFile[], minBytes = PACK_MIN_BYTES): EmittedFile[] {
  return files.flatMap((file) =>
    PACKABLE.test(file.path) && file.content.length > minBytes ? packedFile(file) : [file],
  );
}

/**
 * A data file written piece by piece: the same files as `packLargeFiles` of the joined text, but
 * once the text passes the size limit its blocks are packed as they fill, so neither the whole
 * text nor the list of its pieces is ever held (MS Graph beta's declarations: 120 MB of text).
 */
export class DataFileWriter {
  private pieces: string[] = [];
  private length = 0;
  private packer: BlockPacker | undefined;
  private readonly packAbove: number;

  /** A writer of the data file at `path` (packed when the runtime reads it packed and it passes `minBytes`). */
  constructor(
    private readonly path: string,
    minBytes = PACK_MIN_BYTES,
  ) {
    this.packAbove = PACKABLE.test(path) ? minBytes : Infinity;
  }

  /** Appends `text` to the file. */
  write(text: string): void {
    if (this.packer) return this.packer.write(text);
    this.pieces.push(text);
    this.length += text.length;
    if (this.length <= this.packAbove) return;
    this.packer = new BlockPacker();
    for (const piece of this.pieces) this.packer.write(piece);
    this.pieces = [];
  }

  /** The file as written: plain, or its two packed files. */
  files(): EmittedFile[] {
    if (this.packer) return this.packer.files(this.path);
    return [{ path: this.path, content: this.pieces.join(""), formatted: true }];
  }
}
