/**
 * `data/declarations.json`: one TypeScript declaration per operation, for the model (code mode's
 * `describe_operation.signature`, the `openapi://declarations` resource) and for people. Each entry
 * stands alone: the named types it reaches, its `…Input` interface and `…Output` type, and the
 * operation as a method of `Api` (`api.<tool>(args)` in code mode), with its doc comment:
 *
 *     export type PetStatus = "available" | "pending";
 *     /** Arguments of the `listPets` tool (GET /pets). *\/
 *     export interface ListPetsInput { status?: PetStatus; }
 *     /** `structuredContent` of a successful `listPets` call. *\/
 *     export type ListPetsOutput = { items: Array<Pet> };
 *     interface Api {
 *       /** List pets (the description's first paragraph). GET /pets *\/
 *       listPets(args?: ListPetsInput): Promise<ListPetsOutput>;
 *     }
 *
 * The named types and the tool's types are the very text of src/schemas.ts and of the tool's type
 * module (tool-types.ts prints each once): what the model reads is what the user's code compiles
 * against. Only the `Api` method is printed here, as ts-morph prints its structure (structure-text.ts).
 */
import { brief, propertyKey } from "./schema-to-ts.js";
import { API_INTERFACE } from "./schema-types.js";
import type { ToolTypeSource } from "./tool-type-source.js";
import { interfaceText } from "./structure-text.js";
import { textPieces } from "./text-writer.js";

export { DECLARATIONS_DATA_PATH } from "../data/data-paths.js";

/**
 * One operation's declaration: the printed named types it reaches (`namedTypes`), its printed
 * input/output types (`toolTypes`), and its printed `Api` method (`apiMethod`, from apiMethodTexts).
 */
export function declarationText(namedTypes: readonly string[], toolTypes: string, apiMethod: string): string {
  const named = namedTypes.length > 0 ? `${namedTypes.join("")}\n` : "";
  return `${named}${toolTypes}\n${apiMethod}`;
}

/**
 * Each tool's `Api` method as it stands in its declaration (`interface Api { … }`, ending with a
 * newline), in the order of `tools`.
 */
export function apiMethodTexts(tools: readonly ToolTypeSource[]): string[] {
  return textPieces(tools, (tool) => [apiInterface(tool)]);
}

/** The `Api` interface with one tool's method: its signature and its description's first paragraph. */
function apiInterface(tool: ToolTypeSource): string {
  const optional = (tool.inputSchema.required ?? []).length === 0;
  const output = tool.outputSchema && tool.outputTypeName ? tool.outputTypeName : "unknown";
  return interfaceText(
    API_INTERFACE,
    [
      {
        signature: `${propertyKey(tool.name)}(args${optional ? "?" : ""}: ${tool.inputTypeName}): Promise<${output}>;`,
        // The first paragraph: describe_operation gives the whole description beside the signature.
        docs: [`${brief(tool.description) ?? tool.name}\n\n${tool.http.method.toUpperCase()} ${tool.http.path}`],
      },
    ],
    { exported: false, docs: [] },
  );
}
