import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { Codes, GenerationError } from "../diagnostics.js";
import type { EmittedFile } from "../emit/project-files.js";

/** Options of the write stage. */
export interface WriteOptions {
  /** Replace an existing, non-empty output folder. */
  force?: boolean;
}

async function isNonEmptyDir(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isDirectory()) return true;
    return (await readdir(path)).length > 0;
  } catch {
    return false;
  }
}

/**
 * Write stage: writes every file into a fresh temporary folder next to the target, then renames
 * it into place, so a failure never leaves a half-written server. An existing non-empty target is
 * replaced only with `force` (moved aside first, removed after the swap).
 */
export async function writeOutput(outDir: string, files: EmittedFile[], options: WriteOptions): Promise<string> {
  const target = resolve(outDir);
  if (!options.force && (await isNonEmptyDir(target))) {
    throw new GenerationError(`Output folder ${outDir} is not empty`, [
      {
        code: Codes.outputDirNotEmpty,
        severity: "error",
        message: `The output folder ${outDir} already exists and is not empty; nothing was written.`,
        help: "Pass --force to replace it, or choose another folder with -o.",
      },
    ]);
  }
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const staging = join(parent, `.${basename(target)}.mcp-gen-${tag}`);
  try {
    for (const file of files) {
      const path = join(staging, ...file.path.split("/"));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.content, file.path === "src/index.ts" ? { mode: 0o755 } : {});
    }
    let aside: string | undefined;
    try {
      await stat(target);
      aside = join(parent, `.${basename(target)}.mcp-gen-old-${tag}`);
      await rename(target, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    await rename(staging, target);
    if (aside) await rm(aside, { recursive: true, force: true });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return target;
}
