/**
 * File content given by reference (feature `uploads`): a file argument of a binary or multipart
 * body may be `{"url": …}` or `{"path": …}` instead of base64. Before the request is built, the
 * feature reads each reference into a {@link FileContent}, which feature `encodings` sends as it is.
 */
import { getOwn, isRecord } from "../protocol/own.js";
import type { BodyBinding } from "../api/types.js";

/** File content the server read for a reference: no caller can send one (JSON has no class instances). */
export class FileContent {
  constructor(
    readonly data: Buffer,
    readonly mediaType?: string | undefined,
    readonly fileName?: string | undefined,
  ) {}
}

/** A reference a caller gives in place of file content. */
export type FileReference = { url: string } | { path: string };

/** Reads every reference among the file arguments of `binding` in `args`; ArgumentError for a refused one. */
export type ResolveUploads = (
  binding: BodyBinding,
  args: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<Record<string, unknown>>;

/** The arguments of a body binding that carry file content. */
export function fileArguments(binding: BodyBinding): string[] {
  if (binding.kind === "whole") return binding.binary ? [binding.argument] : [];
  const files = binding.files ?? [];
  return Object.entries(binding.properties)
    .filter(([, property]) => files.includes(property))
    .map(([argument]) => argument);
}

/** Whether `value` is a reference (an object, where file content is a string). */
export function isFileReference(value: unknown): value is FileReference {
  return isRecord(value) && (typeof value.url === "string" || typeof value.path === "string");
}

/** Whether any file argument of the call is given by reference (the common call has none: no await added). */
export function hasFileReferences(binding: BodyBinding | undefined, args: Record<string, unknown>): boolean {
  return binding !== undefined && fileArguments(binding).some((argument) => isFileReference(getOwn(args, argument)));
}
