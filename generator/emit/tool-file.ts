import type {
  InterfaceDeclarationStructure,
  OptionalKind,
  PropertySignatureStructure,
  SourceFileStructure,
} from "ts-morph";
import type { ToolDefinition } from "../contract.js";
import type { ToolPlan } from "../plan/types.js";
import { docText, propertyKey, schemaToType } from "./schema-to-ts.js";
import type { SchemaTypes } from "./schema-types.js";
import { BLANK_LINE, sourceFile, type Kinds, type Statement } from "./ts-morph.js";

type Obj = Record<string, unknown>;

/** The definition as the runtime receives it (no planner-only fields). */
export function toolDefinition(tool: ToolPlan): ToolDefinition {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    ...(tool.documentation ? { documentation: tool.documentation } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
    ...(tool.tags.length > 0 ? { tags: tool.tags } : {}),
    http: tool.http,
  };
}

/** What a tool's type module is made of: part of its plan, plain data (it crosses to a worker thread). */
export type ToolTypeSource = Pick<
  ToolPlan,
  "name" | "description" | "inputSchema" | "outputSchema" | "inputTypeName" | "outputTypeName" | "fileName"
> & {
  title?: string;
  http: Pick<ToolPlan["http"], "method" | "path">;
};

/** The part of a tool its types, declarations and map entries need. */
export function toolTypeSource(tool: ToolPlan): ToolTypeSource {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    inputTypeName: tool.inputTypeName,
    ...(tool.outputTypeName ? { outputTypeName: tool.outputTypeName } : {}),
    fileName: tool.fileName,
    http: { method: tool.http.method, path: tool.http.path },
  };
}

/** Property signatures of the input interface, documented from each property's description. */
function inputProperties(
  tool: ToolTypeSource,
  refName: (def: string) => string,
): OptionalKind<PropertySignatureStructure>[] {
  const required = new Set(tool.inputSchema.required ?? []);
  return Object.entries(tool.inputSchema.properties ?? {}).map(([name, schema]) => {
    const description =
      typeof schema === "object" && typeof schema.description === "string" ? docText(schema.description) : "";
    return {
      name: propertyKey(name),
      type: schemaToType(schema, refName),
      hasQuestionToken: !required.has(name),
      ...(description ? { docs: [description] } : {}),
    };
  });
}

/**
 * One module of tool types (`src/tools/<tag>.ts`): for each of its tools, exported types for the
 * arguments (`<Tool>Input`) and structured result (`<Tool>Output`), for the user's own code; the
 * named schemas they use come from `src/schemas.ts` (see SchemaTypes). Declarations only — the
 * tool definitions themselves are data in `data/tools.json` — so it costs tsc almost nothing.
 */
export function toolTypesFile(
  tools: readonly ToolTypeSource[],
  schemaTypes: SchemaTypes,
  kinds: Kinds,
): SourceFileStructure {
  const used = new Set<string>();
  const track = (refName: (def: string) => string) => (def: string) => {
    const name = refName(def);
    if (name !== "unknown") used.add(name);
    return name;
  };
  const statements: Statement[] = [];
  for (const tool of tools) {
    const method = tool.http.method.toUpperCase();
    statements.push({
      kind: kinds.Interface,
      name: tool.inputTypeName,
      isExported: true,
      docs: [docText(`Arguments of the \`${tool.name}\` tool (${method} ${tool.http.path}).`)],
      properties: inputProperties(
        tool,
        track(schemaTypes.refNames(tool.inputSchema.$defs as Obj | undefined, "input")),
      ),
    } satisfies InterfaceDeclarationStructure);
    if (tool.outputSchema && tool.outputTypeName) {
      const refName = track(schemaTypes.refNames(tool.outputSchema.$defs as Obj | undefined, "output"));
      statements.push({
        kind: kinds.TypeAlias,
        name: tool.outputTypeName,
        isExported: true,
        docs: [docText(`\`structuredContent\` of a successful \`${tool.name}\` call.`)],
        type: schemaToType(tool.outputSchema, refName),
      });
    }
  }
  if (used.size > 0)
    statements.unshift(
      { kind: kinds.ImportDeclaration, isTypeOnly: true, namedImports: [...used], moduleSpecifier: "../schemas.js" },
      BLANK_LINE,
    );
  return sourceFile(kinds, statements);
}
