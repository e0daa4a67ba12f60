/** Lines of code as the size budgets count them (test/unit/runtime-size.ts, project-size.ts). */
import ts from "typescript";

/** The lines of `text` (TypeScript) that hold a token: neither blank nor only comment. */
export function codeLines(text: string): number {
  const file = ts.createSourceFile("file.ts", text, ts.ScriptTarget.Latest, true);
  const lines = new Set<number>();
  const visit = (node: ts.Node): void => {
    // JSDoc comments are children of the nodes they document: not code.
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(file);
    if (children.length > 0) return children.forEach(visit);
    if (node.getWidth(file) === 0) return; // the end of the file, an empty list
    const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
    const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
    for (let line = first; line <= last; line++) lines.add(line);
  };
  visit(file);
  return lines.size;
}
