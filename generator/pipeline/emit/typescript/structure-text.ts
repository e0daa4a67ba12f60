/**
 * The text ts-morph prints for the few structures the operation declarations use — an interface of
 * property or method signatures and a type alias, each with its doc comments — written straight
 * to text (text-writer.ts) with the same calls ts-morph's printers make on code-block-writer. A big
 * API has thousands of them (GitHub: 1,223 tools, ~4,000 schema types): printing each through
 * ts-morph's structure printer was most of the time of its declarations. Type texts are single
 * lines (schema-to-ts.ts), as ts-morph's hanging indent then changes nothing. Type-only imports of
 * names are written the same way (a big API's tool index imports thousands of names).
 */
import { TextWriter } from "./text-writer.js";

/** One member of an interface: its signature (`name?: type;`, `name(args: T): R;`) and doc comments. */
export interface MemberText {
  signature: string;
  docs: readonly string[];
}

/** `interface <name> { … }` (exported when asked) with its doc comments, members one per line. */
export function interfaceText(
  name: string,
  members: readonly MemberText[],
  options: { exported: boolean; docs: readonly string[] },
): string {
  const writer = new TextWriter();
  for (const doc of options.docs) writer.jsDoc(doc);
  writer.write(`${options.exported ? "export " : ""}interface ${name} `);
  writer.inlineBlock(() =>
    members.forEach((member, i) => {
      if (i > 0) writer.newLine();
      for (const doc of member.docs) writer.jsDoc(doc);
      writer.write(member.signature);
    }),
  );
  return writer.toString();
}

/** `export type <name> = <type>;` with its doc comments. */
export function typeAliasText(name: string, type: string, docs: readonly string[]): string {
  const writer = new TextWriter();
  for (const doc of docs) writer.jsDoc(doc);
  return writer.write(`export type ${name} = ${type};`).toString();
}

/** A property signature as ts-morph prints it: `name?: type;` (no `: type` when the type text is blank). */
export function propertySignature(name: string, type: string, optional = false): string {
  return `${name}${optional ? "?" : ""}${type.trim() === "" ? "" : `: ${type}`};`;
}

/** `import type { A, B } from "<module>";`, as ts-morph prints an import declaration of names (`isTypeOnly`). */
export function typeImportText(names: readonly string[], moduleSpecifier: string): string {
  const list = names.length > 0 ? ` { ${names.join(", ")} } from` : "";
  return `import type${list} ${quoted(moduleSpecifier)};`;
}

/** A double-quoted string literal, escaped as code-block-writer's `quote` escapes it. */
function quoted(text: string): string {
  const escaped = text.replace(/\r\n|["\n\\]/g, (match) =>
    match === '"' ? '\\"' : match === "\\" ? "\\\\" : match === "\n" ? "\\n\\\n" : "\\r\\n\\\n",
  );
  return `"${escaped}"`;
}
