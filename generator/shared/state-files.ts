/**
 * The generator's own state in an output folder (`.mcp-gen/`): where each file lives and the
 * manifest's shape. Shared by the stages that read it (load: the previous generation), write it
 * (emit, write) and compare with it (write).
 */
import { createHash } from "node:crypto";

/** Where the manifest of generated files lives in the output folder. */
export const MANIFEST_PATH = ".mcp-gen/manifest.json";

/**
 * The tool-name lock: generated, but also an input of the next run (the user may edit it to rename
 * a tool), so it is never reported as a hand edit.
 */
export const TOOL_LOCK_PATH = ".mcp-gen/tool-names.json";

/**
 * The vendored runtime: mcp-gen's as one unit (the user's code goes to `src/custom/`, feature
 * `custom`), so the manifest records one hash for the whole folder (`Manifest.runtimeSha256`).
 */
export const RUNTIME_DIR = "src/runtime/";

/**
 * sha256 (hex) of a folder's files given as path → sha256 of the content: over the sorted paths and
 * their hashes, so the same files give the same hash whatever order they are listed or read in.
 */
export function treeSha256(hashes: Iterable<readonly [path: string, sha256: string]>): string {
  const lines = [...hashes].map(([path, sha256]) => `${path}\0${sha256}\n`);
  return createHash("sha256")
    .update(lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(""))
    .digest("hex");
}

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
  /** The mcp-gen that wrote the project (absent in manifests written before provenance was recorded). */
  mcpGenVersion?: string;
  /** The version of the runtime vendored in `src/runtime/` (its files' first line names it too). */
  runtimeVersion?: string;
  /** sha256 (hex) of the spec file as read, the main document only (not the files its `$ref`s bundle). */
  specSha256?: string;
  /** `--repository` of the run that wrote it, kept by the next run unless given again. */
  repository?: string;
  /** `--mcp-name` of the run that wrote it, kept likewise. */
  mcpName?: string;
  /** `--surface` of the run that wrote it, kept likewise. */
  surface?: "all" | "search" | "code" | "auto";
  /** `--result-budget` of the run that wrote it, kept likewise. */
  resultBudget?: number;
  /** `--with` of the run that wrote it (the features asked for, not those added for them), kept likewise. */
  features?: string[];
  /** `--target` of the run that wrote it (absent: node alone), kept likewise. */
  targets?: string[];
  /**
   * `--overlay` of the run that wrote it, in order, kept likewise: each path relative to the output
   * folder (`/`-separated; a URL as given) and the sha256 of its text, so `--check` sees an edited overlay.
   */
  overlays?: OverlayRecord[];
  /**
   * The vendored runtime's files under {@link RUNTIME_DIR}, hashed as one tree ({@link treeSha256}).
   * Absent in manifests written before: those list the runtime's files in `files` one by one
   * (`readManifest` turns them into this hash).
   */
  runtimeSha256?: string;
  /**
   * Generated files (path → sha256 hex), sorted by path; neither the manifest itself nor the
   * vendored runtime (see `runtimeSha256`) is listed.
   */
  files: Record<string, string>;
  /** Files created once and then owned by the user (never overwritten, never deleted). */
  once: string[];
}

/** One overlay a generation applied (see `Manifest.overlays`). */
export interface OverlayRecord {
  path: string;
  sha256: string;
}
