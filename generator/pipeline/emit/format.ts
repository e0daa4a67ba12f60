import type { EmittedFile } from "./emitted-file.js";
import { PRINT_WIDTH, prettierJson } from "./json-format.js";

/** The pinned prettier options for generated files (never read from the user's config). */
const OPTIONS = { printWidth: PRINT_WIDTH, trailingComma: "all", endOfLine: "lf" } as const;

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
 * index, the named types and their split files, the README's tool table) are left as the emit stage printed them (valid, deterministic,
 * only less tidy): prettier would otherwise take most of the generation time of a big API.
 */
export const FORMAT_TOOL_FILES_MAX = 150;

function isToolFile(path: string): boolean {
  return path.startsWith("src/tools/") && path !== "src/tools/index.ts";
}

function growsWithTools(path: string): boolean {
  return (
    path.startsWith("src/tools/") ||
    path === "src/schemas.ts" ||
    path.startsWith("src/schemas/") ||
    path === "README.md"
  );
}

// Loaded on first use: a run that formats nothing (`--version`, a plan-only run such as
// `mcp-gen diff`) never pays for it.
let prettierModule: Promise<typeof import("prettier")> | undefined;
const loadPrettier = () => (prettierModule ??= import("prettier"));

/**
 * Loads prettier and the plugins of the TypeScript files (Babel, estree) by formatting a line:
 * for a thread that formats later and has time now (emit-worker-thread.ts). Never rejects.
 */
export async function warmFormatter(): Promise<void> {
  try {
    await format("export {};\n", "babel-ts");
  } catch {
    // Formatting later reports what fails.
  }
}

/** `content` formatted by prettier with `parser` (JSON as prettier lays it out, json-format.ts, when it can). */
async function format(content: string, parser: string): Promise<string> {
  if (parser === "markdown") return formatMarkdown(content);
  const json = parser === "json" ? prettierJson(content) : undefined;
  if (json !== undefined) return json;
  const prettier = await loadPrettier();
  try {
    return await prettier.format(content, { ...OPTIONS, parser });
  } catch (error) {
    if (parser !== "babel-ts") throw error;
    return prettier.format(content, { ...OPTIONS, parser: "typescript" });
  }
}

/** The languages of the code blocks the templates write that prettier formats inside Markdown, and their parsers. */
const FENCE_PARSERS: Record<string, string> = { ts: "babel-ts", typescript: "babel-ts", json: "json" };
/** Code block languages prettier has no parser for: it prints them as written either way. */
const PLAIN_FENCES = new Set(["", "sh", "bash", "shell", "console", "text", "nginx"]);

/** A line that opens or closes a code block at its start: the fence and the language. */
const FENCE = /^(`{3,})([A-Za-z]*)[ \t]*$/;
/** A fence anywhere else (indented, in a quote, `~~~`, after text): left to prettier's own embedding. */
const OTHER_FENCE = /^(?:[^`\n]+`{3}|[ \t]*~{3})/m;

/** A piece of a Markdown file: text as it is, or a code block's body and the parser that formats it. */
type MarkdownPiece = { text: string } | { code: string; parser: string };

/**
 * The file cut into text and the code blocks that formatMarkdown formats itself; undefined when the
 * file has any other kind of block (a language prettier formats but FENCE_PARSERS does not list, a
 * fence not at the start of a line, one never closed): prettier then formats it alone.
 */
export function markdownPieces(content: string): MarkdownPiece[] | undefined {
  if (OTHER_FENCE.test(content)) return undefined;
  const lines = content.split("\n");
  const pieces: MarkdownPiece[] = [];
  let text: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) {
      text.push(lines[i]!);
      continue;
    }
    const close = lines.findIndex((line, j) => j > i && line === open[1]);
    const language = open[2]!.toLowerCase();
    const parser = FENCE_PARSERS[language];
    if (close < 0 || (!parser && !PLAIN_FENCES.has(language))) return undefined;
    if (!parser || close === i + 1) {
      text.push(...lines.slice(i, close + 1));
    } else {
      text.push(lines[i]!);
      pieces.push({ text: text.join("\n") + "\n" }, { code: lines.slice(i + 1, close).join("\n"), parser });
      text = [lines[close]!];
    }
    i = close;
  }
  pieces.push({ text: text.join("\n") });
  return pieces;
}

/**
 * Markdown. Prettier formats each code block with the parser of its language, and for `ts` that is
 * its TypeScript plugin: a large plugin loaded for the one example in src/custom/README.md (~0.1 s
 * of a GitHub generation). So the blocks in FENCE_PARSERS are formatted here (TypeScript with
 * Babel), and prettier formats the Markdown around them with its own code formatting off: the text
 * its embedding prints (test/unit/format.ts compares both on the goldens' READMEs). A block that
 * does not parse stays as written, as prettier leaves it.
 */
async function formatMarkdown(content: string): Promise<string> {
  const prettier = await loadPrettier();
  const options = { ...OPTIONS, parser: "markdown" };
  const pieces = markdownPieces(content);
  if (!pieces) return prettier.format(content, options);
  const texts = await Promise.all(
    pieces.map(async (piece) => {
      if ("text" in piece) return piece.text;
      try {
        return await format(piece.code, piece.parser);
      } catch {
        return `${piece.code}\n`; // prettier leaves a block it cannot parse as written
      }
    }),
  );
  return prettier.format(texts.join(""), { ...options, embeddedLanguageFormatting: "off" });
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
