import type { ToolDefinition } from "../contract.js";
import type { ToolPlan } from "../plan/types.js";
import { docText, propertyKey, schemaToType } from "./schema-to-ts.js";
import type { SchemaTypes } from "./schema-types.js";
import { GENERATED_HEADER, importText, interfaceText, typeAliasText, type PropertyText } from "./ts-text.js";

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

/** Property signatures of the input interface, documented from each property's description. */
function inputProperties(tool: ToolPlan, refName: (def: string) => string): PropertyText[] {
  const required = new Set(tool.inputSchema.required ?? []);
  return Object.entries(tool.inputSchema.properties ?? {}).map(([name, schema]) => {
    const description = typeof schema === "object" && typeof schema.description === "string" ? schema.description : undefined;
    return { key: propertyKey(name), type: schemaToType(schema, refName), optional: !required.has(name), ...(description ? { doc: description } : {}) };
  });
}

/**
 * One tool's TypeScript module: exported types for its arguments (`<Tool>Input`) and structured
 * result (`<Tool>Output`), for the user's own code; the named schemas they use come from
 * `src/schemas.ts` (see SchemaTypes). Declarations only — the tool definition itself is data in
 * `data/tools.json` — so it costs tsc almost nothing.
 */
export function toolTypesText(tool: ToolPlan, schemaTypes: SchemaTypes): string {
  const used = new Set<string>();
  const track = (refName: (def: string) => string) => (def: string) => {
    const name = refName(def);
    if (name !== "unknown") used.add(name);
    return name;
  };
  const method = tool.http.method.toUpperCase();
  let body = interfaceText(
    tool.inputTypeName,
    inputProperties(tool, track(schemaTypes.refNames(tool.inputSchema.$defs as Obj | undefined, "input"))),
    `Arguments of the \`${tool.name}\` tool (${method} ${docText(tool.http.path)}).`,
  );
  if (tool.outputSchema && tool.outputTypeName) {
    const refName = track(schemaTypes.refNames(tool.outputSchema.$defs as Obj | undefined, "output"));
    body += "\n" + typeAliasText(tool.outputTypeName, schemaToType(tool.outputSchema, refName), `\`structuredContent\` of a successful \`${tool.name}\` call.`);
  }
  const imports = used.size > 0 ? importText("../schemas.js", { names: [...used], typeOnly: true }) + "\n" : "";
  return GENERATED_HEADER + imports + body;
}
