/**
 * The HTML page of one view: the generic view script (bundled when the project is built) given the
 * tool's {@link ViewSpec} as JSON, under a Content-Security-Policy that allows that script alone (by
 * its hash), inline styles and nothing from the network.
 */
import { createHash } from "node:crypto";
import type { ViewSpec } from "./view-choice.js";

/** The MIME type of an MCP App's HTML (the MCP Apps extension). */
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";

/** The bundled view script and its CSP hash. */
export interface ViewScript {
  text: string;
  /** `sha256-<base64>` of `text`. */
  hash: string;
}

/** The script with its hash; throws if it could end the `<script>` element it goes in. */
export function viewScript(text: string): ViewScript {
  if (/<\/script/i.test(text)) throw new Error("the view script contains </script and cannot be inlined");
  return { text, hash: `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}` };
}

/** The page's Content-Security-Policy: no network, no script but the view's own (fixed text and a base64 hash: safe in an attribute). */
export function viewPolicy(script: ViewScript): string {
  return [
    "default-src 'none'",
    `script-src '${script.hash}'`,
    "style-src 'unsafe-inline'",
    "img-src data:",
    "font-src data:",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** The page of the view `spec`. Spec text reaches the page only escaped: HTML text, or JSON that cannot end its element. */
export function viewPage(spec: ViewSpec, script: ViewScript): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${viewPolicy(script)}">
<title>${escapeHtml(spec.title)}</title>
<style>${VIEW_CSS}</style>
<script type="application/json" id="mcp-view-spec">${scriptJson(spec)}</script>
</head>
<body>
<main id="mcp-view" aria-live="polite"><p>Loading…</p></main>
<script>${script.text}</script>
</body>
</html>
`;
}

/** Text for HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is inert inside a `<script>` element (no `<`, `>`, `&`, nor the JS line separators). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The views' styles: the host's theme variables (MCP Apps) where it passes them, system colours otherwise. */
const VIEW_CSS = `
:root { color-scheme: light dark; }
* { box-sizing: border-box; }
body { margin: 0; padding: 12px; font-family: var(--font-sans, system-ui, sans-serif);
  font-size: var(--font-text-sm-size, 14px); line-height: var(--font-text-sm-line-height, 1.4);
  color: var(--color-text-primary, CanvasText); background: var(--color-background-primary, Canvas); }
h1 { font-size: var(--font-heading-sm-size, 16px); margin: 0 0 4px; overflow-wrap: anywhere; }
.caption { color: var(--color-text-secondary, GrayText); margin: 0 0 8px; font-size: var(--font-text-xs-size, 12px); }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 6px; border-bottom: var(--border-width-regular, 1px) solid var(--color-border-primary, #8884);
  vertical-align: top; max-width: 16em; overflow-wrap: break-word; }
th button, td > button { white-space: nowrap; }
th button { font: inherit; font-weight: var(--font-weight-semibold, 600); background: none; border: 0; padding: 0; color: inherit; cursor: pointer; }
button, input, select, textarea { font: inherit; color: inherit; }
button.action { padding: 4px 12px; border-radius: var(--border-radius-md, 6px); border: 1px solid var(--color-border-primary, #8886);
  background: var(--color-background-secondary, ButtonFace); cursor: pointer; }
button.danger { background: var(--color-background-danger, #c0392b); color: var(--color-text-inverse, #fff); }
:focus-visible { outline: 2px solid var(--color-ring-primary, Highlight); outline-offset: 1px; }
details > summary { cursor: pointer; }
dl { display: grid; grid-template-columns: minmax(6em, max-content) 1fr; gap: 2px 12px; margin: 0; }
dt { color: var(--color-text-secondary, GrayText); overflow-wrap: anywhere; }
dd { margin: 0; overflow-wrap: anywhere; }
.field { display: flex; flex-direction: column; gap: 2px; margin-bottom: 10px; }
.field input:not([type=checkbox]), .field select, .field textarea { width: 100%; padding: 4px 6px;
  border: 1px solid var(--color-border-primary, #8886); border-radius: var(--border-radius-sm, 4px);
  background: var(--color-background-primary, Field); }
td.missing { color: var(--color-text-secondary, GrayText); }
.help { color: var(--color-text-secondary, GrayText); font-size: var(--font-text-xs-size, 12px); }
.error { color: var(--color-text-danger, #c0392b); }
.confirm { border: 1px solid var(--color-border-danger, #c0392b); border-radius: var(--border-radius-md, 6px); padding: 8px; margin: 8px 0; }
.pager { display: flex; gap: 8px; align-items: center; margin-top: 8px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font-family: var(--font-mono, monospace); font-size: var(--font-text-xs-size, 12px); }
`;
