import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { EmittedFile } from "../emit/emitted-file.js";

/** How a folder on disk differs from freshly emitted files. */
export interface OutputComparison {
  /** Emitted files that are not on disk. */
  missing: string[];
  /** Files on disk that would not be emitted. */
  extra: string[];
  /** Files whose content differs, each with a line-numbered excerpt of the first difference. */
  changed: Array<{ path: string; diff: string }>;
}

/** Folders that are never compared (installs and builds of the generated project). */
const IGNORED_DIRS = new Set(["node_modules", "dist"]);

async function listFiles(root: string, dir = root): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (!IGNORED_DIRS.has(entry.name)) files.push(...(await listFiles(root, join(dir, entry.name))));
    } else {
      files.push(relative(root, join(dir, entry.name)).split(sep).join("/"));
    }
  }
  return files.sort();
}

/** A few numbered lines around the first line that differs: `-` on disk, `+` expected. */
export function lineDiff(actual: string, expected: string, context = 3): string {
  const a = actual.split("\n");
  const e = expected.split("\n");
  let first = 0;
  while (first < a.length && first < e.length && a[first] === e[first]) first++;
  const from = Math.max(0, first - context);
  const lines: string[] = [];
  for (let i = from; i < first; i++) lines.push(`  ${String(i + 1).padStart(5)} | ${e[i]}`);
  for (let i = first; i < Math.min(a.length, first + context); i++)
    lines.push(`- ${String(i + 1).padStart(5)} | ${a[i]}`);
  for (let i = first; i < Math.min(e.length, first + context); i++)
    lines.push(`+ ${String(i + 1).padStart(5)} | ${e[i]}`);
  return lines.join("\n");
}

/** The content of a file in the output folder, or undefined when it cannot be read. */
export async function readOutputFile(dir: string, path: string): Promise<string | undefined> {
  try {
    return await readFile(join(dir, ...path.split("/")), "utf8");
  } catch {
    return undefined;
  }
}

/** Which of `files` are absent from `dir` and which differ (with a diff excerpt): the core of both comparisons. */
export async function compareFiles(
  dir: string,
  files: EmittedFile[],
): Promise<Pick<OutputComparison, "missing" | "changed">> {
  const result: Pick<OutputComparison, "missing" | "changed"> = { missing: [], changed: [] };
  for (const file of files) {
    const actual = await readOutputFile(dir, file.path);
    if (actual === undefined) result.missing.push(file.path);
    else if (actual !== file.content) result.changed.push({ path: file.path, diff: lineDiff(actual, file.content) });
  }
  return result;
}

/** Compares a folder with emitted files exactly, every file on disk counted (golden examples). */
export async function compareOutput(dir: string, files: EmittedFile[]): Promise<OutputComparison> {
  const expected = new Set(files.map((f) => f.path));
  const extra = (await listFiles(dir)).filter((p) => !expected.has(p));
  return { ...(await compareFiles(dir, files)), extra };
}

/** True when the folder equals the emitted files exactly. */
export function isUpToDate(comparison: OutputComparison): boolean {
  return comparison.missing.length === 0 && comparison.extra.length === 0 && comparison.changed.length === 0;
}
