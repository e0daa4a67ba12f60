import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmittedFile } from "../emit/project-files.js";
import { lineDiff } from "./compare-output.js";
import type { Manifest } from "./manifest.js";

/** How an output folder differs from what generating into it would write (`--check`). */
export interface OutputCheck {
  /** Generated files that are absent. */
  missing: string[];
  /** Generated files whose content differs, each with a line-numbered excerpt. */
  changed: Array<{ path: string; diff: string }>;
  /** Files of the previous generation that would be deleted. */
  stale: string[];
  /** True when a regeneration would change nothing. */
  upToDate: boolean;
}

async function read(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Compares without writing. Only the generator's files count: user files and once-files (`src/custom/`)
 * are not looked at, so a project someone customised is still "up to date" when the spec did not change.
 */
export async function checkOutput(dir: string, files: EmittedFile[], previous: Manifest | undefined): Promise<OutputCheck> {
  const result: OutputCheck = { missing: [], changed: [], stale: [], upToDate: true };
  const emitted = new Set(files.map((f) => f.path));
  for (const file of files) {
    if (file.once) continue;
    const actual = await read(join(dir, ...file.path.split("/")));
    if (actual === undefined) result.missing.push(file.path);
    else if (actual !== file.content) result.changed.push({ path: file.path, diff: lineDiff(actual, file.content) });
  }
  for (const path of Object.keys(previous?.files ?? {})) {
    if (!emitted.has(path) && (await read(join(dir, ...path.split("/")))) !== undefined) result.stale.push(path);
  }
  result.upToDate = result.missing.length === 0 && result.changed.length === 0 && result.stale.length === 0;
  return result;
}
