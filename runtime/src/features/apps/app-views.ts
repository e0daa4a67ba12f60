/**
 * The views of one server's operations (MCP Apps extension): which client renders them, the link
 * each tool with a view carries for it, and the `ui://` resources of the views.
 */
import type { ListedTool } from "../../api/mcp-types.js";
import type { ToolDefinition } from "../../api/types.js";
import { isRecord } from "../../protocol/own.js";
import type { MetaTools } from "../../server/surfaces.js";
import type { ToolViews, ViewResource } from "../../server/views-slot.js";
import { chooseView, type ViewSpec } from "./view-choice.js";
import { VIEW_MIME_TYPE, viewPage, viewScript, type ViewScript } from "./view-page.js";

/** The extension's identifier, under which a client declares it in `capabilities.extensions`. */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";
/** The key of a tool's view URI in `_meta` before `_meta.ui.resourceUri` (the extension still reads it). */
const LEGACY_URI_KEY = "ui/resourceUri";
/** Every view's URI starts so: `ui://views/<kind>/<tool>`. */
export const VIEW_URI_PREFIX = "ui://views/";

/**
 * A view resource's metadata for the host: no network origin at all (connect, resources, frames:
 * the page needs none, its script is inline) and a visible border.
 */
const RESOURCE_UI_META = { csp: { connectDomains: [], resourceDomains: [], frameDomains: [] }, prefersBorder: true };

/** The views of the operations; `readScript` gives the bundled view script (read on the first page served). */
export class AppViews implements ToolViews {
  private specs: Map<string, ViewSpec> | undefined;
  private script: ViewScript | undefined;

  constructor(
    private readonly operations: () => readonly ToolDefinition[],
    private readonly readScript: () => string,
    private readonly meta?: MetaTools,
  ) {}

  /** Whether the client declared the extension with the MCP App MIME type. */
  renderedBy(capabilities: Readonly<Record<string, unknown>>): boolean {
    const extensions = capabilities.extensions;
    const ui = isRecord(extensions) ? extensions[UI_EXTENSION] : undefined;
    return isRecord(ui) && Array.isArray(ui.mimeTypes) && ui.mimeTypes.includes(VIEW_MIME_TYPE);
  }

  /**
   * The tool with `_meta.ui`: its view's URI, visible to the model and callable from the view; and
   * the URI under the extension's earlier key `ui/resourceUri` too, as its own server helper
   * (`registerAppTool`) writes it for hosts that read only that.
   */
  linked(tool: ListedTool): ListedTool {
    const operationCall = this.meta?.operationCall?.(tool.name);
    const spec =
      this.byName().get(tool.name) ??
      (operationCall && this.byName().size > 0 ? this.operationView(tool.name, operationCall) : undefined);
    if (!spec) return tool;
    const resourceUri = viewUri(spec);
    const ui = { resourceUri, visibility: ["model", "app"] };
    return { ...tool, _meta: { ...tool._meta, ui, [LEGACY_URI_KEY]: resourceUri } };
  }

  /** A table's columns (a card or form shows no list): what its rows must carry to fill them. */
  shownFields(toolName: string, capabilities: Readonly<Record<string, unknown>>): string[] | undefined {
    if (!this.renderedBy(capabilities)) return undefined;
    return this.byName()
      .get(toolName)
      ?.columns?.map((column) => column.key);
  }

  /** One resource per view, in tool order. */
  resources(): ViewResource[] {
    return [...this.byName().values()].map((spec) => ({
      uri: viewUri(spec),
      name: `view-${spec.tool}`,
      title: `${spec.title} (${spec.kind})`,
      description: `Interactive ${spec.kind} of ${spec.operation} (tool ${spec.tool}).`,
      mimeType: VIEW_MIME_TYPE,
      _meta: { ui: RESOURCE_UI_META },
    }));
  }

  /** The page of the view at `uri`; undefined for a URI that names no view. */
  read(uri: string): ReturnType<ToolViews["read"]> {
    if (!uri.startsWith(VIEW_URI_PREFIX)) return undefined;
    const [kind, name, ...rest] = uri.slice(VIEW_URI_PREFIX.length).split("/");
    if (name === undefined || rest.length > 0) return undefined;
    const tool = decodeURIComponent(name);
    const operationCall = kind === "operation" ? this.meta?.operationCall?.(tool) : undefined;
    const spec = operationCall ? this.operationView(tool, operationCall) : this.byName().get(tool);
    if (!spec || spec.kind !== kind) return undefined;
    this.script ??= viewScript(this.readScript());
    return [{ uri, mimeType: VIEW_MIME_TYPE, text: viewPage(spec, this.script), _meta: { ui: RESOURCE_UI_META } }];
  }

  /**
   * The view of meta tool `tool`, which calls one operation per call: every operation's view by
   * name, for the page to pick the one of the operation each call names (the extension links views
   * to tools, not to results: one view serves every call of the tool).
   */
  private operationView(tool: string, operationCall: NonNullable<ViewSpec["operationCall"]>): ViewSpec {
    return {
      kind: "operation",
      tool,
      title: tool,
      operation: "",
      operationCall: { nameArgument: operationCall.nameArgument, argumentsArgument: operationCall.argumentsArgument },
      views: Object.fromEntries(this.byName()),
    };
  }

  /** Each operation's view, by tool name, chosen once. */
  private byName(): Map<string, ViewSpec> {
    if (!this.specs) {
      this.specs = new Map();
      for (const tool of this.operations()) {
        const spec = chooseView(tool);
        if (spec) this.specs.set(tool.name, spec);
      }
    }
    return this.specs;
  }
}

/** The URI of a view. */
export function viewUri(spec: ViewSpec): string {
  return `${VIEW_URI_PREFIX}${spec.kind}/${encodeURIComponent(spec.tool)}`;
}
