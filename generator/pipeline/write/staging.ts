/**
 * Staging folders: every run writes into a private folder next to the output and renames from
 * there. A run killed mid-write (SIGKILL, a closed terminal) cannot remove its own, so each run
 * first removes those left by runs whose process is gone.
 */
import { randomBytes } from "node:crypto";
import { readdir, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** `.<out>.mcp-gen-<pid>-<8 hex>`: the pid tells a later run whether its writer is still alive. */
function stagingPattern(target: string): RegExp {
  const name = basename(target).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^\\.${name}\\.mcp-gen-(\\d+)-[0-9a-f]{8}$`);
}

/** A private folder next to `target`, on the same file system so renames are atomic. */
export function stagingFolder(target: string): string {
  return join(dirname(target), `.${basename(target)}.mcp-gen-${process.pid}-${randomBytes(4).toString("hex")}`);
}

/** Whether a process with this id runs (on this machine; EPERM means it runs as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the staging folders of `target` whose run has died; a live run's folder (another mcp-gen
 * writing the same output right now, or this process) is left alone. Returns the folders removed.
 */
export async function removeDeadStagingFolders(target: string): Promise<string[]> {
  const pattern = stagingPattern(target);
  let entries: string[];
  try {
    entries = await readdir(dirname(target));
  } catch {
    return [];
  }
  const dead = entries.filter((entry) => {
    const pid = Number(pattern.exec(entry)?.[1]);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid);
  });
  for (const entry of dead) await rm(join(dirname(target), entry), { recursive: true, force: true });
  return dead.map((entry) => join(dirname(target), entry));
}
