/**
 * An example of generated/ may come with the code a user would have written in its src/custom/
 * (specs/examples.json `custom`: a folder whose files go into src/custom/), so that the golden shows
 * the extension API in use and the test run compiles it with the generated types.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runtimeFiles } from "../../generator/pipeline/emit/project-files.js";
import type { EmittedFile } from "../../generator/pipeline/emit/emitted-file.js";
import { generate } from "../../generator/pipeline/generate.js";

/** One entry of specs/examples.json. */
export interface Example {
  name: string;
  spec: string;
  /** Folder (relative to the repository) whose files replace or join the example's src/custom/. */
  custom?: string;
  /** Runtime features it is generated with (`mcp-gen --with`). */
  with?: string[];
}

/** The vendored runtime (src/runtime/), which the checked-in examples leave out: it equals runtime/src. */
export function isVendoredRuntime(path: string): boolean {
  return path.startsWith("src/runtime/");
}

/** The examples of specs/examples.json, read from `root`. */
export function examples(root: string): Example[] {
  return JSON.parse(readFileSync(join(root, "specs", "examples.json"), "utf8")) as Example[];
}

/**
 * Writes example `name` into `dir` as its generation does: the checked-in folder plus the vendored
 * runtime it leaves out (the features its plan vendors). With `features`, a fresh generation
 * with those instead (and the example's own src/custom/), for tests that need a feature the
 * checked-in example was not generated with.
 */
export async function materializeExample(root: string, name: string, dir: string, features?: string[]): Promise<void> {
  const example = examples(root).find((entry) => entry.name === name);
  if (!example) throw new Error(`no example ${name} in specs/examples.json`);
  if (features) {
    await generate({ spec: join(root, example.spec), outDir: dir, features: [...(example.with ?? []), ...features] });
    for (const [path, content] of customFiles(root, example)) writeFileSync(join(dir, path), content);
    return;
  }
  cpSync(join(root, "generated", name), dir, { recursive: true });
  // The golden keeps no runtime and its manifest one hash for it: the plan says which features it vendors.
  const { plan } = await generate({ spec: join(root, example.spec), features: example.with ?? [], planOnly: true });
  for (const file of runtimeFiles(plan.features)) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.content);
  }
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
