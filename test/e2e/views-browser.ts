/**
 * Issue 53's views in a real browser: the petstore example and GitHub (pulls/list, repos/get)
 * generated with `--with apps` and built by their own `npm run build`, each run over stdio and
 * listed by the official SDK client declaring the MCP Apps extension. A test host page built on the
 * extension's host-side bridge (test/support/app-host/) loads each view's HTML from `resources/read`
 * into a sandboxed iframe in Debian's headless Chromium at 400 px, with the resource's CSP and the
 * host's theme variables, feeds it real tool results and relays its tool calls to the server. The
 * upstreams are local: GitHub's a 30-item pull request page and a repository built from the spec's
 * own examples (test/support/example-page.ts, as bench:results serves), the petstore's records what
 * it is sent. Checks the DOM: the table's 30 rows and its sorting (by mouse and keyboard), the
 * card's name and owner, the form's check of a required field before anything is sent, a valid pet
 * sent (by keyboard alone) and the created record shown, deletePet's confirmation first; labels on
 * every input, Tab order, no sideways scrolling, the host's theme applied, no CSP violation.
 * Screenshots of the table, the card and the form are written to a folder of the test's, or to
 * `MCP_GEN_VIEW_SHOTS` (the docs' images: `MCP_GEN_VIEW_SHOTS=docs/guide/images`).
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs Chromium (apt-get,
 * scripts/setup-chromium.js), the pinned @octokit/openapi package (.cache/corpus) and two project
 * builds (tsc and the views' bundle, about a minute).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { getToolUiResourceUri, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { Browser, FrameLocator } from "playwright-core";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { generate } from "../../generator/pipeline/generate.js";
import { installPackage, PACKAGES } from "../corpus/sources.js";
import { startAppHost, HOST_STYLES, type AppHost, type MountedView } from "../support/app-host/app-host.js";
import { buildGeneratedProject, repoRoot } from "../support/e2e.js";
import { exampleBody, pageOf, withRequired, type ExampleOperation, type ExampleSpec } from "../support/example-page.js";
import { startUpstream, type Recorded, type Upstream } from "../support/runtime-fixture.js";

const UI_EXTENSION = "io.modelcontextprotocol/ui";
const PAGE_ITEMS = 30;
/** The pull request of the first page whose upstream answer has no `draft` value (null). */
const NO_DRAFT_AT = 2;
/** Tokens of githubBudget's results: too few for a page's 30 items even with their identifying fields alone. */
const SMALL_BUDGET = 1_000;
const work = mkdtempSync(join(tmpdir(), "mcp-gen-views-"));
const shots = process.env.MCP_GEN_VIEW_SHOTS ? resolve(process.env.MCP_GEN_VIEW_SHOTS) : join(work, "shots");

let browser: Browser;
const stops: Array<() => Promise<unknown>> = [];
/**
 * The servers: GitHub's again on the search surface, where call_operation links the views, and again
 * with a small result budget and an upstream whose pages match their documented shape.
 */
type ServerName = "github" | "githubSearch" | "githubBudget" | "petstore";
const servers: Record<ServerName, { client: Client; host: AppHost; tools: Map<string, Tool>; upstream: Upstream }> =
  {} as never;

/** Generates `spec` with `--with apps` into the test's folder and builds it with its own `npm run build`. */
async function generatedWithApps(
  name: string,
  spec: string,
  filter?: { includeOperations: string[] },
  features: string[] = ["apps"],
): Promise<string> {
  const dir = join(work, name);
  await generate({ spec, outDir: dir, features, ...(filter ? { filter } : {}) });
  await buildGeneratedProject(dir, { install: false, buildTimeoutMs: 600_000 });
  return dir;
}

/** The SDK client of the built server at `dir` (stdio), declaring the extension as a host does; its tools by name. */
async function connect(
  dir: string,
  upstream: Upstream,
  flags: string[] = [],
): Promise<{ client: Client; tools: Map<string, Tool> }> {
  const client = new Client(
    { name: "views-browser-host", version: "1.0.0" },
    { capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(dir, "dist/index.js"), "--base-url", upstream.baseUrl, ...flags],
      stderr: "ignore",
    }),
  );
  stops.push(() => client.close());
  const tools = new Map<string, Tool>();
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor });
    for (const tool of listed.tools) tools.set(tool.name, tool);
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return { client, tools };
}

/** The upstream path of a request (the fixture's base URL has a path of its own). */
const upstreamPath = (r: Recorded): string => new URL(r.url, "http://upstream").pathname.replace(/^\/api\/v1/, "");

/**
 * GitHub's upstream: pulls/list as pages of the spec's example (30 items, then 5 more behind a
 * `Link: rel="next"` header, as GitHub pages; unless `matching`, one item's `draft` is null, which
 * the documented shape refuses), repos/get as its example with the required fields the example
 * leaves out (`language`) filled, as the real API sends them.
 */
async function githubUpstream(spec: string, matching = false): Promise<Upstream> {
  const document = JSON.parse(readFileSync(spec, "utf8")) as ExampleSpec & {
    paths: Record<string, Record<string, ExampleOperation>>;
  };
  const operation = (path: string) => document.paths[path]!.get!;
  const pulls = pageOf(exampleBody(document, operation("/repos/{owner}/{repo}/pulls")), PAGE_ITEMS + 5) as Array<
    Record<string, unknown>
  >;
  if (!matching) pulls[NO_DRAFT_AT]!.draft = null;
  const pages = [JSON.stringify(pulls.slice(0, PAGE_ITEMS)), JSON.stringify(pulls.slice(PAGE_ITEMS))];
  const repoGet = operation("/repos/{owner}/{repo}");
  const repoSchema = repoGet.responses["200"]!.content!["application/json"]!.schema;
  const repo = JSON.stringify(withRequired(document, exampleBody(document, repoGet), repoSchema));
  const json = { "content-type": "application/json" };
  return startUpstream((r) => {
    const path = upstreamPath(r);
    if (r.method === "GET" && path === "/repos/octocat/hello-world/pulls") {
      if (new URL(r.url, "http://upstream").searchParams.get("page") === "2")
        return { status: 200, headers: json, body: pages[1] };
      const next = `<http://${r.headers.host}/api/v1/repos/octocat/hello-world/pulls?page=2>; rel="next"`;
      return { status: 200, headers: { ...json, link: next }, body: pages[0] };
    }
    if (r.method === "GET" && path === "/repos/octocat/hello-world") return { status: 200, headers: json, body: repo };
    return { status: 404, headers: json, body: '{"message":"Not Found"}' };
  });
}

/** The petstore's upstream: a created pet gets id 42; a delete answers 204. */
function petstoreUpstream(): Promise<Upstream> {
  return startUpstream((r) => {
    const path = upstreamPath(r);
    if (r.method === "POST" && path === "/pets")
      return {
        status: 201,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: 42, ...(JSON.parse(r.body) as object) }),
      };
    if (r.method === "DELETE" && /^\/pets\/\d+$/.test(path)) return { status: 204 };
    return { status: 404, headers: { "content-type": "application/json" }, body: '{"code":404,"message":"no"}' };
  });
}

test.before(async () => {
  const setup = (await import(fileURLToPath(new URL("../../../scripts/setup-chromium.js", import.meta.url)))) as {
    chromium: string;
  };
  const { chromium } = await import("playwright-core");
  browser = await chromium.launch({
    executablePath: setup.chromium,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    timeout: 60_000,
  });
  stops.push(() => browser.close());
  const githubSpec = join(installPackage(repoRoot, PACKAGES.github!), "generated", "api.github.com.json");
  const builds = {
    petstore: await generatedWithApps("petstore", join(repoRoot, "specs/petstore.yaml")),
    github: await generatedWithApps("github", githubSpec, { includeOperations: ["pulls_list", "repos_get"] }, [
      "apps",
      "search",
    ]),
  };
  const upstreams = {
    petstore: await petstoreUpstream(),
    github: await githubUpstream(githubSpec),
    githubSearch: await githubUpstream(githubSpec),
    githubBudget: await githubUpstream(githubSpec, true),
  };
  const flags: Partial<Record<ServerName, string[]>> = {
    githubSearch: ["--surface", "search"],
    githubBudget: ["--result-budget", String(SMALL_BUDGET)],
  };
  for (const name of ["petstore", "github", "githubSearch", "githubBudget"] as const) {
    const upstream = upstreams[name];
    stops.push(() => upstream.close());
    const build = builds[name === "petstore" ? "petstore" : "github"];
    const { client, tools } = await connect(build, upstream, flags[name]);
    const host = await startAppHost(browser, client);
    stops.push(() => host.close());
    servers[name] = { client, host, tools, upstream };
  }
  mkdirSync(shots, { recursive: true });
});

test.after(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

/** The tool `name` of a server, which must link a view. */
function viewTool(server: ServerName, name: string): Tool {
  const tool = servers[server].tools.get(name);
  assert.ok(tool, `${server} lists ${name}`);
  assert.ok(getToolUiResourceUri(tool as never), `${name} links a view`);
  return tool!;
}

/** The arguments of GitHub's calls: the repository the upstream serves. */
const REPO = { owner: "octocat", repo: "hello-world" };

/** Opens the view of a server's tool `name` (which must link one), called first with `args` or not (a form). */
function openView(
  server: ServerName,
  name: string,
  args: Record<string, unknown>,
  callFirst: boolean,
): Promise<MountedView> {
  return servers[server].host.open({ tool: viewTool(server, name), arguments: args, callFirst });
}

/** What every view must be: no sideways scrolling at 400 px, the host's theme applied, every control labelled, no CSP violation. */
async function checkUsable(mounted: MountedView, what: string): Promise<void> {
  const facts = await mounted.view.locator("body").evaluate((body) => {
    const doc = body.ownerDocument;
    const controls = [...doc.querySelectorAll("input, select, textarea")];
    const unlabelled = controls.filter((control) =>
      !control.id || !doc.querySelector(`label[for="${control.id}"]`) ? !control.closest("label") : false,
    );
    return {
      scrollWidth: doc.documentElement.scrollWidth,
      clientWidth: doc.documentElement.clientWidth,
      background: doc.defaultView!.getComputedStyle(body).backgroundColor,
      unlabelled: unlabelled.map((control) => control.outerHTML),
    };
  });
  assert.ok(
    facts.scrollWidth <= facts.clientWidth,
    `${what}: scrolls sideways (${facts.scrollWidth} > ${facts.clientWidth})`,
  );
  assert.is(facts.background, hexToRgb(HOST_STYLES["--color-background-primary"]!), `${what}: the host's background`);
  assert.equal(facts.unlabelled, [], `${what}: every input has a label`);
  assert.equal(
    mounted.errors.filter((error) => /Content Security Policy|Refused/i.test(error)),
    [],
    `${what}: CSP violations`,
  );
  assert.equal(mounted.errors, [], `${what}: console errors`);
}

function hexToRgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

/** The texts of the column at `index`, top to bottom (data rows only: a row's details stay hidden). */
async function column(view: FrameLocator, index: number): Promise<string[]> {
  return view
    .locator("tbody tr:not([hidden])")
    .evaluateAll((rows, at) => rows.map((row) => row.querySelectorAll("td")[at]?.textContent ?? ""), index);
}

/** A PNG of the view's top (at most 720 px of it: the docs show how a view starts). */
async function screenshot(mounted: MountedView, name: string): Promise<void> {
  const path = join(shots, `${name}.png`);
  await mounted.page.locator("body").evaluate((body) => body.ownerDocument.defaultView!.scrollTo(0, 0));
  const box = (await mounted.page.locator("iframe").boundingBox())!;
  await mounted.page.screenshot({
    path,
    clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 720) },
  });
  assert.is(readFileSync(path).subarray(1, 4).toString(), "PNG");
}

test("GitHub pulls_list: the table shows the 30 rows of a 30-item page and sorts by a column (mouse and keyboard)", async () => {
  const mounted = await openView("github", "pulls_list", REPO, true);
  const { view } = mounted;
  await view.locator("tbody tr").first().waitFor({ timeout: 20_000 });
  assert.is(await view.locator("tbody tr:not([hidden])").count(), PAGE_ITEMS);
  // One pull request's draft is null, which its documented shape refuses: shown as received, and said so.
  assert.is(
    await view.getByRole("note").textContent(),
    "The response did not match its documented shape: shown as received.",
  );
  // Before any sort a header's text is its column's key (a sorted one adds an arrow, hidden from screen readers).
  const headers = (await view.locator("thead th button").allTextContents()).map((text) => text.trim());
  const numberAt = headers.indexOf("number");
  assert.ok(numberAt >= 0, `a number column among ${headers.join(", ")}`);
  const before = await column(view, numberAt);
  assert.is(before.length, PAGE_ITEMS);
  // The result budget kept every field the table shows (its columns): each cell holds its row's value.
  const cells = await Promise.all(headers.map((_, at) => column(view, at)));
  assert.ok(
    cells.every((texts) => texts.every((text) => text !== "")),
    "no empty cell",
  );
  for (const key of ["locked", "draft"]) {
    const texts = cells[headers.indexOf(key)] ?? [];
    // One pull request came without a draft value (NO_DRAFT_AT): its cell says so with a dash.
    const expected = (text: string, row: number) =>
      key === "draft" && row === NO_DRAFT_AT ? text === "—" : text === "true" || text === "false";
    assert.ok(texts.length === PAGE_ITEMS && texts.every(expected), `${key}: ${texts.join(" ")}`);
  }

  // Mouse: number ascending, then descending; the DOM's order follows.
  const numberHeader = view.getByRole("columnheader", { name: "number", exact: true });
  await numberHeader.getByRole("button").click();
  assert.is(await numberHeader.getAttribute("aria-sort"), "ascending");
  const ascending = (await column(view, numberAt)).map(Number);
  assert.equal(
    ascending,
    [...ascending].sort((a, b) => a - b),
  );
  await numberHeader.getByRole("button").click();
  assert.is(await numberHeader.getAttribute("aria-sort"), "descending");
  const descending = (await column(view, numberAt)).map(Number);
  assert.equal(descending, [...ascending].reverse());
  assert.not.equal(descending.map(String), before, "the rows' order changed");

  // Keyboard: from the number header, Tab (Shift+Tab from the last) reaches its neighbour; Enter sorts by it.
  const last = numberAt === headers.length - 1;
  const otherAt = last ? numberAt - 1 : numberAt + 1;
  await numberHeader.getByRole("button").focus();
  await mounted.page.keyboard.press(last ? "Shift+Tab" : "Tab");
  const other = view.getByRole("columnheader", { name: headers[otherAt]!, exact: true });
  assert.ok(
    await other.getByRole("button").evaluate((button) => button.ownerDocument.activeElement === button),
    `Tab moves from number to ${headers[otherAt]}`,
  );
  await mounted.page.keyboard.press("Enter");
  assert.is(await other.getAttribute("aria-sort"), "ascending");
  assert.is(await numberHeader.getAttribute("aria-sort"), "none");
  const texts = await column(view, otherAt);
  const numeric = texts.every((text) => text !== "" && Number.isFinite(Number(text)));
  assert.equal(
    texts,
    [...texts].sort((a, b) => (numeric ? Number(a) - Number(b) : a.localeCompare(b))),
  );

  // A row's details open from its toggle.
  await screenshot(mounted, "table");
  const toggle = view.locator("tbody tr:not([hidden]) button").first();
  await toggle.click();
  assert.is(await toggle.getAttribute("aria-expanded"), "true");
  await checkUsable(mounted, "table");
  assert.is(servers.github.upstream.received.filter((r) => r.url.includes("/pulls")).length, 1);
  assert.equal(mounted.calls, [], "the first page came with the tool's result");
});

test("GitHub pulls_list under a small result budget: the line says how many rows are shown and how to get the rest", async () => {
  const { view } = await openView("githubBudget", "pulls_list", REPO, true);
  await view.locator("tbody tr").first().waitFor({ timeout: 20_000 });
  const rows = await view.locator("tbody tr:not([hidden])").count();
  assert.ok(rows > 0 && rows < PAGE_ITEMS, `${rows} rows`);
  // The page matched its documented shape; the budget alone left items (and fields) out.
  assert.is(
    await view.getByRole("note").textContent(),
    `Shortened to fit the result's size budget: ${rows} of ${PAGE_ITEMS} items are shown; ask for a smaller page for the rest.`,
  );
});

test("GitHub on the search surface: call_operation shows pulls_list's table, whose next page goes through call_operation", async () => {
  const { tools, upstream } = servers.githubSearch;
  assert.equal([...tools.keys()], ["search_operations", "describe_operation", "call_operation"]);
  const mounted = await openView("githubSearch", "call_operation", { name: "pulls_list", arguments: REPO }, true);
  const { view } = mounted;
  await view.locator("tbody tr").first().waitFor({ timeout: 20_000 });
  assert.is(await view.locator("tbody tr:not([hidden])").count(), PAGE_ITEMS);
  assert.is(await view.getByRole("heading", { level: 1 }).textContent(), "List pull requests");
  const headers = (await view.locator("thead th button").allTextContents()).map((text) => text.trim());
  assert.ok(headers.includes("number") && headers.includes("locked"), headers.join(", "));
  // The next page: the view calls call_operation again, naming the operation, with the cursor.
  await view.getByRole("button", { name: "Next page" }).click();
  await view
    .locator("tbody tr:not([hidden])")
    .nth(PAGE_ITEMS - 1)
    .waitFor({ state: "detached", timeout: 20_000 });
  assert.is(await view.locator("tbody tr:not([hidden])").count(), 5);
  assert.is(mounted.calls.length, 1);
  assert.is(mounted.calls[0]!.name, "call_operation");
  assert.is(mounted.calls[0]!.arguments.name, "pulls_list");
  assert.equal(Object.keys(mounted.calls[0]!.arguments.arguments as object).sort(), ["cursor", "owner", "repo"]);
  assert.is(upstream.received.filter((r) => r.url.includes("/pulls")).length, 2);
  await checkUsable(mounted, "call_operation table");
});

test("GitHub repos_get: the card shows the repository's name and owner", async () => {
  const mounted = await openView("github", "repos_get", REPO, true);
  const { view } = mounted;
  const title = view.getByRole("heading", { level: 1 });
  await title.waitFor({ timeout: 20_000 });
  assert.is((await title.textContent())?.trim(), "Hello-World");
  const owner = view.locator("summary", { hasText: /^owner/ }).first();
  assert.is((await owner.textContent())?.trim(), "owner: octocat");
  await owner.click();
  assert.ok(
    await view
      .locator("dd", { hasText: /^octocat$/ })
      .first()
      .isVisible(),
    "the owner's login, unfolded",
  );
  await checkUsable(mounted, "card");
  await screenshot(mounted, "card");
});

test("petstore createPet (add a pet): a missing required field is caught before sending; a valid pet, sent by keyboard, shows the created record", async () => {
  const { upstream } = servers.petstore;
  const mounted = await openView("petstore", "createPet", {}, false);
  const { view, page } = mounted;
  const name = view.getByLabel(/^name\b/);
  await name.waitFor({ timeout: 20_000 });

  // Nothing filled: the required name is flagged, focused, and nothing reaches the server.
  await view.getByRole("button", { name: "Send" }).click();
  const error = view.locator(`#${await name.getAttribute("id")}-error`);
  assert.match((await error.textContent()) ?? "", /name is required/);
  assert.is(await name.getAttribute("aria-invalid"), "true");
  assert.is(await name.evaluate((input) => input.ownerDocument.activeElement === input), true);
  assert.equal(mounted.calls, [], "no tool call before the form is valid");
  assert.is(upstream.received.filter((r) => r.method === "POST").length, 0);

  // Tab order is the page's order: each control, then Send.
  const order = await view
    .locator("form")
    .evaluate((form) =>
      [...form.querySelectorAll("input, select, textarea, button")].map((control) => control.id || control.textContent),
    );
  await view.locator("form input, form select, form textarea").first().focus();
  const tabbed: Array<string | null | undefined> = [];
  for (let step = 0; step < order.length; step++) {
    tabbed.push(
      await view
        .locator("body")
        .evaluate((body) => body.ownerDocument.activeElement?.id || body.ownerDocument.activeElement?.textContent),
    );
    if (step < order.length - 1) await page.keyboard.press("Tab");
  }
  assert.equal(tabbed, order);

  // By keyboard alone: type the name, choose a status, Tab to Send, press Enter.
  await name.focus();
  await page.keyboard.type("Rex");
  await view.getByLabel(/^tag\b/).focus();
  await page.keyboard.type("dog");
  await view.getByLabel(/^status\b/).selectOption("available");
  await view.getByRole("button", { name: "Send" }).focus();
  await page.keyboard.press("Enter");
  const result = view.getByRole("region", { name: "Result" });
  await result.getByText("42", { exact: true }).waitFor({ timeout: 20_000 });
  assert.equal(mounted.calls, [{ name: "createPet", arguments: { name: "Rex", tag: "dog", status: "available" } }]);
  const posts = upstream.received.filter((r) => r.method === "POST");
  assert.is(posts.length, 1);
  assert.equal(JSON.parse(posts[0]!.body), { name: "Rex", tag: "dog", status: "available" });
  for (const shown of ["Rex", "dog", "available"])
    assert.ok(await result.getByText(shown, { exact: true }).isVisible(), shown);
  await checkUsable(mounted, "form");
  await screenshot(mounted, "form");
});

test("petstore deletePet: the confirmation comes first; nothing is sent until it is confirmed", async () => {
  const { upstream } = servers.petstore;
  const mounted = await openView("petstore", "deletePet", { petId: 7 }, false);
  const { view } = mounted;
  const petId = view.getByLabel(/^petId\b/);
  await petId.waitFor({ timeout: 20_000 });
  await view.locator("form").getByRole("button").click();
  const dialog = view.getByRole("alertdialog");
  await dialog.waitFor({ timeout: 5_000 });
  assert.equal(mounted.calls, [], "no call before the confirmation");
  assert.is(upstream.received.filter((r) => r.method === "DELETE").length, 0);
  assert.is(
    await dialog
      .getByRole("button", { name: "Cancel" })
      .evaluate((button) => button.ownerDocument.activeElement === button),
    true,
    "the safe choice has the focus",
  );
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await view.getByRole("region", { name: "Result" }).getByRole("heading").waitFor({ timeout: 20_000 });
  assert.equal(mounted.calls, [{ name: "deletePet", arguments: { petId: 7 } }]);
  const deletes = upstream.received.filter((r) => r.method === "DELETE");
  assert.equal(deletes.map(upstreamPath), ["/pets/7"]);
  await checkUsable(mounted, "confirmation");
});

test.run();
