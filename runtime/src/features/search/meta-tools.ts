/**
 * The meta tools of the search surface: `search_operations` and `describe_operation` find and
 * explain operations, `call_operation` runs one through the server's one call path. The code
 * surface (feature `code`) lists the first two with its `execute_code` in place of the third.
 */
import type { InputRequiredResult, CallToolResult, ListedTool } from "../../api/mcp-types.js";
import { textResult, renderToolResult, valueOutcome } from "../../api/tool-outcome.js";
import type { ObjectJsonSchema } from "../../api/types.js";
import type { MetaTools, MetaToolsContext, RunOperation, ServedSurface } from "../../server/surfaces.js";
import { buildSearchIndex, searchDocument } from "./search-build.js";
import { MAX_QUERY_CHARS, OperationSearch, type SearchIndexData } from "./search-index.js";
import { readRecord } from "../large-data/offsets-file.js";
import { fuseRankings } from "./fuse.js";

export const SEARCH_OPERATIONS = "search_operations";
export const DESCRIBE_OPERATION = "describe_operation";
export const CALL_OPERATION = "call_operation";
/** Most queries one search merges (`query` and `queries` together count). */
export const MAX_QUERIES = 8;
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
          required: { type: "array", items: { type: "string" }, description: "Arguments the call needs." },
        },
        required: ["name", "method", "path", "summary", "required"],
      },
    },
    tags: {
      type: "array",
      description: "Without a query or tag: the API's tags and how many operations each has.",
      items: {
        type: "object",
        properties: { tag: { type: "string" }, operations: { type: "integer" } },
        required: ["tag", "operations"],
      },
    },
  },
  required: ["results"],
};

/**
 * Most operations a tag's listing returns (a search returns `limit`, default 10): above the largest
 * tags of the APIs we measure (GitHub's `repos`: 204), so that any tagged operation is two calls away.
 */
const BROWSE_MAX = 500;

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

/** `search_operations` and `describe_operation` for an API of `count` operations called `title`. */
export function findingTools(title: string, count: number): ListedTool[] {
  return [
    {
      name: SEARCH_OPERATIONS,
      title: "Search operations",
      description: `Find operations of the ${title} API (${count} operations): the 10 best matches, best first, each with its method, path, summary and required arguments; pick one, then call describe_operation for its arguments. It matches words. Write the query as the operation you expect: its likely name, HTTP method and the object it acts on ("POST create refund for a payment"), in the API's own terms where you know them; add differently worded alternatives in queries (other names for the object or the action): the best matches of each are merged, those several find first. If nothing fits, browse the tags. Without a query: the API's tags with their operation counts; with only a tag: that tag's operations.`,
      inputSchema: {
        type: "object",
        properties: {
          query: {
            type: "string",
            maxLength: MAX_QUERY_CHARS,
            description: "The operation you expect (name, method, the object it acts on), or what you want to do.",
          },
          queries: {
            type: "array",
            items: { type: "string", maxLength: MAX_QUERY_CHARS },
            maxItems: MAX_QUERIES,
            description: "Alternatives to query, each worded differently: each one's best matches, merged.",
          },
          limit: {
            type: "integer",
            minimum: 1,
            maximum: BROWSE_MAX,
            description: `How many results at most, per query (default 10; a tag without a query: all its operations, up to ${BROWSE_MAX}).`,
          },
          tag: { type: "string", maxLength: MAX_NAME_CHARS, description: "Only operations with this tag." },
        },
        additionalProperties: false,
      },
      outputSchema: searchResultSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
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
  ];
}

/** `call_operation`, as `tools/list` shows it. */
export const CALL_OPERATION_TOOL: ListedTool = {
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
};

/** How a meta tool names the one operation it calls and that operation's arguments (`call_operation`). */
type OperationCallShape = NonNullable<ReturnType<NonNullable<MetaTools["operationCall"]>>>;

/** The surface's tool that runs operations: `call_operation` here, `execute_code` on the code surface. */
export interface RunningTool {
  tool: ListedTool;
  call(
    args: Record<string, unknown>,
    allowed: (name: string) => boolean,
    run: RunOperation,
    signal?: AbortSignal,
  ): Promise<CallToolResult | InputRequiredResult>;
  /** The one operation a call runs, if it runs exactly one. */
  target?(args: unknown): string | undefined;
  /** Its arguments, when each call runs one operation and returns that operation's result as is. */
  callShape?: OperationCallShape;
}

/** `call_operation`: runs the operation it names, if this caller may see it. */
const callOperation: RunningTool = {
  tool: CALL_OPERATION_TOOL,
  async call(args, allowed, run) {
    const target = String(args.name);
    return allowed(target) ? run(target, args.arguments as Record<string, unknown>) : unknownOperation(target);
  },
  target: (args) =>
    typeof args === "object" && args !== null && typeof (args as { name?: unknown }).name === "string"
      ? (args as { name: string }).name
      : undefined,
  callShape: { nameArgument: "name", argumentsArgument: "arguments" },
};

/** The meta tools of the search (or code) surface; data files load on first use. */
export class SearchMetaTools implements MetaTools {
  private readonly listed: ListedTool[];
  private index: OperationSearch | undefined;
  private readDeclaration: ((name: string) => string | undefined) | undefined;

  constructor(
    private readonly context: MetaToolsContext,
    readonly surface: ServedSurface = "search",
    private readonly running: RunningTool = callOperation,
  ) {
    this.listed = [...findingTools(context.title, context.operations.names.size), running.tool];
    // The index file is read while the client starts, not on its first search (MS Graph beta's is
    // 10 MB: parsing it took longer than the search). A failure is left to that search to report.
    if (context.readData) setImmediate(() => this.preload());
  }

  /** Loads the search index ahead of the first search (see the constructor). */
  private preload(): void {
    try {
      this.searchIndex();
    } catch {
      // The first search loads it again and answers with the error.
    }
  }

  tools(): readonly ListedTool[] {
    return this.listed;
  }

  find(name: string): ListedTool | undefined {
    return this.listed.find((tool) => tool.name === name);
  }

  target(name: string, args: unknown): string | undefined {
    return name === this.running.tool.name ? this.running.target?.(args) : undefined;
  }

  runsOperations(name: string): boolean {
    return name === this.running.tool.name;
  }

  operationCall(name: string): OperationCallShape | undefined {
    return name === this.running.tool.name ? this.running.callShape : undefined;
  }

  /** The loaded search index (loaded, or built from the tools, on first use). */
  searchIndex(): OperationSearch {
    if (!this.index) {
      const text = this.context.readData?.("search-index.json");
      const data =
        text === undefined
          ? buildSearchIndex(this.context.operations.all().map(searchDocument))
          : (JSON.parse(text) as SearchIndexData);
      this.index = new OperationSearch(data);
    }
    return this.index;
  }

  async call(
    name: string,
    args: Record<string, unknown>,
    allowed: (name: string) => boolean,
    run: RunOperation,
    signal?: AbortSignal,
  ): Promise<CallToolResult | InputRequiredResult> {
    if (name === SEARCH_OPERATIONS) return this.search(args, allowed);
    if (name === DESCRIBE_OPERATION) return this.describe(String(args.name), allowed);
    if (name === this.running.tool.name) return this.running.call(args, allowed, run, signal);
    throw new Error(`not a meta tool: ${name}`);
  }

  /** A search, a tag's operations (a tag without a query), or the tags (neither). */
  private search(args: Record<string, unknown>, allowed: (name: string) => boolean): CallToolResult {
    const index = this.searchIndex();
    const visible = (name: string) => this.context.operations.names.has(name) && allowed(name);
    const queries = queriesOf(args);
    const tag = typeof args.tag === "string" ? args.tag : undefined;
    const limit = typeof args.limit === "number" ? args.limit : undefined;
    if (queries.length > 0)
      return renderToolResult(
        valueOutcome({
          results: searchMany(index, queries, {
            limit: limit ?? 10,
            allowed: visible,
            ...(tag !== undefined ? { tag } : {}),
          }),
        }),
      );
    if (tag !== undefined)
      return renderToolResult(
        valueOutcome({ results: index.withTag(tag, { limit: limit ?? BROWSE_MAX, allowed: visible }) }),
      );
    return renderToolResult(valueOutcome({ results: [], tags: index.tags(visible) }));
  }

  private describe(name: string, allowed: (name: string) => boolean): CallToolResult {
    const tool = this.context.operations.get(name);
    if (!tool || !allowed(name)) return unknownOperation(name);
    const described: Record<string, unknown> = {
      name: tool.name,
      method: tool.http.method.toUpperCase(),
      path: tool.http.path,
      description: tool.documentation ?? tool.description,
      inputSchema: tool.inputSchema,
    };
    if (tool.outputSchema) described.outputSchema = tool.outputSchema;
    const { readData, readDataRange, indexOf } = this.context;
    this.readDeclaration ??=
      readDataRange && indexOf ? declarationReader(indexOf, readDataRange) : wholeFileReader(readData);
    const signature = this.readDeclaration(name);
    if (signature !== undefined) described.signature = signature;
    return renderToolResult(valueOutcome(described));
  }
}

/** The non-empty queries of a search call: `query`, then `queries`, at most MAX_QUERIES. */
function queriesOf(args: Record<string, unknown>): string[] {
  const list = [args.query, ...(Array.isArray(args.queries) ? args.queries : [])];
  return list
    .flatMap((query) => (typeof query === "string" && query.trim() !== "" ? [query.trim()] : []))
    .slice(0, MAX_QUERIES);
}

/**
 * One query's results, or several queries' results together: each query's best `limit`, merged by
 * reciprocal rank fusion (fuse.ts), so nothing one query finds is lost and what several find comes
 * first (at most `limit` × the number of queries).
 */
export function searchMany(
  index: OperationSearch,
  queries: readonly string[],
  options: Parameters<OperationSearch["search"]>[1],
): ReturnType<OperationSearch["search"]> {
  if (queries.length === 1) return index.search(queries[0]!, options);
  const hits = new Map<string, ReturnType<OperationSearch["search"]>[number]>();
  const rankings = queries.map((query) =>
    index.search(query, options).map((hit) => {
      hits.set(hit.name, hit);
      return hit.name;
    }),
  );
  return fuseRankings(rankings, Number.POSITIVE_INFINITY).map((name) => hits.get(name)!);
}

/** A reader of single declarations (`describe_operation`) by tool position (-1: none) and byte range. */
export function declarationReader(
  indexOf: (name: string) => number,
  readRange: (file: string, offset: number, length: number) => string,
): (name: string) => string | undefined {
  return (name) => {
    const index = indexOf(name);
    if (index < 0) return undefined;
    let record: number[] | undefined;
    try {
      record = readRecord((offset, length) => readRange("declaration-offsets.txt", offset, length), index, 2);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    if (record === undefined || record[1] === 0) return undefined;
    const value = JSON.parse(readRange("declarations.json", record[0]!, record[1]!)) as unknown;
    return typeof value === "string" ? value : undefined;
  };
}

/** Declarations read from data/declarations.json parsed whole (when no reader of single ones is given). */
function wholeFileReader(readData: MetaToolsContext["readData"]): (name: string) => string | undefined {
  const text = readData?.("declarations.json");
  const all = text === undefined ? {} : (JSON.parse(text) as Record<string, unknown>);
  return (name) => {
    const value = Object.hasOwn(all, name) ? all[name] : undefined;
    return typeof value === "string" ? value : undefined;
  };
}

/** The answer for an operation this caller cannot see (or that does not exist). */
export function unknownOperation(name: string): CallToolResult {
  return textResult(`Unknown operation '${name}'. Use search_operations to find operation names.`, true);
}
