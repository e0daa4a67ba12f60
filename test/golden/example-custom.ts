/**
 * An example of generated/ may come with the code a user would have written in its src/custom/
 * (specs/examples.json `custom`: a folder whose files go into src/custom/), so that the golden shows
 * the extension API in use and the test run compiles it with the generated types.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { EmittedFile } from "../../generator/emit/project-files.js";

/** One entry of specs/examples.json. */
export interface Example {
  name: string;
  spec: string;
  /** Folder (relative to the repository) whose files replace or join the example's src/custom/. */
  custom?: string;
}

/** The example's own src/custom/ files (path in the project → content), read from `root`. */
export function customFiles(root: string, example: Example): Map<string, string> {
  const files = new Map<string, string>();
  if (!example.custom) return files;
  for (const name of readdirSync(join(root, example.custom)).sort())
    files.set(`src/custom/${name}`, readFileSync(join(root, example.custom, name), "utf8"));
  return files;
}

/** The files the example's folder holds: the generation's, with the example's own src/custom/ files in place of the once-files. */
export function exampleFiles(root: string, example: Example, generated: readonly EmittedFile[]): EmittedFile[] {
  const custom = customFiles(root, example);
  const files = generated.map((file) => (custom.has(file.path) ? { ...file, content: custom.get(file.path)! } : file));
  for (const [path, content] of custom)
    if (!generated.some((file) => file.path === path)) files.push({ path, content, once: true });
  return files;
}
