/** Reads the file references of a call's arguments (`{"url"}`, `{"path"}`) into file content. */
import { getOwn, setOwn } from "../../protocol/own.js";
import { ArgumentError } from "../../upstream/serialize.js";
import { fileArguments, isFileReference, type FileContent, type ResolveUploads } from "../../upstream/upload-slot.js";
import { readAllowedFile } from "./path-upload.js";
import { fetchUpload, type UrlLimits } from "./url-upload.js";

/** What a server's uploads by reference may do. */
export interface UploadSettings extends UrlLimits {
  /** The real path of the folder `{"path"}` reads from; undefined: paths are refused. */
  root?: string | undefined;
  /** Why paths are refused when `root` is undefined (told to the caller). */
  pathsOff: string;
}

/** The resolver of a server: each reference read in turn, its errors prefixed with the argument's name. */
export function uploadResolver(settings: UploadSettings): ResolveUploads {
  return async (binding, args, signal) => {
    const read: Record<string, unknown> = { ...args };
    for (const argument of fileArguments(binding)) {
      const value = getOwn(args, argument);
      if (!isFileReference(value)) continue;
      try {
        setOwn(read, argument, await readReference(value, settings, signal));
      } catch (error) {
        if (error instanceof ArgumentError) throw new ArgumentError(`'${argument}': ${error.message}`);
        throw error;
      }
    }
    return read;
  };
}

function readReference(
  reference: { url?: unknown; path?: unknown },
  settings: UploadSettings,
  signal: AbortSignal | undefined,
): Promise<FileContent> {
  if (reference.url !== undefined && reference.path !== undefined)
    throw new ArgumentError('give either {"url"} or {"path"}, not both');
  if (typeof reference.url === "string") return fetchUpload(reference.url, settings, signal);
  if (settings.root === undefined) throw new ArgumentError(settings.pathsOff);
  return readAllowedFile(reference.path as string, settings.root, settings.maxBytes);
}
