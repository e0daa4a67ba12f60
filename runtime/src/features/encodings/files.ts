/**
 * File arguments: the model passes file content as base64 or as a `data:` URI. Reading local file
 * paths is off unless the server runs with `MCP_GEN_ALLOW_FILE_READ=1` (files only, never folders).
 */
import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { ArgumentError } from "../../upstream/serialize.js";

/** Decoded file content with what is known about it. */
export interface FileValue {
  data: Buffer;
  mediaType?: string | undefined;
  fileName?: string | undefined;
}

/** Options of file decoding. */
export interface FileOptions {
  /** Allow `file:` URLs / absolute paths to be read from the local disk. */
  allowFileRead?: boolean | undefined;
}

const DATA_URI = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** Decodes one file argument; throws ArgumentError for anything that is not base64 or a data: URI. */
export function decodeFile(value: unknown, argument: string, options: FileOptions = {}): FileValue {
  if (typeof value !== "string")
    throw new ArgumentError(`'${argument}' must be a string: base64 content or a data: URI`);
  const match = DATA_URI.exec(value);
  if (match) {
    const mediaType = match[1] || undefined;
    const name = /;name=([^;]+)/.exec(match[2] ?? "")?.[1];
    const payload = match[4] ?? "";
    const data = match[3] ? Buffer.from(payload, "base64") : Buffer.from(decodeURIComponent(payload), "utf8");
    return { data, mediaType, fileName: name ? decodeURIComponent(name) : undefined };
  }
  if (value.startsWith("file:") || value.startsWith("/")) {
    if (!options.allowFileRead) {
      throw new ArgumentError(
        `'${argument}' looks like a file path; pass the content as base64 or a data: URI (reading local files needs --allow-file-read)`,
      );
    }
    const path = value.startsWith("file:") ? new URL(value).pathname : value;
    if (!statSync(path).isFile()) throw new ArgumentError(`'${argument}': ${path} is not a file`);
    return { data: readFileSync(path), fileName: basename(path) };
  }
  if (!BASE64.test(value)) throw new ArgumentError(`'${argument}' must be base64 content or a data: URI`);
  return { data: Buffer.from(value, "base64") };
}
