/**
 * File arguments: the model passes file content as base64 or as a `data:` URI; a reference
 * (`{"url"}`, `{"path"}`) arrives here already read by feature `uploads`, as a FileContent.
 */
import { ArgumentError } from "../../upstream/serialize.js";

/** File content feature `uploads` read for a reference: no caller can send one (JSON has no class instances). */
export class FileContent {
  constructor(
    readonly data: Buffer,
    readonly mediaType?: string | undefined,
    readonly fileName?: string | undefined,
  ) {}
}

/** Decoded file content with what is known about it. */
export interface FileValue {
  data: Buffer;
  mediaType?: string | undefined;
  fileName?: string | undefined;
}

const DATA_URI = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** Decodes one file argument; throws ArgumentError for anything that is not base64, a data: URI or read content. */
export function decodeFile(value: unknown, argument: string): FileValue {
  if (value instanceof FileContent) return { data: value.data, mediaType: value.mediaType, fileName: value.fileName };
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
  if (looksLikePath(value))
    throw new ArgumentError(
      `'${argument}' looks like a file path; pass the content as base64 or a data: URI, or a reference {"path": "…"} when the server allows a folder (--upload-dir)`,
    );
  if (!BASE64.test(value)) throw new ArgumentError(`'${argument}' must be base64 content or a data: URI`);
  return { data: Buffer.from(value, "base64") };
}

/**
 * A `file:` URL, or a `/` path that is not base64: JPEG content starts `/9j/` in base64, so a value
 * of the base64 alphabet whose length is a multiple of 4 is content.
 */
function looksLikePath(value: string): boolean {
  if (value.startsWith("file:")) return true;
  return value.startsWith("/") && !(BASE64.test(value) && value.replace(/\s/g, "").length % 4 === 0);
}
