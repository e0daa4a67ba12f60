/**
 * Where the generated project's data files live (paths relative to the project folder). Shared by
 * the emit steps that write them and the TypeScript that names them in comments.
 */

/** The tool definitions (JSON, one tool per line, read by byte range or whole when needed). */
export const TOOLS_DATA_PATH = "data/tools.json";
/** Where each tool is in data/tools.json (fixed-width lines, runtime/src/data/tool-data.ts). */
export const TOOL_OFFSETS_PATH = "data/tool-offsets.txt";
/** The `$defs` bodies the tool definitions share, one per line (see runtime/src/data/tool-data.ts). */
export const DEFINITIONS_DATA_PATH = "data/definitions.json";
/** Where each body is in data/definitions.json. */
export const DEFINITION_OFFSETS_PATH = "data/definition-offsets.txt";
/** Name, method, path and tags of every tool: read for toolset filters (see runtime/src/data/tool-data.ts). */
export const CATALOG_DATA_PATH = "data/catalog.json";
/** Every tool name: all a server reads of its tools at start (without toolset filters). */
export const TOOL_NAMES_DATA_PATH = "data/tool-names.json";
/** Tool name → the operation's TypeScript declaration (see declarations.ts). */
export const DECLARATIONS_DATA_PATH = "data/declarations.json";
/** Where each tool's declaration is in data/declarations.json (fixed-width lines, tool order). */
export const DECLARATION_OFFSETS_PATH = "data/declaration-offsets.txt";
/** The OpenAPI document (JSON, read when a client asks for it). */
export const API_DOCUMENT_PATH = "data/openapi.json";
/** Each MCP client's configuration entry for the server, printed by its `--print-config`. */
export const CLIENT_CONFIG_PATH = "data/client-config.json";
/** What the runtime needs of the client profiles (profiles/clients/*.json), read by its `main`. */
export const CLIENT_PROFILES_PATH = "data/client-profiles.json";
