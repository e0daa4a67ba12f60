// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * Surfaces: what a server lists for the API's operations, chosen at run time.
 * - `all`: one tool per operation.
 * - `search`: `search_operations`, `describe_operation`, `call_operation` instead (for APIs too
 *   large to list); `call_operation` runs the operation through the server's one call path.
 * - `code`: `search_operations`, `describe_operation`, `execute_code` (code-mode sandbox).
 * - `auto`: `all` within {@link AUTO_BUDGET}, else `search`.
 * Custom tools (src/custom/) are listed on every surface. The meta tools' list and dispatch live
 * here, in one place; the server hands each call a way to run an operation (its `callOperation`).
 */
import type { CallToolResult, ListedTool } from "./mcp-types.js";
import { textResult } from "./mcp-types.js";
import { renderToolResult, valueOutcome } from "./tool-outcome.js";
import type { InputRequiredResult } from "./extensions.js";
import { codeToolResult, operationOutcome } from "./code-host.js";
import { DEFAULT_CODE_LIMITS, EXECUTE_CODE_TOOL, executeCode, type CodeHost, type CodeLimits } from "./code-mode.js";
import { buildSearchIndex, searchDocument } from "./search-build.js";
import { MAX_QUERY_CHARS, OperationSearch, type SearchIndexData } from "./search-index.js";
import type { ObjectJsonSchema, ToolDefinition } from "./types.js";
import { UpstreamQueue } from "./upstream-queue.js";

/** Surfaces a user may ask for. */
export const SURFACES = ["all", "search", "code", "auto"] as const;
/** A requested surface. */
export type SurfaceName = (typeof SURFACES)[number];
/** A surface actually served (`auto` resolved). */
export type ServedSurface = Exclude<SurfaceName, "auto">;

/**
 * `auto` serves every operation as a tool only when the list stays small enough for clients
 * (Cursor and VS Code cap the tools they pass on) and cheap on every turn: at most 40 tools and
 * 30,000 estimated tokens of `tools/list`.
 */
export const AUTO_BUDGET = { tools: 40, tokens: 30_000 } as const;

/** Estimated model tokens of a JSON text: about 4 bytes per token. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** Bytes of the `tools/list` entries of these tools (UTF-8 JSON). */
export function listBytes(tools: readonly ListedTool[]): number {
  return Buffer.byteLength(JSON.stringify(tools), "utf8");
}

/**
 * The surface to serve for `requested` and why (the server logs it at info), for `count` operation
 * tools; `listed` (what `tools/list` would show of them) is only asked for when the count fits the
 * budget, so a large API is decided without loading its schemas. A client profile sets its own tool
 * budget (`budget`, client-views.ts).
 */
export function chooseSurface(
  requested: SurfaceName,
  count: number,
  listed: () => readonly ListedTool[],
  budget: { tools: number; tokens: number } = AUTO_BUDGET,
): { surface: ServedSurface; reason: string } {
  if (requested !== "auto") return { surface: requested, reason: `asked for (--surface ${requested} or MCP_SURFACE)` };
  if (count > budget.tools)
    return { surface: "search", reason: `auto: ${count} operation tools exceed the budget of ${budget.tools} tools` };
  const tokens = estimateTokens(listBytes(listed()));
  if (tokens > budget.tokens)
    return {
      surface: "search",
      reason: `auto: tools/list of ${count} tools is ~${tokens} tokens, over the budget of ${budget.tokens}`,
    };
  return {
    surface: "all",
    reason: `auto: ${count} operation tools, ~${tokens} tokens of tools/list, within the budget (${budget.tools} tools, ${budget.tokens} tokens)`,
  };
}

/** Parses a surface name (flag or environment); throws a message naming the choices. */
export function parseSurface(text: string, origin: string): SurfaceName {
  if ((SURFACES as readonly string[]).includes(text)) return text as SurfaceName;
  throw new Error(`${origin} must be one of ${SURFACES.join(", ")} (got '${text}')`);
}

export const SEARCH_OPERATIONS = "search_operations";
export const DESCRIBE_OPERATION = "describe_operation";
export const CALL_OPERATION = "call_operation";
export const EXECUTE_CODE = EXECUTE_CODE_TOOL.name;
/** Longest operation name or tag a meta tool accepts (generated tool names have at most 64 characters). */
export const MAX_NAME_CHARS = 256;

const searchResultSchema: ObjectJsonSchema = {
  type: "object",
  properties: {
    results: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: {
            type: "string",
            description: "The operation's name: pass it to describe_operation and call_operation.",
          },
          method: { type: "string" },
          path: { type: "string" },
          summary: { type: "string" },
          score: { type: "number" },
        },
        required: ["name", "method", "path", "summary", "score"],
      },
    },
  },
  required: ["results"],
};

const describeResultSchema: ObjectJsonSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    method: { type: "string" },
    path: { type: "string" },
    description: { type: "string" },
    inputSchema: { type: "object", description: "JSON Schema of call_operation's `arguments` for this operation." },
    outputSchema: { type: "object", description: "JSON Schema of the result's structuredContent." },
    signature: { type: "string", description: "TypeScript declaration of the operation." },
  },
  required: ["name", "method", "path", "description", "inputSchema"],
};

/** The meta tools of the search and code surfaces, described for the API called `title`. */
function metaTools(title: string, count: number): Record<string, ListedTool> {
  return {
    [SEARCH_OPERATIONS]: {
      name: SEARCH_OPERATIONS,
      title: "Search operations",
      description: `Find operations of the ${title} API (${count} operations) by what you want to do, in plain words ("list open pull requests", "refund a payment"). Returns the best matches first; then call describe_operation for the arguments.`,
      inputSchema: {
        type: "object",
        properties: {
          query: {
            type: "string",
            minLength: 1,
            maxLength: MAX_QUERY_CHARS,
            description: "What you want to do, in plain words.",
          },
          limit: {
            type: "integer",
            minimum: 1,
            maximum: 50,
            default: 10,
            description: "How many results at most (default 10).",
          },
          tag: { type: "string", maxLength: MAX_NAME_CHARS, description: "Only operations with this OpenAPI tag." },
        },
        required: ["query"],
        additionalProperties: false,
      },
      outputSchema: searchResultSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    [DESCRIBE_OPERATION]: {
      name: DESCRIBE_OPERATION,
      title: "Describe an operation",
      description:
        "The full description of one operation found by search_operations: HTTP method and path, documentation, the JSON Schema of its arguments and result, and its TypeScript signature.",
      inputSchema: {
        type: "object",
        properties: {
          name: {
            type: "string",
            minLength: 1,
            maxLength: MAX_NAME_CHARS,
            description: "The operation's name from search_operations.",
          },
        },
        required: ["name"],
        additionalProperties: false,
      },
      outputSchema: describeResultSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    [CALL_OPERATION]: {
      name: CALL_OPERATION,
      title: "Call an operation",
      description:
        "Calls one operation of the API with its arguments (see describe_operation for their schema) and returns its result.",
      inputSchema: {
        type: "object",
        properties: {
          name: {
            type: "string",
            minLength: 1,
            maxLength: MAX_NAME_CHARS,
            description: "The operation's name from search_operations.",
          },
          arguments: {
            type: "object",
            description: "The operation's arguments, as describe_operation's inputSchema says.",
          },
        },
        required: ["name", "arguments"],
        additionalProperties: false,
      },
      annotations: { openWorldHint: true },
    },
    [EXECUTE_CODE]: {
      name: EXECUTE_CODE,
      title: "Run code against the API",
      description: EXECUTE_CODE_TOOL.description,
      inputSchema: EXECUTE_CODE_TOOL.inputSchema as ObjectJsonSchema,
      annotations: { openWorldHint: true },
    },
  };
}

/** Names of the meta tools each surface lists (before the custom tools). */
const SURFACE_META_TOOLS: Record<ServedSurface, string[]> = {
  all: [],
  search: [SEARCH_OPERATIONS, DESCRIBE_OPERATION, CALL_OPERATION],
  code: [SEARCH_OPERATIONS, DESCRIBE_OPERATION, EXECUTE_CODE],
};

/**
 * The meta tools a surface lists for an API of `count` operations called `title`, as `tools/list`
 * shows them (none for `all`); used by `mcp-gen lint` to see what a client receives.
 */
export function surfaceMetaTools(surface: ServedSurface, title: string, count: number): ListedTool[] {
  const all = metaTools(title, count);
  return SURFACE_META_TOOLS[surface].map((name) => all[name]!);
}

/**
 * Runs an operation exactly as `tools/call` of its own tool would (the server's callOperation);
 * `signal` aborts it, `fromCode` says that a script asks (it cannot confirm destructive calls).
 */
export type RunOperation = (
  name: string,
  args: Record<string, unknown>,
  via?: { signal?: AbortSignal; fromCode?: boolean },
) => Promise<CallToolResult | InputRequiredResult>;

/**
 * The operations a server offers: their names from the start, their definitions when asked for
 * (the server loads them on first need: describing, calling, or building a missing index).
 */
export interface OperationLookup {
  names: ReadonlySet<string>;
  get(name: string): ToolDefinition | undefined;
  all(): readonly ToolDefinition[];
}

/** What the meta tools read besides the tool definitions. */
export interface MetaToolsOptions {
  surface: ServedSurface;
  /** The API's title, for the tool descriptions. */
  title: string;
  /** The operations this server offers (after toolset filters). */
  operations: OperationLookup;
  /** data/search-index.json as text, or undefined when absent (the index is then built from the tools). */
  readSearchIndex?: () => string | undefined;
  /** data/declarations.json as text (tool name → TypeScript declaration), or undefined when absent. */
  readDeclarations?: () => string | undefined;
  /** One operation's declaration, read without parsing the others; when given, readDeclarations is not used. */
  readDeclaration?: (name: string) => string | undefined;
  /** Limits of each `execute_code` run (code surface; default DEFAULT_CODE_LIMITS). */
  codeLimits?: CodeLimits;
  /** The server's slots for `execute_code` runs (shared by every surface it serves; default: this surface's own). */
  codeRuns?: UpstreamQueue;
}

/**
 * Most `execute_code` runs at once in one server: each is a worker thread with its own sandbox
 * memory (64 MiB by default), so a client sending a hundred at once must not start a hundred; the
 * others wait in FIFO order (the same bounded queue as upstream calls).
 */
export const MAX_CONCURRENT_CODE_RUNS = 4;

/** The meta tools of one server: their listing and their calls. Data files load on first use. */
export class MetaTools {
  readonly surface: ServedSurface;
  private readonly listed: ListedTool[];
  private readonly options: MetaToolsOptions;
  private index: OperationSearch | undefined;
  private declarations: Record<string, unknown> | null | undefined;

  constructor(options: MetaToolsOptions) {
    this.options = options;
    this.surface = options.surface;
    const all = metaTools(options.title, options.operations.names.size);
    this.listed = SURFACE_META_TOOLS[options.surface].map((name) => all[name]!);
  }

  /** The meta tools this surface lists, in order. */
  tools(): readonly ListedTool[] {
    return this.listed;
  }

  /** The listed meta tool called `name`, if any. */
  find(name: string): ListedTool | undefined {
    return this.listed.find((tool) => tool.name === name);
  }

  /** The loaded search index (loaded, or built from the tools, on first use). */
  searchIndex(): OperationSearch {
    if (!this.index) {
      const text = this.options.readSearchIndex?.();
      const data =
        text === undefined
          ? buildSearchIndex(this.options.operations.all().map(searchDocument))
          : (JSON.parse(text) as SearchIndexData);
      this.index = new OperationSearch(data);
    }
    return this.index;
  }

  /**
   * Calls meta tool `name` with validated `args`. `allowed` says which operations this caller may
   * see (toolset filters, OAuth scopes); `run` runs one operation; `signal` aborts with the request.
   */
  async call(
    name: string,
    args: Record<string, unknown>,
    allowed: (name: string) => boolean,
    run: RunOperation,
    signal?: AbortSignal,
  ): Promise<CallToolResult | InputRequiredResult> {
    switch (name) {
      case SEARCH_OPERATIONS:
        return this.search(args, allowed);
      case DESCRIBE_OPERATION:
        return this.describe(String(args.name), allowed);
      case CALL_OPERATION: {
        const target = String(args.name);
        if (!allowed(target)) return unknownOperation(target);
        return run(target, args.arguments as Record<string, unknown>);
      }
      case EXECUTE_CODE:
        return this.executeCode(String(args.code), allowed, run, signal);
      default:
        throw new Error(`not a meta tool: ${name}`);
    }
  }

  /**
   * `execute_code`: the script's `api.<tool>()` calls run through `run`, the same path as
   * call_operation (validation, credentials, cancellation), and only for operations this caller may
   * see; an operation that needs the user's confirmation is refused (a script cannot ask the user). QuickJS loads on the first run (code-mode.ts imports none of it at start).
   */
  private async executeCode(
    code: string,
    allowed: (name: string) => boolean,
    run: RunOperation,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    const toolNames = [...this.options.operations.names].filter(allowed);
    const host: CodeHost = {
      toolNames,
      call: async (operation, operationArgs, callSignal) =>
        allowed(operation)
          ? operationOutcome(operation, await run(operation, operationArgs, { signal: callSignal, fromCode: true }))
          : { ok: false, error: { message: `Unknown operation '${operation}'.` } },
    };
    const runs = (this.options.codeRuns ??= new UpstreamQueue(MAX_CONCURRENT_CODE_RUNS));
    const outcome = await runs.run(
      () =>
        executeCode(code, host, this.options.codeLimits ?? DEFAULT_CODE_LIMITS, signal ?? new AbortController().signal),
      signal,
    );
    return codeToolResult(outcome);
  }

  private search(args: Record<string, unknown>, allowed: (name: string) => boolean): CallToolResult {
    const limit = typeof args.limit === "number" ? args.limit : 10;
    const results = this.searchIndex().search(String(args.query), {
      limit,
      ...(typeof args.tag === "string" ? { tag: args.tag } : {}),
      allowed: (name) => this.options.operations.names.has(name) && allowed(name),
    });
    return renderToolResult(valueOutcome({ results }));
  }

  private describe(name: string, allowed: (name: string) => boolean): CallToolResult {
    const tool = this.options.operations.get(name);
    if (!tool || !allowed(name)) return unknownOperation(name);
    const described: Record<string, unknown> = {
      name: tool.name,
      method: tool.http.method.toUpperCase(),
      path: tool.http.path,
      description: tool.documentation ?? tool.description,
      inputSchema: tool.inputSchema,
    };
    if (tool.outputSchema) described.outputSchema = tool.outputSchema;
    const signature = this.signature(name);
    if (signature !== undefined) described.signature = signature;
    return renderToolResult(valueOutcome(described));
  }

  /** The operation's TypeScript declaration from data/declarations.json, when that file exists. */
  private signature(name: string): string | undefined {
    if (this.options.readDeclaration) return this.options.readDeclaration(name);
    if (this.declarations === undefined) {
      const text = this.options.readDeclarations?.();
      this.declarations = text === undefined ? null : (JSON.parse(text) as Record<string, unknown>);
    }
    const value = this.declarations && Object.hasOwn(this.declarations, name) ? this.declarations[name] : undefined;
    return typeof value === "string" ? value : undefined;
  }
}

function unknownOperation(name: string): CallToolResult {
  return textResult(`Unknown operation '${name}'. Use search_operations to find operation names.`, true);
}
