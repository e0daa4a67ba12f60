import type { EmittedFile } from "../emit/project-files.js";
import { compareFiles, readOutputFile } from "./compare-output.js";
import type { Manifest } from "../state-files.js";

/**
 * `--check`: how an output folder differs from what generating into it would write. Unlike the
 * golden comparison (compare-output.ts) only the generator's own files count, and files of the
 * previous generation that would be deleted are reported as stale.
 */
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

/**
 * Compares without writing. Only the generator's files count: user files and once-files (`src/custom/`)
 * are not looked at, so a project someone customised is still "up to date" when the spec did not change.
 */
export async function checkOutput(dir: string, files: EmittedFile[], previous: Manifest | undefined): Promise<OutputCheck> {
  const result: OutputCheck = { ...(await compareFiles(dir, files.filter((f) => !f.once))), stale: [], upToDate: true };
  const emitted = new Set(files.map((f) => f.path));
  for (const path of Object.keys(previous?.files ?? {})) {
    if (!emitted.has(path) && (await readOutputFile(dir, path)) !== undefined) result.stale.push(path);
  }
  result.upToDate = result.missing.length === 0 && result.changed.length === 0 && result.stale.length === 0;
  return result;
}
