import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmittedFile } from "../emit/project-files.js";

/** Where the manifest of generated files lives in the output folder. */
export const MANIFEST_PATH = ".mcp-gen/manifest.json";

/**
 * The tool-name lock: generated, but also an input of the next run (the user may edit it to rename
 * a tool), so it is never reported as a hand edit.
 */
export const TOOL_LOCK_PATH = ".mcp-gen/tool-names.json";

/** Snapshot of the tool contracts, the "old side" of the diff printed by the next regeneration. */
export const CONTRACT_PATH = ".mcp-gen/tools.json";

/**
 * `.mcp-gen/manifest.json`: every file the generator owns, with the sha256 of what it wrote, so the
 * next run can update exactly those, delete the stale ones and notice hand edits. No timestamps:
 * the same input gives a byte-identical manifest.
 */
export interface Manifest {
  /** Format of this file; bumped when its shape changes. */
  manifestVersion: 1;
  /** The generated package's name, kept by the next run unless `--name` says otherwise. */
  packageName: string;
  /** The generated package's version, the base of the next run's semver bump. */
  packageVersion: string;
  /** `--repository` of the run that wrote it, kept by the next run unless given again. */
  repository?: string;
  /** `--mcp-name` of the run that wrote it, kept likewise. */
  mcpName?: string;
  /** Generated files (path → sha256 hex), sorted by path; the manifest itself is not listed. */
  files: Record<string, string>;
  /** Files created once and then owned by the user (never overwritten, never deleted). */
  once: string[];
}

/** sha256 of a file's content, hex. */
export function sha256(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

/** Builds the manifest for a set of emitted files (which must not contain the manifest). */
export function buildManifest(
  files: EmittedFile[],
  settings: { packageName: string; packageVersion: string; repository?: string; mcpName?: string },
): Manifest {
  const owned = files.filter((f) => !f.once).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hashes: Record<string, string> = {};
  for (const file of owned) hashes[file.path] = sha256(file.content);
  const once = files.filter((f) => f.once).map((f) => f.path).sort();
  const { packageName, packageVersion, repository, mcpName } = settings;
  return { manifestVersion: 1, packageName, packageVersion, ...(repository ? { repository } : {}), ...(mcpName ? { mcpName } : {}), files: hashes, once };
}

/** The manifest as an emitted file (stable JSON, trailing newline). */
export function manifestFile(manifest: Manifest): EmittedFile {
  return { path: MANIFEST_PATH, content: JSON.stringify(manifest, null, 2) + "\n" };
}

/** Reads a JSON file of a previous generation in `dir`; undefined when absent or unreadable. */
export async function readStateFile<T>(dir: string, path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, ...path.split("/")), "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** The manifest of a previous generation in `dir`, when there is a valid one. */
export async function readManifest(dir: string): Promise<Manifest | undefined> {
  const manifest = await readStateFile<Manifest>(dir, MANIFEST_PATH);
  if (!manifest || manifest.manifestVersion !== 1 || typeof manifest.files !== "object" || manifest.files === null) return undefined;
  if (typeof manifest.packageName !== "string" || typeof manifest.packageVersion !== "string") return undefined;
  return { ...manifest, once: Array.isArray(manifest.once) ? manifest.once : [] };
}
