/**
 * The test host's page script (runs in Chromium, bundled by esbuild from this file's compiled
 * output): it mounts one view as a web host does, on the extension's own host-side bridge
 * (`AppBridge` + `PostMessageTransport` from `@modelcontextprotocol/ext-apps/app-bridge`). The view
 * runs in a sandboxed iframe (scripts and forms, no same origin) loaded from the test host's server,
 * which sends the resource's CSP as a header; the bridge answers the view's handshake with the host
 * context (theme, style variables, the tool), sends the tool's input and result, and relays the
 * view's tool calls to `hostCallTool`, a function the Node side exposes (it calls the real server).
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";

/** What the Node side asks the page to mount. */
export interface MountSpec {
  /** The view's document on the test host's server (served with its CSP header). */
  viewUrl: string;
  hostContext: McpUiHostContext;
  /** The tool's arguments, sent as `ui/notifications/tool-input` after the view's handshake. */
  toolInput: Record<string, unknown>;
  /** The tool's result, sent as `ui/notifications/tool-result`; absent for a view that starts empty (a form). */
  toolResult?: Record<string, unknown>;
}

// The few DOM members this script uses (the repository compiles without the DOM library).
interface Frame {
  contentWindow: unknown;
  style: { height: string; width: string; border: string };
  setAttribute(name: string, value: string): void;
}
interface HostGlobal {
  document: { createElement(tag: "iframe"): Frame; body: { appendChild(node: Frame): void } };
  hostCallTool(params: unknown): Promise<Record<string, unknown>>;
  hostLog: string[];
  mcpHost: { mount(spec: MountSpec): Promise<void> };
}
const host = globalThis as unknown as HostGlobal;
host.hostLog = [];

/** Mounts the view and resolves once its handshake is done and its input (and result) are sent. */
async function mount(spec: MountSpec): Promise<void> {
  const frame = host.document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts allow-forms");
  frame.setAttribute("title", "view");
  frame.style.width = "100%";
  frame.style.height = "200px";
  frame.style.border = "0";
  host.document.body.appendChild(frame);
  const bridge = new AppBridge(
    null,
    { name: "mcp-gen-test-host", version: "1.0.0" },
    { serverTools: {}, logging: {} },
    { hostContext: spec.hostContext },
  );
  bridge.oncalltool = async (params) => {
    host.hostLog.push(`call ${params.name}`);
    return (await host.hostCallTool(params)) as never;
  };
  bridge.addEventListener("sizechange", ({ height }) => {
    if (height != null) frame.style.height = `${height}px`;
  });
  const ready = new Promise<void>((resolve) => bridge.addEventListener("initialized", () => resolve()));
  const window = frame.contentWindow as ConstructorParameters<typeof PostMessageTransport>[0];
  await bridge.connect(new PostMessageTransport(window, window!));
  frame.setAttribute("src", spec.viewUrl);
  await ready;
  host.hostLog.push("initialized");
  await bridge.sendToolInput({ arguments: spec.toolInput });
  if (spec.toolResult) await bridge.sendToolResult(spec.toolResult as never);
  host.hostLog.push("sent");
}

host.mcpHost = { mount };
