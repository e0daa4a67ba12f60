/**
 * A file given as `{"path": "…"}`: only over stdio, only when the server was started with an
 * allowed folder (`--upload-dir`), and only a regular file that is inside that folder once every
 * symlink is resolved. A path is read relative to the folder; one that leaves it on its face
 * (`../x`, another absolute path) is refused before the disk is touched, so the refusal tells
 * nothing about files outside.
 */
import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import { ArgumentError } from "../../upstream/serialize.js";
import { FileContent } from "../encodings/files.js";

/** Whether `path` is `root` itself or leaves it (`..`, another drive or root). */
function outside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

const OUTSIDE = "the path is outside the folder the server allows uploads from";

/** Reads the file at `given` inside `root` (a real path: resolved once at start), at most `maxBytes`. */
export async function readAllowedFile(given: string, root: string, maxBytes: number): Promise<FileContent> {
  if (given.includes("\0")) throw new ArgumentError("a file path must not contain NUL");
  const lexical = resolve(root, given);
  if (outside(root, lexical)) throw new ArgumentError(OUTSIDE);
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    throw new ArgumentError(`no file ${JSON.stringify(given)} in the folder the server allows uploads from`);
  }
  if (outside(root, real)) throw new ArgumentError(OUTSIDE);
  // Opened once, then checked and read through the same handle: no swap between check and read
  // (non-blocking, so that a FIFO in the folder cannot hang the call).
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ArgumentError(`${JSON.stringify(given)} is not a file`);
    if (stat.size > maxBytes) throw new ArgumentError(`the file is larger than the upload limit of ${maxBytes} bytes`);
    const data = await handle.readFile();
    if (data.length > maxBytes)
      throw new ArgumentError(`the file is larger than the upload limit of ${maxBytes} bytes`);
    return new FileContent(data, undefined, basename(lexical));
  } finally {
    await handle.close();
  }
}
