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
 * ts-morph bundles the TypeScript compiler and takes seconds to load, so it is required here, on the
 * first use of this emit step, and nowhere else.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { InterfaceDeclarationStructure, OptionalKind, PropertySignatureStructure, StatementStructures, TypeAliasDeclarationStructure } from "ts-morph";
import type { JsonSchema } from "../contract.js";
import { NameAllocator, pascalCase } from "../plan/names.js";
import type { ProjectPlan, ToolPlan } from "../plan/types.js";
import { docText, propertyKey, schemaToType } from "./schema-to-ts.js";

type Obj = Record<string, unknown>;
type TsMorph = typeof import("ts-morph");

/** Where the declarations live in the generated project. */
export const DECLARATIONS_DATA_PATH = "data/declarations.json";
/** The interface each operation is a method of (code mode's `api`). */
const API_INTERFACE = "Api";
/** Longest doc comment of a property or named type, in characters (the operation's own text is kept whole). */
const MAX_DOC_CHARS = 200;

let tsMorph: TsMorph | undefined;

/** ts-morph, loaded on first use (CommonJS, so `require` keeps this step synchronous). */
export function loadTsMorph(): TsMorph {
  return (tsMorph ??= createRequire(import.meta.url)("ts-morph") as TsMorph);
}

/** What a declaration is made of: part of a tool's plan, plain data (it crosses to a worker thread). */
export type DeclarationSource = Pick<ToolPlan, "name" | "description" | "inputSchema" | "outputSchema" | "inputTypeName" | "outputTypeName"> & {
  http: Pick<ToolPlan["http"], "method" | "path">;
};

/** The part of each tool a declaration needs. */
export function declarationSources(plan: ProjectPlan): DeclarationSource[] {
  return plan.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    inputTypeName: tool.inputTypeName,
    ...(tool.outputTypeName ? { outputTypeName: tool.outputTypeName } : {}),
    http: { method: tool.http.method, path: tool.http.path },
  }));
}

/** Tool name → declaration text, in tool order. Deterministic: the same plan gives the same text. */
export function operationDeclarations(plan: ProjectPlan | readonly DeclarationSource[]): Record<string, string> {
  const tools = "tools" in plan ? declarationSources(plan) : plan;
  const { printStructure, StructureKind } = loadTsMorph();
  const result: Record<string, string> = {};
  for (const tool of tools) {
    // printStructure writes the structures as text without a Project or a parse (a source file per
    // operation cost 5 ms each, 6 s for GitHub's 1,223, on a busy machine).
    result[tool.name] = printStructure({ kind: StructureKind.SourceFile, statements: statementsOf(tool, StructureKind) }, { indentNumberOfSpaces: 2 });
  }
  return result;
}

/** The statements of one operation's declaration: named types, input, output, the `Api` method. */
function statementsOf(tool: DeclarationSource, kinds: TsMorph["StructureKind"]): StatementStructures[] {
  const names = new NameAllocator(Number.POSITIVE_INFINITY, [API_INTERFACE, tool.inputTypeName, ...(tool.outputTypeName ? [tool.outputTypeName] : [])]);
  const named = new NamedTypes(names, kinds);
  const inputRef = named.refNames(tool.inputSchema.$defs as Obj | undefined, "");
  const required = new Set(tool.inputSchema.required ?? []);
  const properties: OptionalKind<PropertySignatureStructure>[] = Object.entries(tool.inputSchema.properties ?? {}).map(([name, schema]) => {
    const doc = typeof schema === "object" && typeof schema.description === "string" ? brief(schema.description) : undefined;
    return { name: propertyKey(name), type: schemaToType(schema, inputRef), hasQuestionToken: !required.has(name), ...(doc ? { docs: [doc] } : {}) };
  });
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
    private readonly kinds: TsMorph["StructureKind"],
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

/** The first paragraph of `text`, at most MAX_DOC_CHARS, JSDoc-safe; undefined when empty. */
function brief(text: string): string | undefined {
  const paragraph = docText(text).split(/\r?\n\s*\r?\n/)[0]!.replace(/\s+/g, " ").trim();
  if (paragraph === "") return undefined;
  return paragraph.length <= MAX_DOC_CHARS ? paragraph : `${paragraph.slice(0, MAX_DOC_CHARS - 1).trimEnd()}…`;
}

/**
 * Prints the declarations in a worker thread that starts loading ts-morph at once (seconds: it bundles
 * the TypeScript compiler), so that the load overlaps the load/ir/plan stages and the printing
 * overlaps emit and format. `print` never rejects: a failed worker falls back to this thread.
 */
export class DeclarationsWorker {
  private readonly worker = new Worker(new URL("./declarations-worker.js", import.meta.url));
  private used = false;

  constructor() {
    // A generation that fails before `print` must not be kept alive by the thread.
    this.worker.unref();
  }

  /** Tool name → declaration text for `tools`. */
  print(tools: readonly DeclarationSource[]): Promise<Record<string, string>> {
    this.used = true;
    return new Promise<Record<string, string>>((resolve) => {
      let done = false;
      const finish = (value: Record<string, string> | undefined) => {
        if (done) return;
        done = true;
        void this.worker.terminate();
        resolve(value ?? operationDeclarations(tools));
      };
      this.worker.once("message", (value: Record<string, string>) => finish(value));
      this.worker.once("error", () => finish(undefined));
      this.worker.once("exit", () => finish(undefined));
      this.worker.postMessage(tools);
    });
  }

  /** Ends the thread if it was never given anything to print. */
  stop(): void {
    if (!this.used) void this.worker.terminate();
  }
}
