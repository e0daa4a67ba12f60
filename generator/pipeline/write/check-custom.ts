/**
 * After a regeneration is planned and printed, and before anything is written: does the user's
 * code in `src/custom/` still type-check against the new types? A ts-morph Project sees the output
 * folder as it will be — the new generated files in memory, the generated files that would be
 * deleted hidden, everything else (the user's code, their node_modules) from disk — and the
 * TypeScript compiler checks the files of `src/custom/`. Each error there that the same code did
 * not have against the types on disk (the previous generation) is a break: an operation removed or
 * renamed, an argument or result that changed. Errors that were there before, or that come from the
 * environment (no node_modules yet), are not this run's doing and are not reported.
 *
 * The compiler is ts-morph's bundled TypeScript, loaded only when there is custom code to check.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import type { Diagnostic as MorphDiagnostic, Node as MorphNode, Project, SourceFile } from "ts-morph";
import { Codes, type Diagnostic } from "../../shared/diagnostics.js";
import type { EmittedFile } from "../emit/emitted-file.js";
import { loadTsMorph, type TsMorph } from "../emit/typescript/ts-morph.js";
import type { Manifest } from "../../shared/state-files.js";
import { OverlayFileSystem } from "./overlay-file-system.js";
import { previousFiles } from "./runtime-tree.js";

/** The user's folder in a generated project. */
export const CUSTOM_DIR = "src/custom";

/** What the check needs to know besides the files. */
export interface CustomCheckInput {
  /** The output folder. */
  outDir: string;
  /** Every file this run would write (the generated project, once-files included). */
  files: readonly EmittedFile[];
  /** The previous generation's manifest: its generated files that are not in `files` will be deleted. */
  previous?: Manifest;
  /** Tool names of this generation and the previous one, and type name → tool, to say which tool an error concerns. */
  tools: { names: ReadonlySet<string>; byTypeName: ReadonlyMap<string, string> };
  /** Report breaks as errors (`--strict-custom`) instead of warnings. */
  strict?: boolean;
}

/** A TypeScript file of the user's (not a declaration file). */
const isSource = (name: string) => /\.(ts|mts|cts|tsx)$/.test(name) && !/\.d\.(ts|mts|cts)$/.test(name);

/** The TypeScript files under `src/custom/`, project-relative with `/`. */
async function customSources(outDir: string, dir = CUSTOM_DIR): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(join(outDir, ...dir.split("/")), { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.isDirectory() && entry.name !== "node_modules")
      found.push(...(await customSources(outDir, `${dir}/${entry.name}`)));
    else if (entry.isFile() && isSource(entry.name)) found.push(`${dir}/${entry.name}`);
  }
  return found;
}

/**
 * Type-checks `src/custom/` against the files of this run; one MG205 diagnostic per break, with
 * file, line, column and the tool concerned. Empty when there is no custom code, or only the
 * once-file exactly as this run would create it.
 */
export async function checkCustomCode(input: CustomCheckInput): Promise<Diagnostic[]> {
  const outDir = resolve(input.outDir);
  const sources = await customSources(outDir);
  if (sources.length === 0) return [];
  const emitted = new Map(input.files.map((file) => [file.path, file]));
  const untouched = await Promise.all(
    sources.map(
      async (path) =>
        emitted.get(path)?.content ===
        (await readFile(join(outDir, ...path.split("/")), "utf8").catch(() => undefined)),
    ),
  );
  if (untouched.every(Boolean)) return [];

  const tsMorph = loadTsMorph();
  const options = compilerOptions(tsMorph, emitted.get("tsconfig.json")?.content, outDir);
  const previous = await previousFiles(outDir, input.previous);
  const after = diagnosticsOf(overlaidProject(tsMorph, options, outDir, input, previous), outDir, sources);
  if (after.length === 0) return [];
  // What the same code gave against the generated files on disk: not breaks of this run.
  const before = new Set(
    diagnosticsOf(
      new tsMorph.Project({ compilerOptions: options, skipAddingFilesFromTsConfig: true }),
      outDir,
      sources,
    ).map(({ key }) => key),
  );
  return after
    .filter(({ key }) => !before.has(key))
    .map(({ diagnostic, node, message, path, line, column }) => {
      const tool = toolOf(node, message, input.tools, tsMorph);
      return {
        code: Codes.customCodeBroken,
        severity: input.strict ? "error" : "warning",
        message: `${message}${tool ? ` (tool ${tool})` : ""}`,
        file: path,
        line,
        column,
        ...(tool ? { tool } : {}),
        help:
          diagnostic.getCode() === 2339 || diagnostic.getCode() === 2551 || diagnostic.getCode() === 2353
            ? "The API changed under your code: adapt it to the regenerated types (src/api.ts, src/tools/), or keep the old tool name in .mcp-gen/tool-names.json if only the name changed."
            : "Adapt src/custom/ to the regenerated types (src/api.ts, src/tools/); `--strict-custom` refuses to write while it does not compile.",
      } satisfies Diagnostic;
    });
}

/** The generated tsconfig's compiler options (the checked project compiles as `npm run build` would), without emitting. */
function compilerOptions(tsMorph: TsMorph, tsconfig: string | undefined, outDir: string) {
  const json = tsconfig
    ? ((JSON.parse(tsconfig) as { compilerOptions?: Record<string, unknown> }).compilerOptions ?? {})
    : {};
  const { options } = tsMorph.ts.convertCompilerOptionsFromJson(json, outDir);
  return { ...options, noEmit: true };
}

/**
 * A Project whose file system is the folder as this run would leave it (overlay-file-system.ts): the
 * new contents of the generated TypeScript files (and of once-files that do not exist yet), without
 * the previous generation's files (`previous`) that this run deletes.
 */
function overlaidProject(
  tsMorph: TsMorph,
  options: ReturnType<typeof compilerOptions>,
  outDir: string,
  input: CustomCheckInput,
  previous: readonly string[],
): Project {
  const absolute = (path: string) => join(outDir, ...path.split("/"));
  const overlay = new Map<string, string>();
  for (const file of input.files) {
    if (file.path.startsWith(`${CUSTOM_DIR}/`) && file.once) continue; // the user's, on disk
    overlay.set(absolute(file.path), file.content);
  }
  const written = new Set(input.files.map((file) => file.path));
  const hidden = new Set(previous.filter((path) => !written.has(path)).map(absolute));
  return new tsMorph.Project({
    compilerOptions: options,
    skipAddingFilesFromTsConfig: true,
    fileSystem: new OverlayFileSystem(outDir, overlay, hidden),
  });
}

/** One compiler error in a custom file, located. */
interface Located {
  /** Identity across the two checks: file, position, error code. */
  key: string;
  diagnostic: MorphDiagnostic;
  node: MorphNode | undefined;
  message: string;
  path: string;
  line: number;
  column: number;
}

/** The syntactic and semantic errors of the custom files in `project`. */
function diagnosticsOf(project: Project, outDir: string, sources: readonly string[]): Located[] {
  const tsMorph = loadTsMorph();
  const files: SourceFile[] = sources.map((path) => project.addSourceFileAtPath(join(outDir, ...path.split("/"))));
  const program = project.getProgram();
  const located: Located[] = [];
  for (const file of files) {
    const path = relative(outDir, file.getFilePath()).split(sep).join("/");
    for (const diagnostic of [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]) {
      if (diagnostic.getCategory() !== tsMorph.DiagnosticCategory.Error) continue;
      const start = diagnostic.getStart() ?? 0;
      const { line, column } = file.getLineAndColumnAtPos(start);
      const message = tsMorph.ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, " ");
      located.push({
        key: `${path}:${start}:${diagnostic.getCode()}`,
        diagnostic,
        node: file.getDescendantAtPos(start),
        message,
        path,
        line,
        column,
      });
    }
  }
  return located;
}

/**
 * The tool an error concerns: the identifier at the error, or the `api.<tool>(…)` call or
 * `hooks: { <tool>: … }` entry it lies in, or a name the message quotes — a tool name of this
 * generation or the last, or one of their type names (`ListPetsInput` → listPets).
 */
function toolOf(
  node: MorphNode | undefined,
  message: string,
  tools: CustomCheckInput["tools"],
  tsMorph: TsMorph,
): string | undefined {
  const known = (name: string | undefined) => {
    if (name === undefined) return undefined;
    const bare = name.replace(/^["'`]|["'`]$/g, "");
    return tools.names.has(bare) ? bare : tools.byTypeName.get(bare);
  };
  const { Node } = tsMorph;
  for (let current = node; current; current = current.getParent()) {
    if (Node.isIdentifier(current) || Node.isStringLiteral(current)) {
      const found = known(current.getText());
      if (found) return found;
    }
    if (Node.isCallExpression(current)) {
      const callee = current.getExpression();
      const name = Node.isPropertyAccessExpression(callee)
        ? callee.getName()
        : Node.isElementAccessExpression(callee)
          ? callee.getArgumentExpression()?.getText()
          : undefined;
      const found = known(name);
      if (found) return found;
    }
    if (
      Node.isPropertyAssignment(current) ||
      Node.isMethodDeclaration(current) ||
      Node.isShorthandPropertyAssignment(current)
    ) {
      const found = known(current.getName());
      if (found) return found;
    }
  }
  for (const [, quoted] of message.matchAll(/'([^']+)'/g)) {
    const found = known(quoted);
    if (found) return found;
  }
  return undefined;
}
