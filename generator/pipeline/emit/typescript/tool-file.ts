import type { ToolDefinition } from "../../../shared/contract.js";
import type { ToolPlan } from "../../plan/plan-types.js";
import { docText, propertyKey, schemaToType } from "./schema-to-ts.js";
import type { SchemaTypes } from "./schema-types.js";
import type { ToolTypeSource } from "./tool-type-source.js";
import { interfaceText, propertySignature, typeAliasText, type MemberText } from "./structure-text.js";
import { textPieces } from "./text-writer.js";

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
    ...(tool.confirm ? { confirm: true } : {}),
    ...(tool.tags.length > 0 ? { tags: tool.tags } : {}),
    http: tool.http,
  };
}

/** The part of a tool its types, declarations and map entries need. */
export function toolTypeSource(tool: ToolPlan): ToolTypeSource {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    inputTypeName: tool.inputTypeName,
    outputTypeName: tool.outputTypeName,
    resultTypes: tool.resultTypes,
    fileName: tool.fileName,
    http: {
      method: tool.http.method,
      path: tool.http.path,
      response: {
        ...(tool.http.response.wrapKey !== undefined ? { wrapKey: tool.http.response.wrapKey } : {}),
        ...(tool.http.response.fallbackKey !== undefined ? { fallbackKey: tool.http.response.fallbackKey } : {}),
      },
    },
    paged: tool.http.pagination !== undefined,
  };
}

/** The members of the input interface, documented from each property's description. */
function inputMembers(tool: ToolTypeSource, refName: (def: string) => string): MemberText[] {
  const required = new Set(tool.inputSchema.required ?? []);
  return Object.entries(tool.inputSchema.properties ?? {}).map(([name, schema]) => {
    const description =
      typeof schema === "object" && typeof schema.description === "string" ? docText(schema.description) : "";
    return {
      signature: propertySignature(propertyKey(name), schemaToType(schema, refName), !required.has(name)),
      docs: description ? [description] : [],
    };
  });
}

/** One tool's types as printed text, and the shared schema types (src/schemas.ts) the text names. */
export interface ToolTypeBlock {
  /** `export interface <Tool>Input { … }` and, with an output schema, `export type <Tool>Output = …;`. */
  text: string;
  /** Names of src/schemas.ts types the text refers to, in the order first reached. */
  uses: string[];
}

/**
 * Each tool's types as its declaration for the model shows them (declarations.ts): its arguments
 * (`<Tool>Input`) and its `structuredContent` (`<Tool>Output`) from the wire schemas — what code
 * mode's `api` sees —, each with its doc comment, written as ts-morph prints them (structure-text.ts).
 * The project's own types (tool-module.ts) come from the full spec. In tool order: a tool's types
 * claim the shared names they reach (SchemaTypes).
 */
export function toolTypeBlocks(tools: readonly ToolTypeSource[], schemaTypes: SchemaTypes): ToolTypeBlock[] {
  return tools.map((tool) => {
    const part = toolTypeStatements(tool, schemaTypes);
    return { text: textPieces([part.statements], (statements) => statements)[0]!, uses: part.uses };
  });
}

/** One tool's type statements (see toolTypeBlocks) and the shared schema types they name. */
function toolTypeStatements(tool: ToolTypeSource, schemaTypes: SchemaTypes): { statements: string[]; uses: string[] } {
  const uses = new Set<string>();
  const track = (refName: (def: string) => string) => (def: string) => {
    const name = refName(def);
    if (name !== "unknown") uses.add(name);
    return name;
  };
  const method = tool.http.method.toUpperCase();
  const statements = [
    interfaceText(
      tool.inputTypeName,
      inputMembers(tool, track(schemaTypes.refNames(tool.inputSchema.$defs as Obj | undefined, "input"))),
      { exported: true, docs: [docText(`Arguments of the \`${tool.name}\` tool (${method} ${tool.http.path}).`)] },
    ),
  ];
  if (tool.outputSchema && tool.outputTypeName) {
    const refName = track(schemaTypes.refNames(tool.outputSchema.$defs as Obj | undefined, "output"));
    statements.push(
      typeAliasText(tool.outputTypeName, schemaToType(tool.outputSchema, refName), [
        docText(`\`structuredContent\` of a successful \`${tool.name}\` call.`),
      ]),
    );
  }
  return { statements, uses: [...uses] };
}
