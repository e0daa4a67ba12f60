/**
 * The resource methods (`resources/list`, `resources/templates/list`, `resources/read`) over the
 * user's resources and templates (extensions.ts), listed first, and the generated ones
 * (resources.ts: the OpenAPI document, declarations, per-operation documentation).
 */
import { matchUriTemplate, type Extension } from "../api/extensions.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.js";
import type { ListPager } from "./list-pages.js";
import type { HandlerContext, Params } from "./request-context.js";
import type { ClientChannel } from "./request-tools.js";
import { ResourceCatalog } from "./resources.js";
import type { ToolCatalog } from "./tool-catalog.js";

/** Longest resource URI read (characters). */
export const MAX_URI_CHARS = 8_192;

/** What the resource methods read besides the extension. */
export interface ResourceSources {
  /** The operations, whose documentation pages are resources (loaded when a resource method first needs them). */
  catalog: ToolCatalog;
  /** The OpenAPI document as JSON text (or its reader); omitted when the generator did not ship one. */
  apiDocument: string | (() => string) | undefined;
  /** JSON text of tool name → TypeScript declaration (or its reader), served as `openapi://declarations`. */
  declarations: string | (() => string) | undefined;
}

/** Serves the resource methods of one server. */
export class ResourceMethods {
  private generatedResources: ResourceCatalog | undefined;

  constructor(
    private readonly extension: Extension,
    private readonly sources: ResourceSources,
    private readonly channel: ClientChannel,
  ) {}

  /** The generated resources, built once the operations are loaded. */
  generated(): ResourceCatalog {
    this.generatedResources ??= new ResourceCatalog(
      this.sources.catalog.loaded().tools,
      this.sources.apiDocument,
      this.sources.declarations,
    );
    return this.generatedResources;
  }

  /** `resources/list`: custom resources, then the generated ones. */
  list(params: Params, pager: ListPager): Record<string, unknown> {
    return pager.page(
      "resources",
      [...(this.extension.resources ?? []).map(({ read: _read, ...listed }) => listed), ...this.generated().list()],
      params,
    );
  }

  /** `resources/templates/list`: custom templates, then the generated one. */
  templates(params: Params, pager: ListPager): Record<string, unknown> {
    return pager.page(
      "resourceTemplates",
      [
        ...(this.extension.resourceTemplates ?? []).map(({ read: _read, complete: _complete, ...listed }) => listed),
        ...this.generated().templates(),
      ],
      params,
    );
  }

  /** `resources/read`: a custom resource or template first, then the generated resources. */
  async read(params: Params, call: HandlerContext): Promise<Record<string, unknown>> {
    const uri = params.uri;
    if (typeof uri !== "string") throw new RpcError(ErrorCode.InvalidParams, "resources/read requires a string 'uri'");
    // Templates match URIs with regular expressions: a URI is bounded before any of them runs.
    if (uri.length > MAX_URI_CHARS)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `the uri has ${uri.length} characters; the limit is ${MAX_URI_CHARS}`,
      );
    const contents = (await this.readCustom(uri, params, call)) ?? this.generated().read(uri);
    if (!contents) {
      // SEP-2164: -32602 in the modern era, -32002 in the legacy one; never empty contents.
      throw new RpcError(
        call.era.modern ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound,
        `Resource not found: ${uri}`,
        { uri },
      );
    }
    return { contents };
  }

  private async readCustom(uri: string, params: Params, call: HandlerContext): Promise<unknown[] | undefined> {
    const fixed = (this.extension.resources ?? []).find((r) => r.uri === uri);
    if (fixed) return fixed.read(this.channel.requestTools(params, call));
    for (const template of this.extension.resourceTemplates ?? []) {
      const variables = matchUriTemplate(template.uriTemplate, uri);
      if (variables) return template.read(uri, variables, this.channel.requestTools(params, call));
    }
    return undefined;
  }
}
