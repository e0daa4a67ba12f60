import { readdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Codes, GenerationError } from "../diagnostics.js";
import type { EmittedFile } from "../emit/project-files.js";
import { applyUpdate, writeFresh } from "./apply-update.js";
import { readManifest } from "../load/previous-state.js";
import { MANIFEST_PATH } from "../state-files.js";
import { planUpdate, type UpdatePlan } from "./plan-update.js";
import { removeDeadStagingFolders } from "./staging.js";

/** Options of the write stage. */
export interface WriteOptions {
  /** Overwrite hand-edited generated files, and write into a folder without a manifest. */
  force?: boolean;
}

/** What the write stage did. */
export interface WriteSummary {
  /** Absolute output folder. */
  outDir: string;
  /** True when the folder was created from nothing. */
  created: boolean;
  /** Paths written (created or replaced), deleted, and left as they were. */
  written: string[];
  deleted: string[];
  unchanged: string[];
  /** Hand-edited or foreign files overwritten because of `--force`. */
  overwritten: string[];
}

async function isEmptyOrAbsent(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    return info.isDirectory() && (await readdir(path)).length === 0;
  } catch {
    return true;
  }
}

/**
 * Refuses an output path that is not a folder, or lies under something that is not one (a file
 * where a folder should be): no `--force` can write there, so say so before any work is done.
 */
async function checkOutputPath(target: string, outDir: string): Promise<void> {
  for (let path = target; ; path = dirname(path)) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" && dirname(path) !== path) continue; // created by the write
      if (code !== "ENOTDIR") throw error;
      continue; // a parent is a file: found on the next step up
    }
    if (info.isDirectory()) return;
    throw new GenerationError(`Output path ${outDir} cannot be a project folder`, [
      {
        code: Codes.outputPathInvalid,
        severity: "error",
        message: path === target ? `The output path ${outDir} is a file, not a folder; nothing was written.` : `The output path ${outDir} lies under ${path}, which is a file, not a folder; nothing was written.`,
        help: "Choose another folder with -o (mcp-gen never replaces a file by a folder, even with --force).",
      },
    ]);
  }
}

function conflictError(plan: UpdatePlan, outDir: string): GenerationError {
  const edited = plan.conflicts.filter((c) => c.reason === "edited").map((c) => c.path);
  const foreign = plan.conflicts.filter((c) => c.reason === "foreign").map((c) => c.path);
  const diagnostics = [
    ...(edited.length > 0
      ? [
          {
            code: Codes.handEdited,
            severity: "error" as const,
            message: `Generated file(s) in ${outDir} were edited by hand: ${edited.join(", ")}.`,
            help: "Move your changes to src/custom/ (never overwritten) and run again, or pass --force to overwrite the edits.",
          },
        ]
      : []),
    ...(foreign.length > 0
      ? [
          {
            code: Codes.handEdited,
            severity: "error" as const,
            message: `File(s) that mcp-gen did not write are in the way in ${outDir}: ${foreign.join(", ")}.`,
            help: "Rename or move them, or pass --force to replace them with the generated files.",
          },
        ]
      : []),
  ];
  return new GenerationError(`${plan.conflicts.length} file(s) in ${outDir} would be overwritten`, diagnostics);
}

/**
 * Write stage. A new (or empty) folder is written in one piece (staging folder + rename). An
 * existing project is updated through its `.mcp-gen/manifest.json`: exactly the generator's files are
 * replaced, the ones it no longer produces deleted, everything else left alone (see `applyUpdate`).
 * Hand-edited generated files stop the run (GenerationError, MG203) unless `force`; so does a
 * non-empty folder without a manifest (MG201), in which case `force` writes the generated files into
 * it and still leaves the other files alone.
 */
export async function writeOutput(outDir: string, files: EmittedFile[], options: WriteOptions): Promise<WriteSummary> {
  const target = resolve(outDir);
  await checkOutputPath(target, outDir);
  await removeDeadStagingFolders(target);
  if (await isEmptyOrAbsent(target)) {
    await writeFresh(target, files);
    return { outDir: target, created: true, written: files.map((f) => f.path), deleted: [], unchanged: [], overwritten: [] };
  }
  const previous = await readManifest(target);
  if (!previous && !options.force) {
    throw new GenerationError(`Output folder ${outDir} is not empty`, [
      {
        code: Codes.outputDirNotEmpty,
        severity: "error",
        message: `The output folder ${outDir} is not empty and was not generated by mcp-gen (no ${MANIFEST_PATH}); nothing was written.`,
        help: "Choose another folder with -o, or pass --force to write the generated files into it (other files are left alone).",
      },
    ]);
  }
  const plan = await planUpdate(target, files, previous);
  if (plan.conflicts.length > 0 && !options.force) throw conflictError(plan, outDir);
  await applyUpdate(target, plan);
  return {
    outDir: target,
    created: false,
    written: plan.write.map((f) => f.path),
    deleted: plan.delete,
    unchanged: plan.unchanged,
    overwritten: plan.conflicts.map((c) => c.path),
  };
}
