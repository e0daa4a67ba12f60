import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmittedFile } from "../emit/emitted-file.js";
import { MANIFEST_PATH, TOOL_LOCK_PATH, type Manifest } from "../../shared/state-files.js";
import { sha256 } from "./manifest.js";

/** A file the run may not overwrite or delete without `--force`. */
export interface WriteConflict {
  path: string;
  /** `edited`: a generated file changed by hand; `foreign`: a file the generator never wrote is in the way. */
  reason: "edited" | "foreign";
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
 * already merges the user's edits (`merged`: package.json). Reads only; never writes.
 */
export async function planUpdate(
  target: string,
  files: EmittedFile[],
  previous: Manifest | undefined,
): Promise<UpdatePlan> {
  const plan: UpdatePlan = { write: [], delete: [], unchanged: [], conflicts: [] };
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
  plan.conflicts.sort((a, b) => (a.path < b.path ? -1 : 1));
  return plan;
}
