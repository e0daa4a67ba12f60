/**
 * `data/declarations.json`: one TypeScript declaration per operation, for the model (code mode's
 * `describe_operation.signature`, the `openapi://declarations` resource) and for people. Each entry
 * stands alone: the named types it needs, its `…Input` interface and `…Output` type, and the operation
 * as a method of `Api` (`api.<tool>(args)` in code mode), with its doc comment:
 *
 *     interface ListPetsInput { limit?: number; }
 *     type ListPetsOutput = { items: Array<Pet> };
 *     interface Api {
 *         /** List pets. … GET /pets *\/
 *         listPets(args?: ListPetsInput): Promise<ListPetsOutput>;
 *     }
 *
 * Printed by ts-morph from structures (no text surgery), so every entry is well-formed TypeScript;
 * the type expressions come from `schemaToType` (JSON-escaped literals and known names only).
 */
import type {
  InterfaceDeclarationStructure,
  OptionalKind,
  PropertySignatureStructure,
  StatementStructures,
  TypeAliasDeclarationStructure,
} from "ts-morph";
import type { JsonSchema } from "../contract.js";
import { NameAllocator, pascalCase } from "../plan/names.js";
import type { ProjectPlan } from "../plan/types.js";
import { brief, docText, propertyKey, schemaToType } from "./schema-to-ts.js";
import { toolTypeSource, type ToolTypeSource } from "./tool-file.js";
import { loadTsMorph, type Kinds } from "./ts-morph.js";

export { DECLARATIONS_DATA_PATH } from "./data-paths.js";

type Obj = Record<string, unknown>;

/** The interface each operation is a method of (code mode's `api`). */
const API_INTERFACE = "Api";

/** What a declaration is made of (see ToolTypeSource: plain data that crosses to a worker thread). */
export type DeclarationSource = Omit<ToolTypeSource, "fileName" | "title">;

/** Tool name → declaration text, in tool order. Deterministic: the same plan gives the same text. */
export function operationDeclarations(plan: ProjectPlan | readonly DeclarationSource[]): Record<string, string> {
  const tools = "tools" in plan ? plan.tools.map(toolTypeSource) : plan;
  const { printStructure, StructureKind } = loadTsMorph();
  const result: Record<string, string> = {};
  for (const tool of tools) {
    // printStructure writes the structures as text without a Project or a parse (a source file per
    // operation cost 5 ms each, 6 s for GitHub's 1,223, on a busy machine).
    result[tool.name] = printStructure(
      { kind: StructureKind.SourceFile, statements: statementsOf(tool, StructureKind) },
      { indentNumberOfSpaces: 2 },
    );
  }
  return result;
}

/** The statements of one operation's declaration: named types, input, output, the `Api` method. */
function statementsOf(tool: DeclarationSource, kinds: Kinds): StatementStructures[] {
  const names = new NameAllocator(Number.POSITIVE_INFINITY, [
    API_INTERFACE,
    tool.inputTypeName,
    ...(tool.outputTypeName ? [tool.outputTypeName] : []),
  ]);
  const named = new NamedTypes(names, kinds);
  const inputRef = named.refNames(tool.inputSchema.$defs as Obj | undefined, "");
  const required = new Set(tool.inputSchema.required ?? []);
  const properties: OptionalKind<PropertySignatureStructure>[] = Object.entries(tool.inputSchema.properties ?? {}).map(
    ([name, schema]) => {
      const doc =
        typeof schema === "object" && typeof schema.description === "string" ? brief(schema.description) : undefined;
      return {
        name: propertyKey(name),
        type: schemaToType(schema, inputRef),
        hasQuestionToken: !required.has(name),
        ...(doc ? { docs: [doc] } : {}),
      };
    },
  );
  const input: InterfaceDeclarationStructure = { kind: kinds.Interface, name: tool.inputTypeName, properties };
  let output: TypeAliasDeclarationStructure | undefined;
  if (tool.outputSchema && tool.outputTypeName) {
    const outputRef = named.refNames(tool.outputSchema.$defs as Obj | undefined, "Result");
    output = { kind: kinds.TypeAlias, name: tool.outputTypeName, type: schemaToType(tool.outputSchema, outputRef) };
  }
  const method: InterfaceDeclarationStructure = {
    kind: kinds.Interface,
    name: API_INTERFACE,
    methods: [
      {
        name: propertyKey(tool.name),
        parameters: [{ name: "args", type: tool.inputTypeName, hasQuestionToken: required.size === 0 }],
        returnType: `Promise<${output ? tool.outputTypeName : "unknown"}>`,
        docs: [docText(`${tool.description}\n\n${tool.http.method.toUpperCase()} ${tool.http.path}`)],
      },
    ],
  };
  return [...named.declarations(), input, ...(output ? [output] : []), method];
}

/**
 * The named schemas (`$defs`) one declaration reaches, each declared once as a type alias: input-side
 * names are `PascalCase(def)`, output-side ones end in `Result` (their shapes differ: readOnly/writeOnly).
 */
class NamedTypes {
  private readonly claimed = new Map<string, string>();
  private readonly pending: Array<{ name: string; schema: Obj; defs: Obj; suffix: string }> = [];

  constructor(
    private readonly names: NameAllocator,
    private readonly kinds: Kinds,
  ) {}

  refNames(defs: Obj | undefined, suffix: string): (def: string) => string {
    return (def) => {
      const schema = defs?.[def];
      if (schema === undefined || schema === null || typeof schema !== "object") return "unknown";
      const key = `${suffix}:${def}`;
      let name = this.claimed.get(key);
      if (name === undefined) {
        name = this.names.claim(pascalCase(def) + suffix);
        this.claimed.set(key, name);
        this.pending.push({ name, schema: schema as Obj, defs: defs!, suffix });
      }
      return name;
    };
  }

  /** The aliases claimed so far and those they reach, in the order they were first reached. */
  declarations(): TypeAliasDeclarationStructure[] {
    const out: TypeAliasDeclarationStructure[] = [];
    for (let next = this.pending.shift(); next; next = this.pending.shift()) {
      const doc = typeof next.schema.description === "string" ? brief(next.schema.description) : undefined;
      out.push({
        kind: this.kinds.TypeAlias,
        name: next.name,
        type: schemaToType(next.schema as JsonSchema, this.refNames(next.defs, next.suffix)),
        ...(doc ? { docs: [doc] } : {}),
      });
    }
    return out;
  }
}
