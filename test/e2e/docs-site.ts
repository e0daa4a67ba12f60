/**
 * The documentation site at 1280 px: every page of `vitepress build docs` (built into a folder of the
 * test's), opened in headless Chromium at 1280×900, has no code block that scrolls sideways (the
 * site's CSS, docs/.vitepress/theme/custom.css, wraps long lines with a hanging indent).
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs Chromium (apt-get, scripts/setup-chromium.js) and a VitePress build (~30 s).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, relative } from "node:path";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot } from "../support/e2e.js";

const run = promisify(execFile);
const out = mkdtempSync(join(tmpdir(), "mcp-gen-docs-"));
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

/** Serves the built site on 127.0.0.1 (clean URLs: `/guide/x` is `guide/x.html`). */
async function serve(root: string): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    let path = join(root, decodeURIComponent(new URL(req.url ?? "/", "http://site").pathname));
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, "index.html");
    else if (!existsSync(path) && existsSync(`${path}.html`)) path = `${path}.html`;
    if (!path.startsWith(root) || !existsSync(path)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(readFileSync(path));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return { server, base: `http://127.0.0.1:${address.port}` };
}

/** The site's pages as URL paths (`guide/surfaces.html` → `/guide/surfaces`). */
function pages(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".html") && file !== "404.html")
    .map((file) => `/${relative(root, join(root, file)).replace(/(index)?\.html$/, "")}`);
}

test("no code block of any page scrolls sideways at 1280 px", async () => {
  const setup = await run(process.execPath, [join(repoRoot, "scripts/setup-chromium.js")], { timeout: 900_000 });
  const executablePath = /chromium: (.+)/.exec(setup.stdout)![1]!.trim();
  await run(
    process.execPath,
    [join(repoRoot, "node_modules/vitepress/bin/vitepress.js"), "build", "docs", "--outDir", out],
    {
      cwd: repoRoot,
      timeout: 300_000,
    },
  );
  const { server, base } = await serve(out);
  const browser = await chromium.launch({ executablePath, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const scrolling: string[] = [];
    let blocks = 0;
    for (const path of pages(out)) {
      await page.goto(base + path, { waitUntil: "load" });
      const widths = await page.$$eval(".vp-doc div[class*='language-'] pre", (pres) =>
        pres.map((pre) => pre.scrollWidth - pre.clientWidth),
      );
      blocks += widths.length;
      widths.forEach((over, index) => over > 1 && scrolling.push(`${path} block ${index + 1}: ${over} px too wide`));
    }
    assert.ok(blocks >= 10, `${blocks} code blocks checked`);
    assert.equal(scrolling, []);
  } finally {
    await browser.close();
    server.close();
  }
});

test.after(() => rmSync(out, { recursive: true, force: true }));
test.run();
