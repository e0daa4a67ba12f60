/**
 * The server's resources: the upstream API's own OpenAPI document (when the generator passed it)
 * and one Markdown documentation page per operation, also reachable through a resource template
 * whose `operation` variable completes to the tool names.
 */
import type { ToolDefinition } from "../api/types.js";
import { isRecord, setOwn } from "../protocol/own.js";

/** A listed resource. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A listed resource template (RFC 6570 level 1). */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One item of `resources/read` contents. */
export interface TextResourceContents {
  uri: string;
  mimeType: string;
  text: string;
}

/** URI of the upstream API's OpenAPI document. */
export const API_DOCUMENT_URI = "openapi://document";
/** URI of the operations' TypeScript declarations (JSON: tool name → declaration). */
export const DECLARATIONS_URI = "openapi://declarations";
/** Prefix of per-operation documentation URIs; the suffix is the tool name. */
export const OPERATION_URI_PREFIX = "openapi://operations/";
/** The template covering every per-operation documentation URI. */
export const OPERATION_URI_TEMPLATE = `${OPERATION_URI_PREFIX}{operation}`;
/** Most values one `completion/complete` answer may carry (spec: ≤ 100). */
export const MAX_COMPLETION_VALUES = 100;

/** The static resource catalog of one server. */
export class ResourceCatalog {
  private readonly resources: Resource[];
  private readonly byName: Map<string, ToolDefinition>;

  /**
   * `apiDocument` is the OpenAPI document as JSON text, or a function that reads it (called on each
   * read, so a big document is not kept in memory); omit it when the generator did not ship one.
   */
  constructor(
    private readonly tools: readonly ToolDefinition[],
    private readonly apiDocument?: string | (() => string),
    private readonly declarations?: string | (() => string),
  ) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.resources = [
      ...(apiDocument === undefined
        ? []
        : [
            {
              uri: API_DOCUMENT_URI,
              name: "openapi-document",
              title: "OpenAPI document",
              description: "The upstream API's OpenAPI document this server was generated from.",
              mimeType: "application/json",
            },
          ]),
      ...(declarations === undefined
        ? []
        : [
            {
              uri: DECLARATIONS_URI,
              name: "operation-declarations",
              title: "Operation declarations (TypeScript)",
              description:
                "JSON object: tool name → the operation's TypeScript declaration (its input and output types and `api.<tool>(args)` signature, as used by code mode).",
              mimeType: "application/json",
            },
          ]),
      ...tools.map((tool) => ({
        uri: OPERATION_URI_PREFIX + tool.name,
        name: `operation-${tool.name}`,
        title: `Operation ${tool.title ?? tool.name}`,
        description: `Documentation of ${tool.http.method.toUpperCase()} ${tool.http.path} (tool ${tool.name}).`,
        mimeType: "text/markdown",
      })),
    ];
  }

  /** Every resource, in a stable order (document, declarations, then operations in tool order). */
  list(): readonly Resource[] {
    return this.resources;
  }

  /** The resource templates. */
  templates(): ResourceTemplate[] {
    return [
      {
        uriTemplate: OPERATION_URI_TEMPLATE,
        name: "operation-docs",
        title: "Operation documentation",
        description: "Markdown documentation of one API operation; `operation` is a tool name.",
        mimeType: "text/markdown",
      },
    ];
  }

  /** The contents of `uri`, or undefined when no such resource exists. */
  read(uri: string): TextResourceContents[] | undefined {
    if (uri === API_DOCUMENT_URI && this.apiDocument !== undefined) {
      const text = typeof this.apiDocument === "function" ? this.apiDocument() : this.apiDocument;
      return [{ uri, mimeType: "application/json", text }];
    }
    if (uri === DECLARATIONS_URI && this.declarations !== undefined) {
      const text = typeof this.declarations === "function" ? this.declarations() : this.declarations;
      return [{ uri, mimeType: "application/json", text }];
    }
    if (!uri.startsWith(OPERATION_URI_PREFIX)) return undefined;
    const tool = this.byName.get(decodeURIComponent(uri.slice(OPERATION_URI_PREFIX.length)));
    return tool ? [{ uri, mimeType: "text/markdown", text: operationMarkdown(tool) }] : undefined;
  }

  /** Completion values for a template variable (`operation`), by prefix, in tool order. */
  complete(
    uriTemplate: string,
    argument: string,
    prefix: string,
  ): { values: string[]; total: number; hasMore: boolean } {
    if (uriTemplate !== OPERATION_URI_TEMPLATE || argument !== "operation")
      return { values: [], total: 0, hasMore: false };
    const matches = this.tools.map((tool) => tool.name).filter((name) => name.startsWith(prefix));
    return {
      values: matches.slice(0, MAX_COMPLETION_VALUES),
      total: matches.length,
      hasMore: matches.length > MAX_COMPLETION_VALUES,
    };
  }
}

/** Markdown documentation of one operation, from the tool definition alone. */
export function operationMarkdown(tool: ToolDefinition): string {
  const lines = [
    `# ${tool.title ?? tool.name}`,
    "",
    `\`${tool.http.method.toUpperCase()} ${tool.http.path}\` (tool \`${tool.name}\`)`,
    "",
    tool.documentation ?? tool.description,
    "",
  ];
  if (tool.http.parameters.length > 0) {
    lines.push("## Parameters", "");
    for (const p of tool.http.parameters)
      lines.push(`- \`${p.argument}\` → ${p.in} \`${p.name}\`${p.required ? " (required)" : ""}`);
    lines.push("");
  }
  if (tool.http.body)
    lines.push(
      "## Request body",
      "",
      `Media type \`${tool.http.body.mediaType}\`${tool.http.body.required ? " (required)" : ""}.`,
      "",
    );
  lines.push("## Input schema", "", "```json", JSON.stringify(tool.inputSchema, null, 2), "```", "");
  if (tool.outputSchema)
    lines.push("## Output schema", "", "```json", JSON.stringify(tool.outputSchema, null, 2), "```", "");
  return lines.join("\n");
}

/** The keys of an OpenAPI path item that are operations. */
const OPERATION_KEYS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * The OpenAPI document (JSON text) with only the offered operations, named by route
 * (`GET /pets/{petId}`): what toolset filters or `--read-only` left out is not shown by
 * `openapi://document` either. Path items left without operations go too; the rest is unchanged.
 */
export function documentWithOnly(text: string, routes: ReadonlySet<string>): string {
  const document = JSON.parse(text) as unknown;
  if (!isRecord(document) || !isRecord(document.paths)) return text;
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) continue;
    const kept = Object.entries(item).filter(
      ([key]) => !OPERATION_KEYS.has(key) || routes.has(`${key.toUpperCase()} ${path}`),
    );
    if (kept.some(([key]) => OPERATION_KEYS.has(key))) setOwn(paths, path, Object.fromEntries(kept));
  }
  return JSON.stringify({ ...document, paths });
}

/** The declarations (JSON text: tool name → declaration) of the offered tools only (`openapi://declarations`). */
export function declarationsOf(text: string, names: ReadonlySet<string>): string {
  const all = JSON.parse(text) as unknown;
  return isRecord(all)
    ? JSON.stringify(Object.fromEntries(Object.entries(all).filter(([name]) => names.has(name))))
    : text;
}
