/**
 * Resources and completion: the user's (feature `custom`) first, then the generated resources: the
 * OpenAPI document, the declarations and one Markdown page per operation (also by template).
 */
import type { CustomContent } from "./custom-slot.js";
import type { ToolDefinition } from "../api/types.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import { isRecord } from "../protocol/own.js";
import type { ListPager } from "./list-pages.js";
import type { HandlerContext, Params } from "./request-context.js";
import type { ClientChannel } from "./request-tools.js";
import type { ToolViews } from "./views-slot.js";

/** A listed resource. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  _meta?: Record<string, unknown>;
}

/** A listed resource template (RFC 6570 level 1). */
export type ResourceTemplate = Omit<Resource, "uri"> & { uriTemplate: string };

/** One item of `resources/read` contents. */
export interface TextResourceContents {
  uri: string;
  mimeType: string;
  text: string;
  _meta?: Record<string, unknown>;
}

/** URI of the upstream API's OpenAPI document. */
export const API_DOCUMENT_URI = "openapi://document";
/** URI of the operations' TypeScript declarations (JSON: tool name → declaration). */
export const DECLARATIONS_URI = "openapi://declarations";
/** Prefix of per-operation documentation URIs; the suffix is the tool name. */
const OPERATION_URI_PREFIX = "openapi://operations/";
/** The template covering every per-operation documentation URI. */
export const OPERATION_URI_TEMPLATE = `${OPERATION_URI_PREFIX}{operation}`;
/** Most values one `completion/complete` answer may carry (spec: ≤ 100). */
const MAX_COMPLETION_VALUES = 100;
/** Longest resource URI read: templates match with regular expressions, so a URI is bounded first. */
const MAX_URI_CHARS = 8_192;

/** A JSON text given as is or read on demand (a big document is not kept in memory). */
type Text = string | (() => string);

/** The generated resources of one server (operations loaded). */
export class ResourceCatalog {
  private readonly resources: Resource[] = [];
  private readonly byName: Map<string, ToolDefinition>;

  constructor(
    private readonly tools: readonly ToolDefinition[],
    private readonly apiDocument?: Text,
    private readonly declarations?: Text,
  ) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    if (apiDocument !== undefined)
      this.resources.push({
        uri: API_DOCUMENT_URI,
        name: "openapi-document",
        title: "OpenAPI document",
        description: "The upstream API's OpenAPI document this server was generated from.",
        mimeType: "application/json",
      });
    if (declarations !== undefined)
      this.resources.push({
        uri: DECLARATIONS_URI,
        name: "operation-declarations",
        title: "Operation declarations (TypeScript)",
        description:
          "JSON object: tool name → the operation's TypeScript declaration (its input and output types and `api.<tool>(args)` signature, as used by code mode).",
        mimeType: "application/json",
      });
    for (const tool of tools)
      this.resources.push({
        uri: OPERATION_URI_PREFIX + tool.name,
        name: `operation-${tool.name}`,
        title: `Operation ${tool.title ?? tool.name}`,
        description: `Documentation of ${tool.http.method.toUpperCase()} ${tool.http.path} (tool ${tool.name}).`,
        mimeType: "text/markdown",
      });
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
    const json = uri === API_DOCUMENT_URI ? this.apiDocument : uri === DECLARATIONS_URI ? this.declarations : undefined;
    if (json !== undefined)
      return [{ uri, mimeType: "application/json", text: typeof json === "function" ? json() : json }];
    if (!uri.startsWith(OPERATION_URI_PREFIX)) return undefined;
    const tool = this.byName.get(decodeURIComponent(uri.slice(OPERATION_URI_PREFIX.length)));
    return tool ? [{ uri, mimeType: "text/markdown", text: operationMarkdown(tool) }] : undefined;
  }

  /** Completion values for a template variable (`operation`), by prefix, in tool order. */
  complete(uriTemplate: string, argument: string, prefix: string): ReturnType<typeof completion> {
    if (uriTemplate !== OPERATION_URI_TEMPLATE || argument !== "operation") return completion([]);
    return completion(this.tools.map((tool) => tool.name).filter((name) => name.startsWith(prefix)));
  }
}

/** Serves `resources/*` and `completion/complete` of one server. */
export class ResourceMethods {
  private generatedResources: ResourceCatalog | undefined;

  constructor(
    /** The user's resources, templates and prompts (feature `custom`). */
    private readonly custom: CustomContent | undefined,
    /** The operations (loaded on first need), the OpenAPI document and the declarations (when shipped). */
    private readonly sources: { operations: () => readonly ToolDefinition[]; apiDocument?: Text; declarations?: Text },
    private readonly channel: ClientChannel,
    /** The operations' views (feature `apps`), listed to the clients that render them. */
    private readonly views?: ToolViews,
  ) {}

  /** The generated resources, built once the operations are loaded. */
  private generated(): ResourceCatalog {
    const { operations, apiDocument, declarations } = this.sources;
    return (this.generatedResources ??= new ResourceCatalog(operations(), apiDocument, declarations));
  }

  /** `resources/list`: custom resources, then the generated ones (and the views, to a client that renders them). */
  list(params: Params, pager: ListPager, call: HandlerContext): Record<string, unknown> {
    const views = this.views?.renderedBy(this.channel.capabilitiesOf(call)) ? this.views.resources() : [];
    return pager.page("resources", [...(this.custom?.resources ?? []), ...this.generated().list(), ...views], params);
  }

  /** `resources/templates/list`: custom templates, then the generated one. */
  templates(params: Params, pager: ListPager): Record<string, unknown> {
    return pager.page(
      "resourceTemplates",
      [...(this.custom?.templates ?? []), ...this.generated().templates()],
      params,
    );
  }

  /** `resources/read`: a custom resource or template first, then the generated resources. */
  async read(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    const uri = params.uri;
    if (typeof uri !== "string") throw new RpcError(ErrorCode.InvalidParams, "resources/read requires a string 'uri'");
    if (uri.length > MAX_URI_CHARS)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `the uri has ${uri.length} characters; the limit is ${MAX_URI_CHARS}`,
      );
    const tools = () => this.channel.requestTools(params, call);
    const contents = (await this.custom?.read(uri, tools)) ?? this.generated().read(uri) ?? this.views?.read(uri);
    // SEP-2164: -32602 in the modern era, -32002 in the legacy one; never empty contents.
    if (!contents)
      throw new RpcError(
        call.era.modern ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound,
        `Resource not found: ${uri}`,
        { uri },
      );
    return { contents };
  }

  /** `completion/complete` of a resource template's variable or a prompt's argument; -32602 when malformed or unknown. */
  complete(params: Params): Record<string, unknown> {
    const ref = isRecord(params.ref) ? params.ref : undefined;
    const argument = isRecord(params.argument) ? params.argument : undefined;
    if (!ref || typeof ref.type !== "string" || !argument || typeof argument.name !== "string")
      throw new RpcError(ErrorCode.InvalidParams, "completion/complete requires 'ref' and 'argument.name'");
    const prefix = typeof argument.value === "string" ? argument.value : "";
    const custom = this.custom?.complete(ref, argument.name, prefix);
    if (custom) return { completion: completion(custom) };
    if (ref.type === "ref/resource" && typeof ref.uri === "string")
      return { completion: this.generated().complete(ref.uri, argument.name, prefix) };
    if (ref.type === "ref/prompt") throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${String(ref.name)}`);
    throw new RpcError(ErrorCode.InvalidParams, `Unsupported completion reference type: ${ref.type}`);
  }
}

/** The completion object of a list of values: at most {@link MAX_COMPLETION_VALUES}, with the total. */
function completion(values: string[]): { values: string[]; total: number; hasMore: boolean } {
  const hasMore = values.length > MAX_COMPLETION_VALUES;
  return { values: values.slice(0, MAX_COMPLETION_VALUES), total: values.length, hasMore };
}

/** Markdown documentation of one operation, from the tool definition alone. */
function operationMarkdown(tool: ToolDefinition): string {
  const { method, path, parameters, body } = tool.http;
  const lines = [`# ${tool.title ?? tool.name}`, "", `\`${method.toUpperCase()} ${path}\` (tool \`${tool.name}\`)`, ""];
  lines.push(tool.documentation ?? tool.description, "");
  if (parameters.length > 0) {
    lines.push("## Parameters", "");
    for (const p of parameters)
      lines.push(`- \`${p.argument}\` → ${p.in} \`${p.name}\`${p.required ? " (required)" : ""}`);
    lines.push("");
  }
  if (body)
    lines.push("## Request body", "", `Media type \`${body.mediaType}\`${body.required ? " (required)" : ""}.`, "");
  lines.push("## Input schema", "", "```json", JSON.stringify(tool.inputSchema, null, 2), "```", "");
  if (tool.outputSchema)
    lines.push("## Output schema", "", "```json", JSON.stringify(tool.outputSchema, null, 2), "```", "");
  return lines.join("\n");
}
