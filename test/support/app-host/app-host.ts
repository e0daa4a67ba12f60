/**
 * A test host for MCP Apps views in headless Chromium: a small HTTP server on 127.0.0.1 serves the
 * host page (host-page.ts bundled with esbuild, which uses the extension's `AppBridge`) and each
 * view's HTML with the CSP its resource declares; the Node side holds the official SDK client of a
 * running generated server, reads the view with `resources/read`, calls the tool for the view's
 * result, and relays the tool calls the view makes through the bridge (each one recorded).
 */
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  getToolUiResourceUri,
  RESOURCE_MIME_TYPE,
  type McpUiHostContext,
  type McpUiResourceCsp,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { build } from "esbuild";
import type { Browser, FrameLocator, Page } from "playwright-core";
import type { MountSpec } from "./host-page.js";
import { viewCsp } from "./view-csp.js";

/** A view mounted in a page of its own. */
export interface MountedView {
  page: Page;
  /** The view's document (inside the sandboxed iframe). */
  view: FrameLocator;
  /** The tool calls the view made through the bridge, in order (name and arguments). */
  calls: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** The CSP header the view's document was served with. */
  csp: string;
  /** Console errors and page errors of the host page and the view (CSP violations among them). */
  errors: string[];
}

/** How to open one tool's view. */
export interface OpenOptions {
  tool: Tool;
  arguments: Record<string, unknown>;
  /** Call the tool first and send its result to the view (a table or a card); false for a form. */
  callFirst: boolean;
  /** Viewport width in CSS pixels (default 400, the narrowest a view must be usable at). */
  width?: number;
  theme?: "light" | "dark";
}

/** Style variables a host passes (a subset of the extension's keys), so a view's theming shows. */
export const HOST_STYLES: Record<string, string> = {
  "--color-background-primary": "#fbfaf7",
  "--color-background-secondary": "#f4f4f5",
  "--color-text-primary": "#18181b",
  "--color-text-secondary": "#52525b",
  "--color-border-primary": "#d4d4d8",
  "--color-ring-primary": "#2563eb",
  "--font-sans": "system-ui, sans-serif",
  "--border-radius-md": "6px",
};

/** A running test host; `close` stops its HTTP server (the browser is the caller's). */
export interface AppHost {
  open(options: OpenOptions): Promise<MountedView>;
  close(): Promise<void>;
}

/** Starts the test host for `client` (connected to a generated server) in `browser`. */
export async function startAppHost(browser: Browser, client: Client): Promise<AppHost> {
  const script = await bundleHostPage();
  const views = new Map<string, { html: string; csp: string }>();
  const server = await listen(serveHost(script, views));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const open = async (options: OpenOptions): Promise<MountedView> => {
    const resource = await readView(client, options.tool);
    const id = String(views.size + 1);
    views.set(id, resource);
    const toolResult = options.callFirst
      ? ((await client.callTool({ name: options.tool.name, arguments: options.arguments })) as Record<string, unknown>)
      : undefined;
    const page = await browser.newPage({ viewport: { width: options.width ?? 400, height: 900 } });
    const mounted: MountedView = { page, view: page.frameLocator("iframe"), calls: [], csp: resource.csp, errors: [] };
    watchErrors(page, mounted.errors);
    await page.exposeFunction("hostCallTool", async (params: { name: string; arguments?: Record<string, unknown> }) => {
      mounted.calls.push({ name: params.name, arguments: params.arguments ?? {} });
      return client.callTool({ name: params.name, arguments: params.arguments ?? {} });
    });
    await page.goto(`${base}/`);
    const spec: MountSpec = {
      viewUrl: `${base}/view/${id}`,
      hostContext: hostContext(options),
      toolInput: options.arguments,
      ...(toolResult ? { toolResult } : {}),
    };
    await page.evaluate(mountInPage, JSON.stringify(spec));
    return mounted;
  };
  return { open, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Runs in the page: mounts the view (the spec passed as JSON, which keeps the evaluate typing shallow). */
function mountInPage(spec: string): Promise<void> {
  return (globalThis as unknown as { mcpHost: { mount(spec: MountSpec): Promise<void> } }).mcpHost.mount(
    JSON.parse(spec) as MountSpec,
  );
}

/** The host context a host passes: the theme, its style variables, the tool, the container. */
function hostContext(options: OpenOptions): McpUiHostContext {
  return {
    theme: options.theme ?? "light",
    styles: { variables: HOST_STYLES as never },
    toolInfo: { tool: options.tool as never },
    displayMode: "inline",
    containerDimensions: { maxWidth: options.width ?? 400, maxHeight: 6000 },
    platform: "web",
    locale: "en-US",
  };
}

/** The view linked from the tool (`_meta.ui.resourceUri`), read with `resources/read`: its HTML and CSP header. */
async function readView(client: Client, tool: Tool): Promise<{ html: string; csp: string }> {
  const uri = getToolUiResourceUri(tool as never);
  if (!uri) throw new Error(`tool ${tool.name} links no view (_meta.ui.resourceUri)`);
  const read = await client.readResource({ uri });
  const content = read.contents[0] as { mimeType?: string; text?: string; _meta?: { ui?: { csp?: McpUiResourceCsp } } };
  if (content?.mimeType !== RESOURCE_MIME_TYPE || typeof content.text !== "string")
    throw new Error(`resources/read ${uri}: expected ${RESOURCE_MIME_TYPE} text, got ${content?.mimeType}`);
  return { html: content.text, csp: viewCsp(content._meta?.ui?.csp) };
}

/** The host page script as one browser bundle (the bridge and its MCP protocol code included). */
async function bundleHostPage(): Promise<string> {
  const entry = fileURLToPath(new URL("./host-page.js", import.meta.url));
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    minify: true,
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

/** `/`: the host page; `/view/<id>`: a view's HTML with its CSP header; anything else 404. */
function serveHost(script: string, views: Map<string, { html: string; csp: string }>) {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>test host</title>
<link rel="icon" href="data:,"><style>body{margin:0}</style></head><body><script>${script.replaceAll("</script", "<\\/script")}</script></body></html>`;
  return createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://host").pathname;
    const view = /^\/view\/(\d+)$/.exec(path);
    if (path === "/") return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    const served = view ? views.get(view[1]!) : undefined;
    if (!served) return void res.writeHead(404).end();
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": served.csp })
      .end(served.html);
  });
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Collects console errors and uncaught errors of the page and its frames into `errors`. */
function watchErrors(page: Page, errors: string[]): void {
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
}
