/**
 * The example fleet (examples/fleet, five real specs) end to end, in a temporary copy whose
 * dependencies are linked from the repository's node_modules (`npm run fleet` does the same with a
 * real `npm install`):
 * - one command builds, tests and reports the five servers: all pass their own tests and score 100/100;
 * - with one spec changed, `workspace check` exits 5 naming that server only, and the next build
 *   regenerates only it, bumps its version and the report shows its breaking changes;
 * - the report page is checked in a real headless Chromium (Debian's, driven by playwright-core);
 * - two servers are published to a real local registry (Verdaccio), one is installed from it into an
 *   empty folder, run with npx and listed with the SDK client.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs Chromium (apt-get, scripts/setup-chromium.js), Verdaccio (scripts/setup-verdaccio.js) and npm installs; the slowest file.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { FleetReport } from "../../generator/commands/workspace/report-data.js";
import { freePort, npmEnv, repoRoot, run, stopChild, waitUntil } from "../support/e2e.js";

const exec = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-fleet-"));
const ws = join(work, "fleet");
const cli = join(repoRoot, "bin", "mcp-gen.js");
/** Where the test keeps what a person may want to look at afterwards (the report's screenshot). */
const outputDir = join(repoRoot, ".tmp", "test-output", "fleet");
const SCOPE = "@mcp-fleet-example";

/** Runs `mcp-gen args` in the workspace; exit code and everything it printed. */
async function mcpGen(args: string[], timeoutMs = 600_000): Promise<{ code: number; output: string; stdout: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [cli, ...args], {
      cwd: ws,
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
      env: npmEnv(),
    });
    return { code: 0, output: stdout + stderr, stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === "number" ? e.code : -1,
      output: `${e.stdout ?? ""}${e.stderr ?? ""}`,
      stdout: e.stdout ?? "",
    };
  }
}

const readReport = (): FleetReport => JSON.parse(readFileSync(join(ws, "report.json"), "utf8")) as FleetReport;

/** A promise whose rejection is reported by the test that awaits it, not as an unhandled rejection. */
function later<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** Runs a setup script of scripts/ and returns the path it prints after `label: `. */
async function setupPath(script: string, label: string, timeoutMs: number): Promise<string> {
  const setup = await run(process.execPath, [join(repoRoot, "scripts", script)], { cwd: repoRoot, timeoutMs });
  const path = new RegExp(`${label}: (.+)`).exec(setup.output)?.[1]?.trim();
  if (!path) throw new Error(`${script} printed no ${label} path:\n${setup.output}`);
  return path;
}

/** A Verdaccio registry of this test's own, on a free loopback port. */
interface Registry {
  url: string;
  port: number;
  child: ChildProcess;
}

/** Starts Verdaccio (installed by scripts/setup-verdaccio.js) on a free port with an empty storage. */
async function startRegistry(verdaccio: string): Promise<Registry> {
  const registryDir = join(work, "registry");
  mkdirSync(join(registryDir, "storage"), { recursive: true });
  writeFileSync(
    join(registryDir, "config.yaml"),
    [
      "storage: ./storage",
      "auth:",
      "  htpasswd:",
      "    file: ./htpasswd",
      "    max_users: 10",
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const port = await freePort();
  const lines: string[] = [];
  const child: ChildProcess = spawn(
    process.execPath,
    [verdaccio, "--config", join(registryDir, "config.yaml"), "--listen", `127.0.0.1:${port}`],
    { cwd: registryDir, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout!.on("data", (chunk) => lines.push(String(chunk)));
  child.stderr!.on("data", (chunk) => lines.push(String(chunk)));
  try {
    await waitUntil(
      () => lines.join("").includes("http address"),
      60_000,
      () => `Verdaccio did not start:\n${lines.join("")}`,
    );
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/`, port, child };
}

/*
 * Installing Chromium (apt-get on a fresh machine) and Verdaccio (npm ci), and starting the registry,
 * mostly wait on the network and disks: they run while the first test builds and tests the servers,
 * and the browser and publish tests await them.
 */
let chromiumPath: Promise<string>;
let registryReady: Promise<Registry>;

test.before(() => {
  chromiumPath = later(setupPath("setup-chromium.js", "chromium", 900_000));
  registryReady = later(setupPath("setup-verdaccio.js", "verdaccio", 600_000).then(startRegistry));
  cpSync(join(repoRoot, "examples", "fleet", "mcp-gen.workspace.yaml"), join(ws, "mcp-gen.workspace.yaml"));
  cpSync(join(repoRoot, "examples", "fleet", "specs"), join(ws, "specs"), { recursive: true });
  // The servers' dependencies (got, ajv, typescript …) are the repository's own, at the same versions.
  symlinkSync(join(repoRoot, "node_modules"), join(ws, "node_modules"), "dir");
  mkdirSync(outputDir, { recursive: true });
});

test.after(async () => {
  const started = await registryReady.catch(() => undefined);
  if (started) await stopChild(started.child);
  rmSync(work, { recursive: true, force: true });
});

test("one command builds, tests and reports the five-server workspace; every server passes its tests and scores 100/100", async () => {
  const started = Date.now();
  const { code, output } = await mcpGen(["workspace", "build", "--no-install", "--test", "--report"]);
  console.log(`fleet: build + test + report of 5 servers in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.is(code, 0, output);
  assert.match(output, /all 5 servers pass their tests and score 100\/100/);
  const root = JSON.parse(readFileSync(join(ws, "package.json"), "utf8")) as { private: boolean; workspaces: string[] };
  assert.equal(root.workspaces, [
    "servers/wikipathways",
    "servers/twilio-pricing",
    "servers/exoapi",
    "servers/cloudsearch-domain",
    "servers/sourcerepo",
  ]);
  const report = readReport();
  assert.is(report.totals.servers, 5);
  assert.equal(report.totals.compliance, { checked: 5, perfect: 5, lowest: 100, mean: 100 });
  assert.is(report.totals.tests.failed, 0);
  assert.ok(report.totals.tests.passed >= 50, `${report.totals.tests.passed} tests passed`);
  for (const server of report.servers) {
    assert.is(server.status, "passing", JSON.stringify(server));
    assert.is(server.generated, "created");
    assert.ok(server.name.startsWith(`${SCOPE}/`), server.name);
    assert.ok((server.tests?.passed ?? 0) > 0 && server.tests?.failed === 0, JSON.stringify(server.tests));
    assert.equal(
      server.compliance?.map((c) => c.score),
      [100],
    );
    assert.ok((server.toolsList?.tokens ?? 0) > 0);
    const pkg = JSON.parse(readFileSync(join(ws, server.out, "package.json"), "utf8")) as {
      license: string;
      repository: { url: string };
    };
    assert.is(pkg.license, "MIT", "the workspace's default license");
  }
  const sourcerepo = report.servers.find((s) => s.name.endsWith("/sourcerepo-mcp"))!;
  assert.equal(sourcerepo.surface, {
    requested: "search",
    served: "search",
    reason: "asked for (--surface search or MCP_SURFACE)",
  });
  assert.is(sourcerepo.toolsList?.tools, 3);
});

test("one spec changed: workspace check names that server (exit 5); the next build regenerates only it, bumps its version, and the report shows the breaking change", async () => {
  const clean = await mcpGen(["workspace", "check"]);
  assert.is(clean.code, 0, clean.output);
  assert.match(clean.output, /all 5 servers are up to date/);
  // Twilio Pricing loses an operation: a removed tool is a breaking change.
  const specFile = join(ws, "specs", "twilio-pricing.json");
  const spec = JSON.parse(readFileSync(specFile, "utf8")) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const removedPath = Object.keys(spec.paths).sort()[0]!;
  const removedTools = Object.values(spec.paths[removedPath]!).flatMap((op) =>
    op && typeof op === "object" && op.operationId ? [op.operationId] : [],
  );
  delete spec.paths[removedPath];
  writeFileSync(specFile, JSON.stringify(spec, null, 2));

  const stale = await mcpGen(["workspace", "check"]);
  assert.is(stale.code, 5, stale.output);
  assert.match(stale.output, /stale: @mcp-fleet-example\/twilio-pricing-mcp \(servers\/twilio-pricing\)/);
  assert.match(stale.output, /a build writes 2\.0\.0/);
  assert.is(stale.output.match(/^stale: /gm)?.length, 1, "only the changed server is stale");

  const { code, output } = await mcpGen(["workspace", "build", "--no-install", "--report"]);
  assert.is(code, 0, output);
  assert.match(output, /twilio-pricing-mcp: updated 1\.55\.0 → 2\.0\.0 \(\d+ written, \d+ deleted, BREAKING changes\)/);
  assert.is(output.match(/: unchanged /g)?.length, 4, output);
  assert.match(output, /twilio-pricing-mcp: built/);
  assert.not.match(
    output,
    /(wikipathways|exoapi|cloudsearch-domain|sourcerepo)-mcp: built/,
    "servers whose build is up to date are not compiled again",
  );
  const report = readReport();
  const twilio = report.servers.find((s) => s.name === `${SCOPE}/twilio-pricing-mcp`)!;
  assert.is(twilio.generated, "updated");
  assert.is(twilio.previousVersion, "1.55.0");
  assert.is(twilio.version, "2.0.0");
  assert.is(twilio.status, "not tested", "its test results were of the previous generation");
  assert.is(twilio.changes?.breaking, true);
  assert.is(twilio.changes?.bump, "major");
  assert.ok(removedTools.length > 0);
  for (const tool of twilio.changes!.removed)
    assert.ok(twilio.changes!.breakingChanges.includes(`${tool}: tool removed`), JSON.stringify(twilio.changes));
  assert.is(twilio.changes!.removed.length, removedTools.length);
  for (const other of report.servers.filter((s) => s !== twilio)) {
    assert.is(other.generated, "unchanged");
    assert.is(other.changes, undefined);
    assert.is(other.status, "passing", "unchanged servers keep their test results");
  }
  assert.is(report.totals.breaking, 1);
  const pkg = JSON.parse(readFileSync(join(ws, "servers", "twilio-pricing", "package.json"), "utf8")) as {
    version: string;
  };
  assert.is(pkg.version, "2.0.0");
});

test("report.html in a real browser (Chromium): totals, one row per server, the breaking change, the chart; nothing fetched; screenshot kept", async () => {
  const executablePath = await chromiumPath;
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "mcp-gen-chromium-"));
  // A fresh profile (playwright passes it as --user-data-dir); without the background-networking flags
  // Chromium's own connections are refused by the closed network.
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ];
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    args,
    timeout: 60_000,
    viewport: { width: 1280, height: 900 },
  });
  try {
    const page = await browser.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    const url = `file://${join(ws, "report.html")}`;
    await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    assert.is(await page.title(), "MCP fleet report: mcp-gen.workspace.yaml");
    assert.is(await page.locator("[data-total]").count(), 7);
    assert.is((await page.locator('[data-total="servers"] .value').textContent())?.trim(), "5");
    assert.is((await page.locator('[data-total="breaking"] .value').textContent())?.trim(), "1");
    assert.is(await page.locator("#servers tbody tr").count(), 5);
    const twilio = page.locator(`#servers tr[data-server="${SCOPE}/twilio-pricing-mcp"]`);
    assert.is(await twilio.getAttribute("data-status"), "not tested");
    assert.match((await twilio.textContent()) ?? "", /1\.55\.0 →\s*2\.0\.0/);
    assert.is(await twilio.locator(".badge.bad").textContent(), "breaking");
    assert.is(await page.locator('#servers tr[data-status="passing"]').count(), 4);
    const details = page.locator(`details[data-server="${SCOPE}/twilio-pricing-mcp"]`);
    assert.ok(
      await details.locator("ul.breaking li").first().isVisible(),
      "the breaking changes of a changed server are shown open",
    );
    // The chart is drawn: five bars, each with a real size on the page.
    const bars = await page
      .locator("#chart rect")
      .evaluateAll((rects) => rects.map((r) => r.getBoundingClientRect().width));
    assert.is(bars.length, 5);
    for (const width of bars) assert.ok(width > 0, `bar width ${width}`);
    assert.equal(errors, []);
    assert.equal(requests, [url], "self-contained: the page loads nothing else");
    const shot = join(outputDir, "report.png");
    await page.screenshot({ path: shot, fullPage: true });
    assert.ok(readFileSync(shot).subarray(1, 4).toString() === "PNG", "a PNG screenshot");
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test("publish to a local Verdaccio: two servers published (dry run first), again is a no-op, one installed from it into an empty folder, run with npx, tools listed with the SDK client", async () => {
  const { url: registry, port } = await registryReady;
  try {
    // A user, as `npm adduser` makes one; its token goes into a userconfig of this test only.
    const added = await fetch(`${registry}-/user/org.couchdb.user:fleet`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "fleet", password: "fleet-test-password" }),
    });
    assert.is(added.status, 201, await added.clone().text());
    const { token } = (await added.json()) as { token: string };
    const userconfig = join(work, "npmrc");
    writeFileSync(userconfig, `//127.0.0.1:${port}/:_authToken=${token}\n${SCOPE}:registry=${registry}\n`);
    process.env.npm_config_userconfig = userconfig;

    // A workspace file of two of the fleet's servers (the same folders).
    const two =
      (readFileSync(join(ws, "mcp-gen.workspace.yaml"), "utf8").split("servers:")[0] ?? "") +
      [
        "servers:",
        "  - spec: specs/exoapi.json",
        "    out: servers/exoapi",
        "    name: exoapi-mcp",
        "  - spec: specs/cloudsearch-domain.json",
        "    out: servers/cloudsearch-domain",
        "    name: cloudsearch-domain-mcp",
        "",
      ].join("\n");
    writeFileSync(join(ws, "publish.workspace.yaml"), two);
    const dry = await mcpGen(["workspace", "publish", "publish.workspace.yaml", "--dry-run", "--registry", registry]);
    assert.is(dry.code, 0, dry.output);
    assert.match(dry.output, /2 would be published, 0 already published, 0 failed/);
    const published = await mcpGen(["workspace", "publish", "publish.workspace.yaml", "--registry", registry]);
    assert.is(published.code, 0, published.output);
    assert.match(published.output, /@mcp-fleet-example\/exoapi-mcp@1\.0\.0: published/);
    assert.match(published.output, /@mcp-fleet-example\/cloudsearch-domain-mcp@0\.1\.0: published/);
    const again = await mcpGen(["workspace", "publish", "publish.workspace.yaml", "--registry", registry]);
    assert.is(again.code, 0, again.output);
    assert.match(again.output, /0 published, 2 already published, 0 failed/);

    // Installed from the registry into an empty folder (its dependencies come from npm's own registry).
    const app = join(work, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true }));
    const install = await run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", `${SCOPE}/exoapi-mcp`],
      { cwd: app, env: npmEnv(), timeoutMs: 600_000 },
    );
    console.log(`fleet: npm install of ${SCOPE}/exoapi-mcp from Verdaccio in ${(install.ms / 1000).toFixed(1)} s`);
    assert.ok(
      existsSync(join(app, "node_modules", SCOPE, "exoapi-mcp", "dist", "index.js")),
      "the published package carries its build",
    );
    const client = new Client({ name: "fleet-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: "npx",
      args: ["--no", `${SCOPE}/exoapi-mcp`],
      cwd: app,
      env: { ...(npmEnv() as Record<string, string>), npm_config_userconfig: userconfig },
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const expected = (
        JSON.parse(readFileSync(join(ws, "servers", "exoapi", "data", "tools.json"), "utf8")) as Array<{ name: string }>
      ).map((t) => t.name);
      assert.equal(
        tools.map((t) => t.name),
        expected,
      );
      assert.is(client.getServerVersion()?.name, `${SCOPE}/exoapi-mcp`);
    } finally {
      await client.close();
    }
  } finally {
    delete process.env.npm_config_userconfig;
  }
});

test.run();
