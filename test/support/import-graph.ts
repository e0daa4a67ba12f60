/**
 * The import graph of a source tree, read from the text of its TypeScript files: for the fitness
 * tests that keep the runtime's and the generator's rooms in order (no import against the order,
 * no cycle).
 */
import ts from "typescript";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";

/** Every .ts file under `dir`, recursively, as absolute paths. */
export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Module specifiers of static imports, re-exports and dynamic imports (in the order they appear). */
export function specifiers(text: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return patterns
    .flatMap((pattern) => [...text.matchAll(pattern)].map((match) => ({ at: match.index, spec: match[1]! })))
    .sort((a, b) => a.at - b.at)
    .map((found) => found.spec);
}

/** One import of a file of the tree: importer and imported, `/`-separated paths relative to the tree. */
export interface Edge {
  from: string;
  to: string;
}

/** The imports between the files of the tree at `dir` (imports of packages and outside files left out). */
export function importEdges(dir: string): Edge[] {
  const files = sources(dir).map((file) => relative(dir, file).split(sep).join("/"));
  const known = new Set(files);
  return files.flatMap((from) =>
    specifiers(readFileSync(join(dir, from), "utf8"))
      .filter((spec) => spec.startsWith("."))
      .map((spec) => posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, ".ts"))
      .filter((to) => known.has(to))
      .map((to) => ({ from, to })),
  );
}

/** The bare package names a file imports (`node:` built-ins left out), e.g. `got`, `@scope/pkg`. */
export function packageImports(file: string): string[] {
  return specifiers(readFileSync(file, "utf8"))
    .filter((spec) => !spec.startsWith(".") && !spec.startsWith("node:"))
    .map((spec) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!));
}

/** The import cycles of a graph, each as the files of one strongly connected component (Tarjan). */
export function cycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (next.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of new Set(edges.flatMap((edge) => [edge.from, edge.to]))) if (!index.has(node)) visit(node);
  return found;
}

/** The folder of a tree path that names its room: `server/x.ts` → `server`, `features/search/y.ts` → `features/search`. */
export function roomOf(path: string): string {
  const parts = path.split("/");
  if (parts.length === 1) return ".";
  return parts[0] === "features" && parts.length > 2 ? `features/${parts[1]}` : parts[0]!;
}

/** `dirname` for `/`-separated paths. */
export function folderOf(path: string): string {
  return dirname(path).split(sep).join("/");
}

/** One named import or re-export of a module: the name, and whether only its type crosses. */
export interface NamedBinding {
  /** The module specifier as written. */
  from: string;
  /** The name in the module it comes from (before any `as`). */
  name: string;
  /** The name it takes here (after `as`; for a re-export, the name this module exports). */
  local: string;
  typeOnly: boolean;
}

/**
 * The named imports and re-exports of a TypeScript text (`import { a, type B } from "x"`, `export { c }
 * from "y"`, `import type { D } from "z"`), read with the TypeScript compiler's parser.
 */
export function namedBindings(text: string): NamedBinding[] {
  const file = ts.createSourceFile("file.ts", text, ts.ScriptTarget.Latest, false);
  const bindings: NamedBinding[] = [];
  for (const statement of file.statements) {
    const declaration = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement : undefined;
    if (!declaration?.moduleSpecifier || !ts.isStringLiteral(declaration.moduleSpecifier)) continue;
    const from = declaration.moduleSpecifier.text;
    const clause = ts.isImportDeclaration(declaration) ? declaration.importClause : undefined;
    const wholeType = ts.isImportDeclaration(declaration) ? clause?.isTypeOnly === true : declaration.isTypeOnly;
    const named = ts.isImportDeclaration(declaration) ? clause?.namedBindings : declaration.exportClause;
    if (named && (ts.isNamedImports(named) || ts.isNamedExports(named)))
      for (const element of named.elements)
        bindings.push({
          from,
          name: (element.propertyName ?? element.name).text,
          local: element.name.text,
          typeOnly: wholeType || element.isTypeOnly,
        });
  }
  return bindings;
}

/**
 * The modules a TypeScript text needs at run time: its imports and re-exports but those only types
 * cross (`import type`, or every name marked `type`), and its dynamic `import()`s.
 */
export function valueSpecifiers(text: string): string[] {
  const file = ts.createSourceFile("file.ts", text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier) && !typeOnly(node)) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) found.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Whether an import or re-export carries types only (TypeScript erases it). */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node))
    return (
      node.isTypeOnly ||
      (!!node.exportClause &&
        ts.isNamedExports(node.exportClause) &&
        node.exportClause.elements.every((e) => e.isTypeOnly))
    );
  const clause = node.importClause;
  if (!clause) return false; // `import "x"`: for its side effects
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    !!named &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}
