/**
 * The import graph of a source tree, read from the text of its TypeScript files: for the fitness
 * tests that keep the runtime's and the generator's rooms in order (no import against the order,
 * no cycle).
 */
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
