/**
 * Views (feature apps) end to end: petstore and GitHub's API generated `--with apps`, built as
 * their own `npm run build` builds them (tsc, then the views' bundle), and served over stdio. A
 * client that declares the MCP Apps extension (as the extension's package reads it) sees the
 * list, record and change operations linked to a table, a card and a form, and reads each linked
 * view: the HTML with its CSP, whose script is the bundle the page's policy allows by hash. A client
 * that does not declare it gets `tools/list` byte for byte as from the same spec generated without
 * `--with apps`. GitHub is served on surface `all` (views link the operation tools, which its `auto`
 * surface, search, does not list); its four named views are read, petstore's every view.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXTENSION_ID, RESOURCE_MIME_TYPE, getUiCapability } from "@modelcontextprotocol/ext-apps/server";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { installPackage, PACKAGES } from "../corpus/sources.js";
import { compileProject, repoRoot, run, stopChild, track } from "../support/e2e.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-apps-"));
const cli = join(repoRoot, "bin", "mcp-gen.js");
const SPECS = {
  petstore: join(repoRoot, "specs", "petstore.yaml"),
  github: () => join(installPackage(repoRoot, PACKAGES.github!), "generated", "api.github.com.json"),
};
const DECLARES = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

/** Generates `spec` into work/<name> (with `--with apps` when `apps`), compiles it, and bundles the views. */
async function build(name: string, spec: string, apps: boolean): Promise<string> {
  const dir = join(work, name);
  await run(process.execPath, [cli, spec, "-o", dir, ...(apps ? ["--with", "apps"] : [])], {
    cwd: work,
    timeoutMs: 300_000,
  });
  await compileProject(dir);
  if (apps) await run(process.execPath, [join(dir, "scripts", "bundle-views.mjs")], { cwd: dir });
  return dir;
}

/** A raw JSON-RPC client of a generated server over stdio: each answer's line as the server wrote it. */
class StdioSession {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, (line: string) => void>();
  private pending = "";
  private id = 0;

  constructor(dir: string, args: readonly string[]) {
    this.child = spawn(process.execPath, [join(dir, "dist", "index.js"), ...args], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    track(this.child);
    this.child.stdout!.setEncoding("utf8");
    this.child.stdout!.on("data", (chunk: string) => {
      this.pending += chunk;
      for (let end = this.pending.indexOf("\n"); end >= 0; end = this.pending.indexOf("\n")) {
        const line = this.pending.slice(0, end);
        this.pending = this.pending.slice(end + 1);
        this.waiting.get((JSON.parse(line) as { id: number }).id)?.(line);
      }
    });
  }

  /** Sends a request; resolves to the response line (bounded: 60 s). */
  raw(method: string, params: Record<string, unknown>): Promise<string> {
    const id = ++this.id;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer in 60 s`)), 60_000);
      this.waiting.set(id, (line) => {
        clearTimeout(timer);
        resolve(line);
      });
      this.child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  }

  async result(method: string, params: Record<string, unknown>): Promise<Record<string, any>> {
    const response = JSON.parse(await this.raw(method, params)) as { result?: Record<string, any>; error?: unknown };
    assert.ok(response.result, `${method}: ${JSON.stringify(response.error)}`);
    return response.result!;
  }

  /** `initialize` declaring `capabilities`, then `notifications/initialized`. */
  async open(capabilities: Record<string, unknown>): Promise<this> {
    await this.result("initialize", {
      protocolVersion: "2025-06-18",
      capabilities,
      clientInfo: { name: "apps-e2e", version: "1.0.0" },
    });
    this.child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    return this;
  }

  /** Every page of `tools/list` (or another list method), as the raw response lines (bounded: 100 pages). */
  async toolPages(method = "tools/list"): Promise<string[]> {
    const pages: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      pages.push(await this.raw(method, cursor === undefined ? {} : { cursor }));
      cursor = (JSON.parse(pages.at(-1)!) as { result: { nextCursor?: string } }).result.nextCursor;
      if (cursor === undefined) return pages;
    }
    throw new Error(`${method}: more than 100 pages`);
  }

  close(): Promise<void> {
    return stopChild(this.child);
  }
}

/** Tool name → its view's URI, from every page of a declaring client's `tools/list`. */
function viewLinks(pages: readonly string[]): Map<string, string> {
  const links = new Map<string, string>();
  for (const page of pages)
    for (const tool of (JSON.parse(page) as { result: { tools: Array<Record<string, any>> } }).result.tools)
      if (tool._meta?.ui?.resourceUri) links.set(tool.name, tool._meta.ui.resourceUri as string);
  return links;
}

/** Reads a view and checks it: the MIME type, the CSP metadata, and the page's policy allowing its one script by hash. */
async function readView(session: StdioSession, uri: string): Promise<string> {
  const [contents] = (await session.result("resources/read", { uri })).contents as Array<Record<string, any>>;
  assert.is(contents!.mimeType, RESOURCE_MIME_TYPE, uri);
  assert.equal(contents!._meta.ui.csp, { connectDomains: [], resourceDomains: [], frameDomains: [] }, uri);
  const html = contents!.text as string;
  const script = /<script>([\s\S]*)<\/script>\s*<\/body>/.exec(html)?.[1];
  assert.ok(script && script.length > 10_000, `${uri}: the bundled view script is inlined`);
  const hash = createHash("sha256").update(script!, "utf8").digest("base64");
  assert.ok(html.includes(`script-src 'sha256-${hash}'`), `${uri}: its CSP allows that script by hash`);
  assert.ok(html.includes("default-src 'none'") && html.includes("connect-src 'none'"), uri);
  return html;
}

/** Both generations of one spec, each server open for the test's sessions. */
interface Pair {
  apps: string;
  plain: string;
}
const built: Record<string, Promise<Pair>> = {};
function pair(name: keyof typeof SPECS): Promise<Pair> {
  const spec = SPECS[name];
  const path = typeof spec === "string" ? spec : spec();
  return (built[name] ??= (async () => ({
    apps: await build(`${name}-apps`, path, true),
    plain: await build(`${name}-plain`, path, false),
  }))());
}

/** A declaring and a plain client of `pair`'s servers: links, views read, plain lists compared byte for byte. */
async function exercise(
  name: keyof typeof SPECS,
  expected: Record<string, string>,
  options: { readAll: boolean; args: string[] },
): Promise<void> {
  const { apps, plain } = await pair(name);
  const { readAll, args } = options;
  assert.ok(getUiCapability(DECLARES as never)?.mimeTypes?.includes(RESOURCE_MIME_TYPE));
  const declaring = await new StdioSession(apps, args).open(DECLARES);
  const withApps = await new StdioSession(apps, args).open({});
  const without = await new StdioSession(plain, args).open({});
  try {
    const links = viewLinks(await declaring.toolPages());
    for (const [tool, uri] of Object.entries(expected)) assert.is(links.get(tool), uri, tool);
    const listed = new Set(
      (await declaring.toolPages("resources/list")).flatMap((page) =>
        (JSON.parse(page) as { result: { resources: Array<{ uri: string }> } }).result.resources.map((r) => r.uri),
      ),
    );
    const uris = [...new Set(links.values())];
    assert.ok(
      uris.every((uri) => listed.has(uri)),
      "every linked view is listed as a resource",
    );
    for (const uri of readAll ? uris : Object.values(expected)) await readView(declaring, uri);
    assert.equal(
      await withApps.toolPages(),
      await without.toolPages(),
      "byte-identical tools/list without the extension",
    );
  } finally {
    await Promise.all([declaring.close(), withApps.close(), without.close()]);
  }
}

test("petstore: list, record, create and delete linked to table, card and form; every view read", async () => {
  await exercise(
    "petstore",
    {
      listPets: "ui://views/table/listPets",
      getPet: "ui://views/card/getPet",
      createPet: "ui://views/form/createPet",
      updatePet: "ui://views/form/updatePet",
      deletePet: "ui://views/form/deletePet",
    },
    { readAll: true, args: [] },
  );
});

test("GitHub: pulls_list a table, repos_get a card, issues_create a form; lists unchanged for other clients", async () => {
  await exercise(
    "github",
    {
      pulls_list: "ui://views/table/pulls_list",
      repos_get: "ui://views/card/repos_get",
      issues_create: "ui://views/form/issues_create",
      repos_delete: "ui://views/form/repos_delete",
    },
    // Views link operation tools: GitHub's 1,223 operations are listed on surface all (auto serves search).
    { readAll: false, args: ["--surface", "all"] },
  );
});

test.run();
