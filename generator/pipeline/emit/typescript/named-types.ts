/**
 * `src/schemas.ts`: every named schema of the API as a documented TypeScript type (type-plan.ts),
 * from the full spec — every property, with its description — for the user's code and the tool
 * types. A big API's types are split into `src/schemas/<module>.ts` files, `src/schemas.ts` then
 * re-exporting them all (see {@link namedTypeFiles}).
 */
import type { JsonSchema } from "../../../shared/contract.js";
import { NameAllocator } from "../../plan/names.js";
import type { NamedTypePlan, TypesPlan } from "../../plan/plan-types.js";
import type { EmittedFile } from "../emitted-file.js";
import { forEachSchema } from "../../../shared/schema-walk.js";
import { schemaDocs, typeDeclaration, typeNode } from "./type-expression.js";
import { typeImportText } from "./structure-text.js";
import { textPieces } from "./text-writer.js";
import { BLANK_LINE, printFile, printStatements, sourceFile, type Statement, type TsMorph } from "./ts-morph.js";

/** Where the named types are declared (and, when split, re-exported from). */
export const NAMED_TYPES_PATH = "src/schemas.ts";

/** Above this many named types, they are split into a file per tool module (see namedTypeFiles). */
export const SPLIT_TYPES_OVER = 250;

/** The type names of the named schemas, by `$defs` name: as the API returns them, and as it accepts them. */
export class TypeNames {
  private readonly output = new Map<string, string>();
  private readonly input = new Map<string, string>();

  constructor(types: TypesPlan) {
    for (const named of types.named) {
      this.output.set(named.def, named.name);
      this.input.set(named.def, named.request?.name ?? named.name);
    }
  }

  /** `refName` of a schema on one side; a `$defs` name without a type (none in a plan) is `unknown`. */
  refName(side: "input" | "output"): (def: string) => string {
    const names = side === "input" ? this.input : this.output;
    return (def) => names.get(def) ?? "unknown";
  }
}

/** One declaration of the named types: its name, schema and the side its references take. */
interface Declaration {
  name: string;
  schema: JsonSchema;
  side: "input" | "output";
  named: NamedTypePlan;
}

function declarationsOf(types: TypesPlan): Declaration[] {
  return types.named.flatMap((named) => [
    { name: named.name, schema: named.schema, side: "output" as const, named },
    ...(named.request
      ? [{ name: named.request.name, schema: named.request.schema, side: "input" as const, named }]
      : []),
  ]);
}

/** The type names a schema refers to on one side. */
export function referencedNames(schema: JsonSchema | undefined, refName: (def: string) => string): string[] {
  const names = new Set<string>();
  forEachSchema(schema, (node) => {
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/$defs/")) {
      const name = refName(node.$ref.slice(8));
      if (name !== "unknown") names.add(name);
    }
  });
  return [...names];
}

/** A declaration's doc comment: the schema's description, or what the request shape is. */
function docsOf(declaration: Declaration): string[] {
  const docs = schemaDocs(declaration.schema);
  if (declaration.side === "output" || !declaration.named.request) return docs;
  const note = `\`${declaration.named.name}\` as sent in a request: read-only properties left out, write-only ones in.`;
  return [note, ...docs];
}

/** The declaration of each named type, by name (text: text-writer.ts textPieces). */
function printDeclarations(declarations: readonly Declaration[], names: TypeNames): Map<string, string> {
  const printed = textPieces(declarations, (declaration) => [
    typeDeclaration(
      declaration.name,
      typeNode(declaration.schema, names.refName(declaration.side)),
      docsOf(declaration),
    ),
  ]);
  return new Map(declarations.map((declaration, i) => [declaration.name, printed[i]!]));
}

const INTRO =
  "// The named schemas of the API (its components) as TypeScript types, from the full OpenAPI document:\n" +
  "// for your code (src/custom/) and the tool types in src/tools/.\n";

/**
 * The files of the named types. `uses` gives, per tool module (src/tools/<module>.ts), the type
 * names its tools refer to directly. Up to {@link SPLIT_TYPES_OVER} types, or with one tool module,
 * they are all in `src/schemas.ts`; above, each type goes to `src/schemas/<module>.ts` of the one
 * tool module that reaches it, `src/schemas/shared.ts` when several do, and
 * `src/schemas/unreferenced.ts` when none does (schemas of webhooks, of filtered-out operations),
 * and `src/schemas.ts` re-exports every file. Deterministic: plan order in each file.
 */
export function namedTypeFiles(
  types: TypesPlan,
  uses: ReadonlyMap<string, readonly string[]>,
  tsMorph: TsMorph,
): EmittedFile[] {
  const names = new TypeNames(types);
  const declarations = declarationsOf(types);
  const texts = printDeclarations(declarations, names);
  const header = sourceFile(tsMorph.StructureKind, []).leadingTrivia as string;
  if (declarations.length <= SPLIT_TYPES_OVER || uses.size <= 1) {
    const body = declarations.length > 0 ? [...texts.values()].join("\n") : "export {};\n";
    return [{ path: NAMED_TYPES_PATH, content: `${header}${INTRO}\n${body}` }];
  }
  const references = new Map(
    declarations.map((d) => [d.name, referencedNames(d.schema, names.refName(d.side))] as const),
  );
  const reachedBy = new Map<string, Set<string>>();
  for (const [module, direct] of uses) {
    const queue = [...direct];
    const seen = new Set<string>();
    for (let i = 0; i < queue.length; i++) {
      const name = queue[i]!;
      if (seen.has(name) || !references.has(name)) continue;
      seen.add(name);
      const modules = reachedBy.get(name) ?? new Set<string>();
      modules.add(module);
      reachedBy.set(name, modules);
      queue.push(...references.get(name)!);
    }
  }
  const fileNames = new NameAllocator(Number.POSITIVE_INFINITY, uses.keys());
  const shared = fileNames.claim("shared");
  const unreferenced = fileNames.claim("unreferenced");
  const fileOf = new Map<string, string>();
  for (const { name } of declarations) {
    const modules = reachedBy.get(name);
    fileOf.set(name, !modules ? unreferenced : modules.size === 1 ? [...modules][0]! : shared);
  }
  const files = new Map<string, string[]>();
  for (const file of [...uses.keys(), shared, unreferenced]) files.set(file, []);
  for (const { name } of declarations) files.get(fileOf.get(name)!)!.push(name);
  const emitted: EmittedFile[] = [];
  const reExports: Statement[] = [];
  for (const [file, members] of files) {
    if (members.length === 0) continue;
    const imports = new Map<string, string[]>();
    const local = new Set(members);
    for (const member of members)
      for (const target of references.get(member)!) {
        if (local.has(target)) continue;
        const from = fileOf.get(target)!;
        const list = imports.get(from) ?? [];
        if (!list.includes(target)) list.push(target);
        imports.set(from, list);
      }
    const importText = `${[...imports].map(([from, list]) => typeImportText(list, `./${from}.js`)).join("\n")}\n`;
    const intro = `// The API's named types ${file === shared ? "that the tools of several modules use" : file === unreferenced ? "that no tool of this server uses" : `that only the tools of src/tools/${file}.ts use`} (src/schemas.ts exports them all).\n`;
    emitted.push({
      path: `src/schemas/${file}.ts`,
      content: `${header}${intro}\n${imports.size > 0 ? `${importText}\n` : ""}${members.map((m) => texts.get(m)!).join("\n")}`,
    });
    reExports.push({
      kind: tsMorph.StructureKind.ExportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: `./schemas/${file}.js`,
    });
  }
  const index = printFile(
    sourceFile(tsMorph.StructureKind, [(writer) => void writer.write(INTRO), BLANK_LINE, ...reExports]),
  );
  return [{ path: NAMED_TYPES_PATH, content: index }, ...emitted];
}
