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

/** Format stage: prettier over every file it understands; vendored runtime files are left byte-for-byte. */
export async function formatFiles(files: EmittedFile[]): Promise<EmittedFile[]> {
  return Promise.all(
    files.map(async (file) => {
      const parser = parserFor(file.path);
      if (!parser || file.path.startsWith("src/runtime/")) return file;
      return { ...file, content: await prettier.format(file.content, { ...OPTIONS, parser }) };
    }),
  );
}
