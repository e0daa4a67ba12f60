import { chmod, mkdir, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { EmittedFile } from "../emit/project-files.js";
import { MANIFEST_PATH } from "../state-files.js";
import type { UpdatePlan } from "./plan-update.js";
import { stagingFolder } from "./staging.js";

/** Files written executable (the generated server's entry has a shebang). */
const EXECUTABLE = new Set(["src/index.ts"]);

/** Files written at once: a big project has thousands of small files, and one at a time is slow. */
const WRITES_IN_FLIGHT = 32;

async function writeAll(root: string, files: EmittedFile[]): Promise<void> {
  const pathOf = (file: EmittedFile) => join(root, ...file.path.split("/"));
  for (const folder of new Set(files.map((file) => dirname(pathOf(file))))) await mkdir(folder, { recursive: true });
  for (let start = 0; start < files.length; start += WRITES_IN_FLIGHT) {
    await Promise.all(
      files.slice(start, start + WRITES_IN_FLIGHT).map(async (file) => {
        await writeFile(pathOf(file), file.content);
        if (EXECUTABLE.has(file.path)) await chmod(pathOf(file), 0o755);
      }),
    );
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a whole new project: every file into a staging folder, then one rename into place, so a
 * failure never leaves a half-written server. `target` must not exist or be an empty folder.
 */
export async function writeFresh(target: string, files: EmittedFile[]): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const staging = stagingFolder(target);
  try {
    await writeAll(staging, files);
    if (await exists(target)) await rmdir(target); // empty (checked by the caller); rename needs it gone
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Applies an update plan to an existing project, as atomically as a file system allows:
 * 1. every new content is written into a staging folder next to the project (the slow part; a
 *    failure here — disk full, permissions — leaves the project untouched);
 * 2. then, file by file, the old version is renamed into the staging folder's backup and the new one
 *    renamed into place (renames on one file system are cheap and atomic). The manifest goes last:
 *    it is the commit point;
 * 3. if any rename fails, the files already moved are put back from the backup, in reverse order;
 * 4. the staging folder (with the backup) is removed, and folders emptied by deletions too.
 * If the process is killed during step 2, the folder holds a mix of old and new generated files and
 * the old manifest; every such file matches either the old hash or the new content, so running the
 * same command again completes the update without reporting hand edits.
 * Only paths in the plan are touched: user files, `src/custom/`, `.env`, lock files stay as they are.
 */
export async function applyUpdate(target: string, plan: UpdatePlan): Promise<void> {
  const staging = stagingFolder(target);
  const fresh = join(staging, "new");
  const backup = join(staging, "old");
  const writes = [...plan.write].sort((a, b) => Number(a.path === MANIFEST_PATH) - Number(b.path === MANIFEST_PATH));
  const done: Array<{ path: string; backedUp: boolean; placed: boolean }> = [];
  try {
    await writeAll(fresh, writes);
    const steps = [
      ...writes.filter((f) => f.path !== MANIFEST_PATH).map((f) => ({ path: f.path, write: true })),
      ...plan.delete.map((path) => ({ path, write: false })),
      ...writes.filter((f) => f.path === MANIFEST_PATH).map((f) => ({ path: f.path, write: true })),
    ];
    try {
      for (const step of steps) {
        const parts = step.path.split("/");
        const record = { path: step.path, backedUp: false, placed: false };
        done.push(record);
        if (await exists(join(target, ...parts))) {
          await mkdir(dirname(join(backup, ...parts)), { recursive: true });
          await rename(join(target, ...parts), join(backup, ...parts));
          record.backedUp = true;
        }
        if (step.write) {
          await mkdir(dirname(join(target, ...parts)), { recursive: true });
          await rename(join(fresh, ...parts), join(target, ...parts));
          record.placed = true;
        }
      }
    } catch (error) {
      for (const record of done.reverse()) {
        const parts = record.path.split("/");
        if (record.placed) await rm(join(target, ...parts), { force: true });
        if (record.backedUp) await rename(join(backup, ...parts), join(target, ...parts)).catch(() => undefined);
      }
      throw error;
    }
    for (const path of plan.delete) await removeEmptyParents(target, path);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Removes the folders of a deleted file that became empty, up to (not including) the project root. */
async function removeEmptyParents(target: string, path: string): Promise<void> {
  const parts = path.split("/").slice(0, -1);
  while (parts.length > 0) {
    try {
      await rmdir(join(target, ...parts));
    } catch {
      return; // not empty (or already gone): stop
    }
    parts.pop();
  }
}
