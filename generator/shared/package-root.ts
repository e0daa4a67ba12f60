import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

let cached: string | undefined;

/**
 * The mcp-gen package folder (where `runtime/` and `templates/` live), found by walking up from
 * this module, so it works from `dist/` and from an installed package alike.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "mcp-gen") {
      cached = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("mcp-gen: cannot find the package root (package.json named mcp-gen)");
    dir = parent;
  }
}

/** Reads a JSON file of the mcp-gen package. */
export function readPackageJson(relative: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(packageRoot(), relative), "utf8")) as Record<string, unknown>;
}

/**
 * A compiled module of the package (`relative` to `dist/`), as a URL: for what a module loads by
 * path (worker threads, precompiled code), so it is found the same from the CLI bundle
 * (`dist/cli/mcp-gen.cjs`, scripts/bundle-cli.js) and from the module's own file.
 */
export function distUrl(relative: string): URL {
  return pathToFileURL(join(packageRoot(), "dist", relative));
}

/**
 * A CommonJS module that `npm run build` precompiled under `dist/` (`relative` to it: the ajv
 * validators of scripts/build-validators.js), or `fallback()` when the build did not write it (a
 * checkout built with tsc alone).
 */
export function precompiledOr<T>(relative: string, fallback: () => T): T {
  try {
    return createRequire(import.meta.url)(fileURLToPath(distUrl(relative))) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    return fallback();
  }
}
