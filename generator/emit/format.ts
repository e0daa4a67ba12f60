import type { EmittedFile } from "./project-files.js";

/** The pinned prettier options for generated files (never read from the user's config). */
const OPTIONS = { printWidth: 100, trailingComma: "all", endOfLine: "lf" } as const;

// TypeScript is parsed by Babel ("babel-ts"), which the JSON files need anyway: prettier's own
// TypeScript parser is one more large plugin to load, and both format our files the same (the
// goldens and GitHub's project are byte-identical either way). Should Babel refuse a file, the
// TypeScript parser formats it.
function parserFor(path: string): string | undefined {
  if (path.endsWith(".ts")) return "babel-ts";
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

// Loaded on first use: a run that formats nothing (`--version`, a plan-only run such as `mcp-gen diff`) never pays for it.
let prettierModule: Promise<typeof import("prettier")> | undefined;
const loadPrettier = () => (prettierModule ??= import("prettier"));

/** `content` formatted by prettier with `parser`. */
async function format(content: string, parser: string): Promise<string> {
  const prettier = await loadPrettier();
  try {
    return await prettier.format(content, { ...OPTIONS, parser });
  } catch (error) {
    if (parser !== "babel-ts") throw error;
    return prettier.format(content, { ...OPTIONS, parser: "typescript" });
  }
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
      return { ...file, content: await format(file.content, parser) };
    }),
  );
}
