/**
 * The TypeScript of every tool's types, printed two ways. The project's types (the tool type
 * modules `src/tools/<module>.ts` and the named types `src/schemas.ts`) come from the full spec
 * (tool-module.ts, named-types.ts): what the user's code compiles against. The operation
 * declarations for the model (`data/declarations.json`) describe the wire — the compacted output
 * schemas and `structuredContent` as code mode's `api` returns it — from the tools' own schemas
 * (tool-file.ts, schema-types.ts, declarations.ts), each piece printed once and joined.
 */
import type { ProjectPlan, TypesPlan } from "../../plan/plan-types.js";
import { apiMethodTexts, declarationText } from "./declarations.js";
import type { EmittedFile } from "../emitted-file.js";
import { namedTypeFiles, TypeNames } from "./named-types.js";
import { SchemaTypes } from "./schema-types.js";
import { toolTypeBlocks, toolTypeSource, type ToolTypeBlock } from "./tool-file.js";
import type { ToolTypeSource } from "./tool-type-source.js";
import { toolModuleText } from "./tool-module.js";
import type { TsMorph } from "./ts-morph.js";

/** The printed tool types. */
export interface PrintedToolTypes {
  /** The tools of each type module, by module file name (see toolModules). */
  members: Map<string, ToolTypeSource[]>;
  /** Type module text by module file name (`src/tools/<fileName>.ts`), modules in tool order. */
  modules: Map<string, string>;
  /** The named types: `src/schemas.ts` (and `src/schemas/*.ts` when split). */
  schemas: EmittedFile[];
  /** Named types the tools' error types use (the tool index imports them), in first-use order. */
  errorUses: string[];
  /** Tool name → declaration, in tool order. */
  declarations: Record<string, string>;
}

/** The tools of each type module (`fileName` → its tools), modules and tools in tool order. */
function toolModules(tools: readonly ToolTypeSource[]): Map<string, ToolTypeSource[]> {
  const modules = new Map<string, ToolTypeSource[]>();
  for (const tool of tools) {
    const members = modules.get(tool.fileName);
    if (members) members.push(tool);
    else modules.set(tool.fileName, [tool]);
  }
  return modules;
}

/** Prints every tool's types and the named types (see the module comment). Deterministic. */
export function printToolTypes(tools: readonly ToolTypeSource[], types: TypesPlan, tsMorph: TsMorph): PrintedToolTypes {
  const members = toolModules(tools);
  const names = new TypeNames(types);
  const modules = new Map<string, string>();
  const uses = new Map<string, string[]>();
  const errorUses = new Set<string>();
  for (const [fileName, moduleTools] of members) {
    const printed = toolModuleText(moduleTools, names);
    modules.set(fileName, printed.text);
    uses.set(fileName, [...new Set([...printed.uses, ...printed.errorUses])]);
    for (const name of printed.errorUses) errorUses.add(name);
  }
  return {
    members,
    modules,
    schemas: namedTypeFiles(types, uses, tsMorph),
    errorUses: [...errorUses],
    declarations: printDeclarations(tools, members),
  };
}

/** Tool name → declaration (declarations.ts), in tool order. */
function printDeclarations(
  tools: readonly ToolTypeSource[],
  members: ReadonlyMap<string, ToolTypeSource[]>,
): Record<string, string> {
  const schemaTypes = new SchemaTypes(tools);
  // Module by module, as before: the declarations' shared names are claimed in this order.
  const blocks = new Map<ToolTypeSource, ToolTypeBlock>();
  for (const moduleTools of members.values()) {
    const printed = toolTypeBlocks(moduleTools, schemaTypes);
    moduleTools.forEach((tool, i) => blocks.set(tool, printed[i]!));
  }
  const declarations: Record<string, string> = {};
  const apiMethods = apiMethodTexts(tools);
  tools.forEach((tool, i) => {
    const block = blocks.get(tool)!;
    declarations[tool.name] = declarationText(schemaTypes.closure(block.uses), block.text, apiMethods[i]!);
  });
  return declarations;
}

/** Tool name → declaration text (declarations.ts), in tool order. Deterministic: the same plan gives the same text. */
export function operationDeclarations(plan: ProjectPlan | readonly ToolTypeSource[]): Record<string, string> {
  const tools = "tools" in plan ? plan.tools.map(toolTypeSource) : plan;
  return printDeclarations(tools, toolModules(tools));
}
