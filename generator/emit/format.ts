import * as prettier from "prettier";
import type { EmittedFile } from "./project-files.js";

/** The pinned prettier options for generated files (never read from the user's config). */
const OPTIONS: prettier.Options = { printWidth: 100, trailingComma: "all", endOfLine: "lf" };

function parserFor(path: string): string | undefined {
  if (path.endsWith(".ts")) return "typescript";
  if (path.endsWith(".json")) return "json";
  if (path.endsWith(".md")) return "markdown";
  return undefined;
}

/**
 * Above this many tool files, the files that grow with the number of tools (the tool modules, their
 * index, the shared schema types, the README's tool table) are left as the emit stage printed them (valid, deterministic,
 * only less tidy): prettier would otherwise take most of the generation time of a big API.
 */
export const FORMAT_TOOL_FILES_MAX = 150;

function isToolFile(path: string): boolean {
  return path.startsWith("src/tools/") && path !== "src/tools/index.ts";
}

function growsWithTools(path: string): boolean {
  return path.startsWith("src/tools/") || path === "src/schemas.ts" || path === "README.md";
}

/**
 * Format stage: prettier over every file it understands, except the vendored runtime (byte-for-byte)
 * and files the emit stage marked as final (bulk JSON data laid out by JSON.stringify). `toolCount`
 * is the project's number of tools (by default, the tool modules among `files`): above
 * FORMAT_TOOL_FILES_MAX the files that grow with it are left as printed.
 */
export async function formatFiles(
  files: EmittedFile[],
  toolCount = files.filter((file) => isToolFile(file.path)).length,
): Promise<EmittedFile[]> {
  const skipTools = toolCount > FORMAT_TOOL_FILES_MAX;
  return Promise.all(
    files.map(async (file) => {
      const parser = parserFor(file.path);
      if (!parser || file.formatted || file.path.startsWith("src/runtime/") || (skipTools && growsWithTools(file.path)))
        return file;
      return { ...file, content: await prettier.format(file.content, { ...OPTIONS, parser }) };
    }),
  );
}
