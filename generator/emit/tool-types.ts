/**
 * The TypeScript of every tool's types, printed once and used three ways: the tool type modules
 * (`src/tools/<tag>.ts`), the shared schema types (`src/schemas.ts`) and the operation
 * declarations for the model (`data/declarations.json`). Printing is most of the cost of the
 * project's TypeScript for a big API (GitHub: 1,223 tools), and a declaration repeats its tool's
 * types and the named types they reach, so the pieces are printed once and joined.
 */
import type { ProjectPlan } from "../plan/types.js";
import { apiMethodTexts, declarationText } from "./declarations.js";
import { SchemaTypes } from "./schema-types.js";
import {
  toolModuleText,
  toolTypeBlocks,
  toolTypeSource,
  type ToolTypeBlock,
  type ToolTypeSource,
} from "./tool-file.js";
import { loadTsMorph, type TsMorph } from "./ts-morph.js";

/** The printed tool types. */
export interface PrintedToolTypes {
  /** The tools of each type module, by module file name (see toolModules). */
  members: Map<string, ToolTypeSource[]>;
  /** Type module text by module file name (`src/tools/<fileName>.ts`), modules in tool order. */
  modules: Map<string, string>;
  /** `src/schemas.ts`. */
  schemas: string;
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

/** Prints every tool's types (see the module comment). Deterministic. */
export function printToolTypes(tools: readonly ToolTypeSource[], tsMorph: TsMorph): PrintedToolTypes {
  const schemaTypes = new SchemaTypes(tools, tsMorph);
  const members = toolModules(tools);
  // Module by module, as the files are laid out: the shared names are claimed in this order.
  const blocks = new Map<ToolTypeSource, ToolTypeBlock>();
  const modules = new Map<string, string>();
  for (const [fileName, moduleTools] of members) {
    const printed = toolTypeBlocks(moduleTools, schemaTypes, tsMorph);
    moduleTools.forEach((tool, i) => blocks.set(tool, printed[i]!));
    modules.set(fileName, toolModuleText(printed, tsMorph));
  }
  const declarations: Record<string, string> = {};
  const apiMethods = apiMethodTexts(tools, tsMorph);
  tools.forEach((tool, i) => {
    const block = blocks.get(tool)!;
    declarations[tool.name] = declarationText(schemaTypes.closure(block.uses), block.text, apiMethods[i]!);
  });
  return { members, modules, schemas: schemaTypes.fileText(), declarations };
}

/** Tool name → declaration text (declarations.ts), in tool order. Deterministic: the same plan gives the same text. */
export function operationDeclarations(plan: ProjectPlan | readonly ToolTypeSource[]): Record<string, string> {
  const tools = "tools" in plan ? plan.tools.map(toolTypeSource) : plan;
  return printToolTypes(tools, loadTsMorph()).declarations;
}
