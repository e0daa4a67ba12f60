/**
 * The contract between the generator and the runtime: the one module through which the generator
 * (and the CLI) import anything from `runtime/src/`. Two kinds of things cross, and nothing else:
 *
 * - **Types of the data the generator writes and the runtime reads** (`data/tools.json`, the
 *   server info in `src/index.ts`): the planner builds `ToolDefinition`s and their bindings with
 *   the runtime's own types, so a change of that data contract fails the generator's compile
 *   instead of a generated server at run time. The IR borrows a few of them (HTTP methods,
 *   parameter styles, security requirements) because they are the same OpenAPI notions.
 * - **Pure runtime functions the generator runs so both sides agree byte for byte**: the data
 *   file layout (`tool-data`), the search index (`search-build`), toolset
 *   filters (`toolsets`), the quoting of client configuration entries (`print-config`), path templates, which parameters and bodies the core leaves to feature
 *   `encodings` and which arguments carry files (feature `uploads`), which headers arguments never set (framing and hop-by-hop), the
 *   surfaces' sizes for `mcp-gen lint`, the check of `_fields` paths and the result budget's range, what a client profile is served (`client-names`,
 *   `client-schema`: lint reports the server's run-time adaptation), and the own-property helpers (`own`). These modules use
 *   only Node built-ins: loading them pulls in none of the runtime's dependencies (got, ajv,
 *   p-queue, QuickJS).
 *
 * The runtime never imports the generator.
 */
export type {
  BodyBinding,
  ConfigVariable,
  FieldEncoding,
  HttpBinding,
  HttpMethod,
  JsonSchema,
  ObjectJsonSchema,
  PaginationBinding,
  ParameterBinding,
  ParameterLocation,
  ParameterStyle,
  ResponseBinding,
  SecurityRequirement,
  SecuritySchemeDefinition,
  ServerInfo,
  ServerUrlDefinition,
  ToolAnnotations,
  ToolDefinition,
} from "../../runtime/src/api/types.js";
export type { ListedTool } from "../../runtime/src/api/mcp-types.js";
export type { SearchIndexData } from "../../runtime/src/features/search/search-index.js";
import type { LexiconData } from "../../runtime/src/features/search/search-text.js";
import lexicon from "../../runtime/src/features/search/search-lexicon.json" with { type: "json" };
export type { LexiconData };
/** The lexicon every generated search index carries (general English as data, beside its reader search-text.ts). */
export const SEARCH_LEXICON: LexiconData = lexicon;

export { getOwn, isRecord, setOwn } from "../../runtime/src/protocol/own.js";
export { splitPathTemplate } from "../../runtime/src/features/encodings/path-template.js";
export { isTextual as isTextualMedia } from "../../runtime/src/upstream/result.js";
export { loadTools, type CatalogEntry, type StoredTool } from "../../runtime/src/data/tool-data.js";
export { OFFSET_DIGITS } from "../../runtime/src/features/large-data/offsets-file.js";
export { PACKED_BLOCK_BYTES } from "../../runtime/src/features/large-data/packed-file.js";
export { encodedByFeature } from "../../runtime/src/upstream/body.js";
export { fileArguments } from "../../runtime/src/features/uploads/file-arguments.js";
export { styledByFeature } from "../../runtime/src/upstream/serialize.js";
export { isFramingHeader } from "../../runtime/src/upstream/headers.js";
export { checkFields } from "../../runtime/src/upstream/result-fields.js";
export { MAX_RESULT_BUDGET_TOKENS, MIN_RESULT_BUDGET_TOKENS } from "../../runtime/src/upstream/result-tokens.js";
export {
  buildSearchIndex,
  searchDocument,
  type SearchDocument,
} from "../../runtime/src/features/search/search-build.js";
export { isFiltering, operationFilter, type OperationFilter } from "../../runtime/src/features/toolsets/filter.js";
export { listOption } from "../../runtime/src/cli/settings.js";
export {
  CONFIG_URL,
  shellWord,
  type ClientEntries,
  type ConfigSnippet,
} from "../../runtime/src/features/print-config/print-config.js";
export type { ServedSurface, SurfaceName } from "../../runtime/src/server/surfaces.js";
export { AUTO_BUDGET, chooseSurface, estimateTokens, listBytes } from "../../runtime/src/features/search/auto.js";
export { CALL_OPERATION_TOOL, findingTools } from "../../runtime/src/features/search/meta-tools.js";
export { EXECUTE_CODE_LISTED } from "../../runtime/src/features/code/code-host.js";
export { configServerName, nameMap } from "../../runtime/src/features/clients/client-names.js";
export { shapeInputSchema, type SchemaRules } from "../../runtime/src/features/clients/client-schema.js";
export type { RuntimeProfile } from "../../runtime/src/features/clients/client-profiles.js";
