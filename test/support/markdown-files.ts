import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Markdown files under `dir`, recursively, as absolute paths (dot folders, VitePress' own, left out). */
export function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.name.startsWith(".")
      ? []
      : entry.isDirectory()
        ? markdownFiles(join(dir, entry.name))
        : entry.name.endsWith(".md")
          ? [join(dir, entry.name)]
          : [],
  );
}
