/** Which arguments of a body carry file content, and which of their values are references. */
import { getOwn, isRecord } from "../../protocol/own.js";
import type { BodyBinding } from "../../api/types.js";

/** A reference a caller gives in place of file content. */
export type FileReference = { url: string } | { path: string };

/** The arguments of a body binding that carry file content (the generator offers references for these). */
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

/** The file arguments of the call given by reference (usually none). */
export function referencedArguments(binding: BodyBinding, args: Record<string, unknown>): string[] {
  return fileArguments(binding).filter((argument) => isFileReference(getOwn(args, argument)));
}
