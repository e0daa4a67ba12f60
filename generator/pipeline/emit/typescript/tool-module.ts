/**
 * A module of tool types for the user's code (`src/tools/<module>.ts`): each tool's arguments
 * (`<Tool>Input`, from its input schema) and what a successful call returns (`<Tool>Output`, from
 * the full spec: what `api.<tool>()` resolves to), referring to the named types of src/schemas.ts
 * by name. Declarations only — the tool definitions are data in `data/tools.json` — written as
 * text (type-expression.ts, text-writer.ts, structure-text.ts).
 */
import type { JsonSchema } from "../../../shared/contract.js";
import type { ResultType } from "../../plan/plan-types.js";
import { referencedNames, type TypeNames } from "./named-types.js";
import { docText } from "./schema-to-ts.js";
import type { ToolTypeSource } from "./tool-type-source.js";
import {
  intersection,
  oneLine,
  schemaDocs,
  typeDeclaration,
  typeNode,
  union,
  type PropertyNode,
  type TypeNode,
} from "./type-expression.js";
import { propertyKey } from "./schema-to-ts.js";
import { textPieces } from "./text-writer.js";
import { typeImportText } from "./structure-text.js";
import { GENERATED_HEADER } from "./ts-morph.js";

/** The runtime's type of a binary result, imported by a module whose tools return one. */
export const BINARY_TYPE = "BinaryData";

/** The type of what a successful call of `tool` returns (the union of its result types). */
export function outputNode(tool: ToolTypeSource, names: TypeNames): TypeNode {
  const refName = names.refName("output");
  return union(
    tool.resultTypes.returns.map((result: ResultType) =>
      result === "text"
        ? { kind: "text", text: "string" }
        : result === "binary"
          ? { kind: "text", text: BINARY_TYPE }
          : result === "empty"
            ? { kind: "text", text: "undefined" }
            : typeNode(result, refName),
    ),
  );
}

/** The type of the body an upstream error answer of `tool` carries (`unknown` when the spec declares none). */
export function errorNode(tool: ToolTypeSource, names: TypeNames): TypeNode {
  const errors = tool.resultTypes.errors ?? [];
  return errors.length === 0
    ? { kind: "text", text: "unknown" }
    : union(errors.map((e) => typeNode(e, names.refName("output"))));
}

/** The named types the schemas refer to. */
function namesIn(schemas: ReadonlyArray<JsonSchema | undefined>, refName: (def: string) => string): string[] {
  return schemas.flatMap((schema) => referencedNames(schema, refName));
}

/** The named types a tool's input and output types refer to, and its error type. */
export function toolTypeUses(tool: ToolTypeSource, names: TypeNames): { types: string[]; errors: string[] } {
  const inputs = Object.values(tool.inputSchema.properties ?? {});
  const outputs = tool.resultTypes.returns.filter(
    (r): r is JsonSchema => r !== "text" && r !== "binary" && r !== "empty",
  );
  return {
    types: [...new Set([...namesIn(inputs, names.refName("input")), ...namesIn(outputs, names.refName("output"))])],
    errors: namesIn(tool.resultTypes.errors ?? [], names.refName("output")),
  };
}

/** The input interface's members: each argument, with its description. */
function inputNode(tool: ToolTypeSource, names: TypeNames): Extract<TypeNode, { kind: "object" }> {
  const required = new Set(tool.inputSchema.required ?? []);
  const refName = names.refName("input");
  const properties = Object.entries(tool.inputSchema.properties ?? {}).map(
    ([name, schema]): PropertyNode => ({
      key: propertyKey(name),
      optional: !required.has(name),
      type: typeNode(schema, refName),
      docs: schemaDocs(schema),
    }),
  );
  return { kind: "object", properties };
}

/** The structuredContent a tool's result carries on the wire (for per-tool hooks), on one line. */
export function contentType(tool: ToolTypeSource): string {
  const response = tool.http.response;
  if (!tool.outputSchema || response.fallbackKey === undefined) return "unknown";
  const output = { kind: "text", text: tool.outputTypeName } as const;
  const cursor = tool.paged ? "nextCursor?: string;" : "";
  const documented = response.wrapKey
    ? `{ ${propertyKey(response.wrapKey)}: ${tool.outputTypeName};${cursor ? ` ${cursor}` : ""} }`
    : cursor
      ? oneLine(intersection([output, { kind: "text", text: `{ ${cursor} }` }]))
      : tool.outputTypeName;
  return `${documented} | { ${propertyKey(response.fallbackKey)}: unknown }`;
}

/** A tool module's text and the named types its tools refer to directly. */
export interface ToolModuleText {
  text: string;
  /** Named types the module's types use (it imports them), in first-use order. */
  uses: string[];
  /** Named types its tools' error types use (the tool index imports them). */
  errorUses: string[];
}

/** The module of `tools` (see the module comment). Deterministic. */
export function toolModuleText(tools: readonly ToolTypeSource[], names: TypeNames): ToolModuleText {
  const uses = new Set<string>();
  const errorUses = new Set<string>();
  let binary = false;
  const blocks = textPieces(tools, (tool) => {
    const used = toolTypeUses(tool, names);
    for (const name of used.types) uses.add(name);
    for (const name of used.errors) errorUses.add(name);
    if (tool.resultTypes.returns.includes("binary")) binary = true;
    const method = tool.http.method.toUpperCase();
    const call = tool.name;
    return [
      typeDeclaration(tool.inputTypeName, inputNode(tool, names), [
        docText(`Arguments of the \`${call}\` tool (${method} ${tool.http.path}).`),
      ]),
      typeDeclaration(tool.outputTypeName, outputNode(tool, names), [
        docText(`What \`api.${call}(…)\` resolves to (${method} ${tool.http.path}).`),
      ]),
    ];
  });
  const imports = [
    ...(uses.size > 0 ? [typeImportText([...uses], "../schemas.js")] : []),
    ...(binary ? [typeImportText([BINARY_TYPE], "../runtime/api/api-client.js")] : []),
  ];
  const head = imports.length > 0 ? `${imports.join("\n")}\n\n` : "";
  return { text: GENERATED_HEADER + head + blocks.join("\n"), uses: [...uses], errorUses: [...errorUses] };
}
