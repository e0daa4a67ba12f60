/**
 * The vendored runtime (`src/runtime/`) as one unit: the manifest records one hash for the folder,
 * so a regeneration compares the whole folder on disk with it, replaces it as a whole and deletes
 * what the new runtime no longer has.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { EmittedFile } from "../emit/emitted-file.js";
import { RUNTIME_DIR, treeSha256, type Manifest } from "../../shared/state-files.js";
import { sha256 } from "./manifest.js";

/** Whether a project path lies in the vendored runtime. */
export function isRuntimePath(path: string): boolean {
  return path.startsWith(RUNTIME_DIR);
}

/** Every file under `src/runtime/` in `dir` (project path → content); empty when the folder is absent. */
export async function readRuntimeTree(dir: string): Promise<Map<string, Buffer>> {
  const root = join(dir, ...RUNTIME_DIR.split("/"));
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const tree = new Map<string, Buffer>();
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    tree.set(RUNTIME_DIR + relative(root, path).split(sep).join("/"), await readFile(path));
  }
  return tree;
}

/** The hash the manifest records of a runtime folder read by {@link readRuntimeTree}. */
export function runtimeTreeSha256(tree: ReadonlyMap<string, Buffer>): string {
  return treeSha256([...tree].map(([path, content]) => [path, sha256(content)] as const));
}

/** Whether the runtime folder on disk holds exactly the emitted runtime files. */
export function sameTree(tree: ReadonlyMap<string, Buffer>, runtime: readonly EmittedFile[]): boolean {
  return (
    runtime.length === tree.size && runtime.every((file) => tree.get(file.path)?.equals(Buffer.from(file.content)))
  );
}

/**
 * The files of the previous generation in `dir`: its manifest's, and the runtime folder's on disk
 * when the manifest records the runtime as one unit (all of that folder is mcp-gen's).
 */
export async function previousFiles(dir: string, previous: Manifest | undefined): Promise<string[]> {
  const listed = Object.keys(previous?.files ?? {});
  if (previous?.runtimeSha256 === undefined) return listed;
  return [...listed, ...(await readRuntimeTree(dir)).keys()];
}
