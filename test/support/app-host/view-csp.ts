/**
 * The Content-Security-Policy a web host sends with a view's document, built from the resource's
 * `_meta.ui.csp` as the MCP Apps extension describes it: nothing from the network unless declared
 * (`connectDomains` → connect-src, `resourceDomains` → script/style/img/font/media-src,
 * `frameDomains` → frame-src, `baseUriDomains` → base-uri); inline script and style allowed, since
 * a view's code is bundled into its HTML.
 */
import type { McpUiResourceCsp } from "@modelcontextprotocol/ext-apps/app-bridge";

/** The CSP header value for a view whose resource declares `csp` (undefined: the strictest). */
export function viewCsp(csp: McpUiResourceCsp | undefined): string {
  const list = (domains: string[] | undefined, fallback: string) =>
    domains && domains.length > 0 ? domains.join(" ") : fallback;
  const resources = csp?.resourceDomains ?? [];
  const directives = [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources.join(" ")}`,
    `style-src 'unsafe-inline' ${resources.join(" ")}`,
    `img-src data: ${resources.join(" ")}`,
    `font-src data: ${resources.join(" ")}`,
    `media-src ${list(resources, "'none'")}`,
    `connect-src ${list(csp?.connectDomains, "'none'")}`,
    `frame-src ${list(csp?.frameDomains, "'none'")}`,
    `base-uri ${list(csp?.baseUriDomains, "'none'")}`,
    "form-action 'none'",
  ];
  return directives.map((directive) => directive.trim()).join("; ");
}
