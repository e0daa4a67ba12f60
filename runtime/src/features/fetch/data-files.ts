/**
 * The project's data/ files held in memory, for platforms without a file system (Workers): the
 * target's build bundles their text, and this reads them whole or by byte range (an offsets file's
 * record), as the Node entry reads them from disk.
 */
import type { DataFiles } from "../../data/tool-data.js";

/** The data/ files of a bundle, by name, with what a server's entry passes besides (readData, readDataRange). */
export interface BundledData extends DataFiles {
  /** A file's text; undefined when the bundle has none. */
  readData(file: string): string | undefined;
  /** `length` bytes of file `name` from `offset` (feature large-data reads one item of a file so). */
  range(name: string, offset: number, length: number): string;
}

/** Reads `files` (name → text); a byte range is cut from the file's UTF-8 bytes, encoded once. */
export function bundledData(files: Readonly<Record<string, string>>): BundledData {
  const bytes = new Map<string, Uint8Array>();
  const decoder = new TextDecoder();
  const read = (name: string): string => {
    const text = files[name];
    if (text === undefined) throw new Error(`data/${name} is not in the bundle (rebuild the server)`);
    return text;
  };
  return {
    read,
    readData: (file) => (Object.hasOwn(files, file) ? files[file] : undefined),
    range(name, offset, length) {
      let encoded = bytes.get(name);
      if (encoded === undefined) bytes.set(name, (encoded = new TextEncoder().encode(read(name))));
      return decoder.decode(encoded.subarray(offset, offset + length));
    },
  };
}
