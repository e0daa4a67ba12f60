import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmittedFile } from "../emit/emitted-file.js";
import { MANIFEST_PATH, RUNTIME_DIR, TOOL_LOCK_PATH, type Manifest } from "../../shared/state-files.js";
import { sha256 } from "./manifest.js";
import { isRuntimePath, readRuntimeTree, runtimeTreeSha256, sameTree } from "./runtime-tree.js";

/** A file the run may not overwrite or delete without `--force`. */
export interface WriteConflict {
  path: string;
  /**
   * `edited`: a generated file changed by hand; `foreign`: a file the generator never wrote is in the
   * way; `runtime`: the vendored runtime (path `src/runtime/`) had a file edited, added or removed.
   */
  reason: "edited" | "foreign" | "runtime";
}

/** What applying a generation to an existing folder will do, decided before anything is touched. */
export interface UpdatePlan {
  /** Files to create or replace (new, changed, missing, or once-files that are absent). */
  write: EmittedFile[];
  /** Generated files of the previous run that this run no longer produces. */
  delete: string[];
  /** Generated files already up to date, and once-files left as the user has them. */
  unchanged: string[];
  /** Files that block the run unless `--force`. */
  conflicts: WriteConflict[];
  /** Folders replaced as a whole (the vendored runtime): all their files are in `write`, their stale ones in `delete`. */
  trees?: string[];
}

async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/**
 * Compares the emitted files with the folder and the previous manifest. A file on disk may be
 * replaced when it is what the previous run wrote (its hash is in the manifest) or already what this
 * run writes (so an interrupted run can simply be repeated); anything else is a conflict. The manifest
 * and the tool-name lock are generator state and always rewritten, and so are files whose new content
 * already merges the user's edits (`merged`: package.json). The vendored runtime, recorded as one
 * hash, is compared and replaced as one folder. Reads only; never writes.
 */
export async function planUpdate(
  target: string,
  files: EmittedFile[],
  previous: Manifest | undefined,
): Promise<UpdatePlan> {
  const plan: UpdatePlan = { write: [], delete: [], unchanged: [], conflicts: [] };
  const recordedTree = previous?.runtimeSha256;
  await planFiles(
    plan,
    target,
    recordedTree === undefined ? files : files.filter((f) => !isRuntimePath(f.path)),
    previous,
  );
  if (recordedTree !== undefined)
    await planRuntimeTree(
      plan,
      target,
      files.filter((f) => isRuntimePath(f.path)),
      recordedTree,
    );
  plan.conflicts.sort((a, b) => (a.path < b.path ? -1 : 1));
  return plan;
}

/** Plans the files one by one against their hashes in the manifest. */
async function planFiles(plan: UpdatePlan, target: string, files: EmittedFile[], previous: Manifest | undefined) {
  const emitted = new Set(files.map((f) => f.path));
  for (const file of files) {
    const onDisk = await readIfExists(join(target, ...file.path.split("/")));
    if (onDisk === undefined) {
      plan.write.push(file);
    } else if (file.once || onDisk.equals(Buffer.from(file.content))) {
      plan.unchanged.push(file.path);
    } else if (file.merged || file.path === MANIFEST_PATH || file.path === TOOL_LOCK_PATH) {
      plan.write.push(file);
    } else {
      const recorded = previous?.files[file.path];
      if (recorded === undefined) plan.conflicts.push({ path: file.path, reason: "foreign" });
      else if (recorded !== sha256(onDisk)) plan.conflicts.push({ path: file.path, reason: "edited" });
      plan.write.push(file);
    }
  }
  for (const [path, recorded] of Object.entries(previous?.files ?? {})) {
    if (emitted.has(path)) continue;
    const onDisk = await readIfExists(join(target, ...path.split("/")));
    if (onDisk === undefined) continue;
    if (recorded !== sha256(onDisk) && path !== TOOL_LOCK_PATH) plan.conflicts.push({ path, reason: "edited" });
    plan.delete.push(path);
  }
}

/**
 * Plans the vendored runtime as one folder: unchanged when it already is what this run writes, else
 * replaced whole, a conflict when it is not what the manifest recorded (a folder deleted by hand is
 * simply written again).
 */
async function planRuntimeTree(plan: UpdatePlan, target: string, runtime: EmittedFile[], recorded: string) {
  const tree = await readRuntimeTree(target);
  if (sameTree(tree, runtime)) {
    plan.unchanged.push(...runtime.map((f) => f.path));
    return;
  }
  const emitted = new Set(runtime.map((f) => f.path));
  if (tree.size > 0 && runtimeTreeSha256(tree) !== recorded)
    plan.conflicts.push({ path: RUNTIME_DIR, reason: "runtime" });
  plan.write.push(...runtime);
  plan.delete.push(...[...tree.keys()].filter((path) => !emitted.has(path)));
  if (runtime.length > 0) plan.trees = [RUNTIME_DIR];
}
