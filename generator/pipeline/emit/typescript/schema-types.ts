import type { JsonSchema } from "../../../shared/contract.js";
import { NameAllocator, pascalCase } from "../../plan/names.js";
import { docText, schemaToType } from "./schema-to-ts.js";
import type { ToolTypeSource } from "./tool-type-source.js";
import { typeAliasText } from "./structure-text.js";

type Obj = Record<string, unknown>;

/** Which side a `$defs` entry was planned for: `Result` names the output side (readOnly kept, writeOnly dropped). */
export type Side = "input" | "output";

/** The name of the interface whose methods are the operations in a declaration (declarations.ts). */
export const API_INTERFACE = "Api";

/**
 * The TypeScript types of the named schemas (`$defs`) of the tools' wire schemas, for the
 * operation declarations the model reads (declarations.ts): each declaration holds the ones it
 * reaches. A big API reaches the same few thousand schemas from every tool; each alias is printed
 * once and its text joined into every declaration that needs it.
 *
 * A schema's type is the same for every tool that reaches it on one side (the planner only drops
 * prose from some tools' copies), so it is computed from the first tool that reaches it. Names are
 * `PascalCase(def)` (input side) and `PascalCase(def)Result` (output side), unique across the
 * project and distinct from every tool's `…Input` / `…Output` name and from `Api` (a declaration
 * holds both); they are claimed in tool order, so the declarations are deterministic.
 */
export class SchemaTypes {
  private readonly names: NameAllocator;
  private readonly declared = new Map<string, string>();
  private readonly pending: Array<{ name: string; schema: Obj; defs: Obj; side: Side }> = [];
  /** Printed alias by name, in the order claimed. */
  private readonly texts = new Map<string, string>();
  /** The names each alias's type refers to. */
  private readonly references = new Map<string, string[]>();

  constructor(tools: readonly Pick<ToolTypeSource, "inputTypeName" | "outputTypeName" | "outputSchema">[]) {
    this.names = new NameAllocator(Number.POSITIVE_INFINITY, [
      API_INTERFACE,
      ...tools.flatMap((tool) => [tool.inputTypeName, ...(tool.outputSchema ? [tool.outputTypeName] : [])]),
    ]);
  }

  /** The `refName` for one tool's schemas on one side: the shared type name of each `$defs` entry. */
  refNames(defs: Obj | undefined, side: Side): (def: string) => string {
    return (def) => {
      const schema = defs?.[def];
      if (schema === undefined || schema === null || typeof schema !== "object") return "unknown";
      const key = `${side}:${def}`;
      let name = this.declared.get(key);
      if (name === undefined) {
        name = this.names.claim(pascalCase(def) + (side === "output" ? "Result" : ""));
        this.declared.set(key, name);
        this.pending.push({ name, schema: schema as Obj, defs: defs!, side });
      }
      return name;
    };
  }

  /** Prints the types claimed so far, and those they reach. */
  private flush(): void {
    for (let next = this.pending.shift(); next; next = this.pending.shift()) {
      const { name, schema, defs, side } = next;
      const description = typeof schema.description === "string" ? docText(schema.description) : "";
      const refName = this.refNames(defs, side);
      const reached = new Set<string>();
      const type = schemaToType(schema as JsonSchema, (def) => {
        const target = refName(def);
        if (target !== "unknown") reached.add(target);
        return target;
      });
      this.references.set(name, [...reached]);
      this.texts.set(name, `${typeAliasText(name, type, description ? [description] : [])}\n`);
    }
  }

  /** The printed aliases of `names` and of every alias they reach, each once, in the order first reached. */
  closure(names: Iterable<string>): string[] {
    this.flush();
    const seen = new Set<string>();
    const queue = [...names];
    for (let i = 0; i < queue.length; i++) {
      const name = queue[i]!;
      if (seen.has(name)) continue;
      seen.add(name);
      queue.push(...(this.references.get(name) ?? []));
    }
    return [...seen].map((name) => this.texts.get(name)!);
  }
}
