/**
 * The entry point of the views' browser script (bundled with the MCP Apps `App` by the project's
 * build): reads the tool's view spec from the page, connects to the host, follows its theme, and
 * hands the tool's input and result to the table, card or form.
 */
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps";
import type { ViewSpec } from "../view-choice.js";
import { renderCard } from "./card.js";
import type { ToolResult } from "./dom.js";
import { FormView } from "./form.js";
import { OperationView, type MakeView, type View } from "./operation.js";
import { TableView } from "./table.js";

/** The view of `spec`: a table, a form, a card, or the view of the operation a meta tool's call names. */
const makeView: MakeView = (root, spec, call) =>
  spec.kind === "table"
    ? new TableView(root, spec, call)
    : spec.kind === "form"
      ? new FormView(root, spec, call)
      : spec.kind === "operation"
        ? new OperationView(root, spec, call, makeView)
        : { setInput: () => undefined, show: (result) => renderCard(root, spec, result) };

const spec = JSON.parse(document.getElementById("mcp-view-spec")?.textContent ?? "{}") as ViewSpec;
const root = document.getElementById("mcp-view")!;
const app = new App({ name: `mcp-gen ${spec.kind} view`, version: "1.0.0" });
const call = async (args: Record<string, unknown>): Promise<ToolResult> =>
  (await app.callServerTool({ name: spec.tool, arguments: args })) as ToolResult;
const view: View = makeView(root, spec, call);

/** Follows the host's theme, style variables and fonts, where it passes them. */
function applyHostContext(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context?.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

app.ontoolinput = ({ arguments: args }) => view.setInput(args ?? {});
app.ontoolresult = (result) => view.show(result as ToolResult);
app.onhostcontextchanged = (context) => applyHostContext(context);
if (spec.kind !== "form") root.replaceChildren(document.createTextNode("Waiting for the result…"));
void app.connect().then(() => applyHostContext(app.getHostContext()));
