/** Reads the file references of a call's arguments (`{"url"}`, `{"path"}`) into file content. */
import { getOwn, setOwn } from "../../protocol/own.js";
import type { ResolveUploads } from "../../upstream/body.js";
import { ArgumentError } from "../../upstream/serialize.js";
import type { FileContent } from "../encodings/files.js";
import { referencedArguments, type FileReference } from "./file-arguments.js";
import { readAllowedFile } from "./path-upload.js";
import { fetchUpload, type UrlLimits } from "./url-upload.js";

/** What a server's uploads by reference may do. */
export interface UploadSettings extends UrlLimits {
  /** The real path of the folder `{"path"}` reads from; undefined: paths are refused. */
  root?: string | undefined;
  /** Why paths are refused when `root` is undefined (told to the caller). */
  pathsOff: string;
}

/** The resolver of a server: the arguments as they are without references (synchronously), else each read in turn. */
export function uploadResolver(settings: UploadSettings): ResolveUploads {
  return (binding, args, cancellation) => {
    const referenced = referencedArguments(binding, args);
    return referenced.length === 0 ? args : readAll(args, referenced, settings, cancellation?.signal);
  };
}

/** The arguments with each referenced one read; errors prefixed with the argument's name. */
async function readAll(
  args: Record<string, unknown>,
  referenced: string[],
  settings: UploadSettings,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const read: Record<string, unknown> = { ...args };
  for (const argument of referenced) {
    try {
      setOwn(read, argument, await readReference(getOwn(args, argument) as FileReference, settings, signal));
    } catch (error) {
      if (error instanceof ArgumentError) throw new ArgumentError(`'${argument}': ${error.message}`);
      throw error;
    }
  }
  return read;
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
