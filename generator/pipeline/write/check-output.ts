import type { EmittedFile } from "../emit/emitted-file.js";
import { compareFiles, readOutputFile } from "./compare-output.js";
import { compareRuntime, runtimeVersionOfFile, type RuntimeComparison } from "../../shared/provenance.js";
import type { Manifest } from "../../shared/state-files.js";
import { previousFiles } from "./runtime-tree.js";

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
  /** The project's runtime against this mcp-gen's: `older` makes the folder stale whatever else matches. */
  runtime: RuntimeComparison;
  /** True when a regeneration would change nothing. */
  upToDate: boolean;
}

/**
 * The runtime version of the project in `dir`: as its manifest records it, else as its vendored
 * files' first line names it (`cli/main.ts`; `index.ts` in projects vendored before it was left
 * out); undefined for a project from before either was written.
 */
async function projectRuntimeVersion(dir: string, previous: Manifest | undefined): Promise<string | undefined> {
  if (previous?.runtimeVersion) return previous.runtimeVersion;
  const file =
    (await readOutputFile(dir, "src/runtime/cli/main.ts")) ?? (await readOutputFile(dir, "src/runtime/index.ts"));
  return file === undefined ? undefined : runtimeVersionOfFile(file);
}

/**
 * Compares without writing. Only the generator's files count: user files and once-files (`src/custom/`)
 * are not looked at, so a project someone customised is still "up to date" when the spec did not change.
 * A project whose vendored runtime is older than this mcp-gen's is stale, and said to be.
 */
export async function checkOutput(
  dir: string,
  files: EmittedFile[],
  previous: Manifest | undefined,
): Promise<OutputCheck> {
  const runtime = compareRuntime(await projectRuntimeVersion(dir, previous));
  const result: OutputCheck = {
    ...(await compareFiles(
      dir,
      files.filter((f) => !f.once),
    )),
    stale: [],
    runtime,
    upToDate: true,
  };
  const emitted = new Set(files.map((f) => f.path));
  for (const path of await previousFiles(dir, previous)) {
    if (!emitted.has(path) && (await readOutputFile(dir, path)) !== undefined) result.stale.push(path);
  }
  result.upToDate =
    result.missing.length === 0 && result.changed.length === 0 && result.stale.length === 0 && !runtime.older;
  return result;
}
