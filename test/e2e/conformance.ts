/**
 * The official MCP conformance suite (pinned in tools/conformance, run on the Node 22 installed
 * there) against a server generated from specs/conformance/openapi.yaml plus the reference
 * fixtures in specs/conformance/custom/index.ts, over Streamable HTTP, for both requirement sets.
 * Any failed check that is not listed (and justified) in test/conformance/expected-failures-<revision>.yaml
 * fails the test, and so does a listed one that passes (the baseline must stay honest).
 *
 * The suite is also the referee of `mcp-gen check`: on the checks both make, check agrees with it on
 * this server (all pass) and on a deliberately broken one (the same server behind a proxy that lets a
 * foreign Origin through and answers ping with an error), where both fail exactly those checks.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs the pinned conformance suite and Node 22 (scripts/setup-conformance.js installs them).
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compileProject, startHttpServer, type HttpServerHandle } from "../support/e2e.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-conformance-"));
const out = join(work, "server");
let server: HttpServerHandle | undefined;
let url = "";
let node22 = "";
let suite = "";
/** Each conformance check's statuses, by check id, from the runs' `-o` folders. */
const referee = new Map<string, string[]>();

test.before(async () => {
  const setup = await run(process.execPath, [join(root, "scripts/setup-conformance.js")], { timeout: 300_000 });
  node22 = /node: (.+)/.exec(setup.stdout)![1]!.trim();
  suite = /conformance: (.+)/.exec(setup.stdout)![1]!.trim();
  await run(
    process.execPath,
    [
      join(root, "bin/mcp-gen.js"),
      join(root, "specs/conformance/openapi.yaml"),
      "-o",
      out,
      "--with",
      "tasks,sessions,custom",
    ],
    {
      timeout: 60_000,
    },
  );
  copyFileSync(join(root, "specs/conformance/custom/index.ts"), join(out, "src/custom/index.ts"));
  // The fixtures ask the client (ctx.clientRequest): regenerating adds feature client-requests.
  await run(process.execPath, [join(root, "bin/mcp-gen.js"), join(root, "specs/conformance/openapi.yaml"), "-o", out], {
    timeout: 60_000,
  });
  await compileProject(out);
  server = await startHttpServer(out, ["--sessions", "--base-url", "http://127.0.0.1:9"]);
  url = server.url.toString();
});

test.after(async () => {
  await server?.stop();
});

for (const requirements of ["2025-11-25", "2026-07-28"]) {
  test(`conformance --requirements ${requirements}: no unexpected failed check`, async () => {
    const results = join(work, `results-${requirements}`);
    const args = [
      suite,
      "server",
      "--url",
      url,
      "--requirements",
      requirements,
      "--expected-failures",
      join(root, `test/conformance/expected-failures-${requirements}.yaml`),
      "-o",
      results,
    ];
    let stdout = "";
    let code = 0;
    try {
      ({ stdout } = await run(node22, args, { timeout: 240_000, maxBuffer: 64 * 1024 * 1024 }));
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      stdout = `${e.stdout ?? ""}\n${e.stderr ?? ""}`;
      code = typeof e.code === "number" ? e.code : -1;
    }
    const totals = /Total: (\d+) passed, (\d+) failed/.exec(stdout);
    console.log(`conformance ${requirements}: ${totals ? `${totals[1]} passed, ${totals[2]} failed` : "no totals"}`);
    assert.is(
      code,
      0,
      stdout
        .split("\n")
        .filter((line) => /✗|unexpected|stale|Error/i.test(line))
        .join("\n"),
    );
    for (const [id, statuses] of checkStatuses(results)) referee.set(id, [...(referee.get(id) ?? []), ...statuses]);
  });
}

/** Every check of a conformance `-o` folder: check id → its statuses (a check may run in several scenarios). */
function checkStatuses(dir: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const scenario of readdirSync(dir)) {
    const checks = JSON.parse(readFileSync(join(dir, scenario, "checks.json"), "utf8")) as Array<{
      id: string;
      status: string;
    }>;
    for (const check of checks) found.set(check.id, [...(found.get(check.id) ?? []), check.status]);
  }
  return found;
}

/**
 * The checks `mcp-gen check` and the conformance suite both make: our check id → the suite's check
 * ids that test the same rule (each must have run, and agree).
 */
const SHARED_CHECKS: Record<string, string[]> = {
  "lifecycle-initialize": ["server-initialize"],
  ping: ["ping"],
  "logging-level": ["logging-set-level"],
  "tools-names": ["tools-name-format"],
  "tools-descriptions": ["tools-list"],
  "tools-list-pagination": ["tools-list-deterministic-order"],
  resources: ["resources-list"],
  "lifecycle-discover": ["sep-2575-server-implements-discover"],
  "modern-unsupported-version": [
    "sep-2575-server-unsupported-version-error",
    "sep-2575-http-server-unsupported-version-400",
  ],
  "modern-requests": ["sep-2575-request-meta-invalid-missing-client-capabilities", "sep-2549-tools-list-caching-hints"],
  "http-origin": ["localhost-host-rebinding-rejected", "localhost-host-valid-accepted"],
  "http-headers": ["sep-2243-server-reject-invalid-headers", "sep-2243-server-reject-error-code"],
};

/** Runs `mcp-gen check --json <url>`; the verdict per check id. */
async function mcpGenCheck(target: string): Promise<Map<string, boolean>> {
  let stdout = "";
  try {
    ({ stdout } = await run(process.execPath, [join(root, "bin/mcp-gen.js"), "check", "--json", target], {
      timeout: 120_000,
    }));
  } catch (error) {
    stdout = (error as { stdout?: string }).stdout ?? "";
  }
  const report = JSON.parse(stdout) as { checks: Array<{ id: string; ok: boolean; skipped?: boolean }> };
  return new Map(report.checks.filter((c) => !c.skipped).map((c) => [c.id, c.ok]));
}

/** Whether the suite passed every one of these checks (undefined when one of them did not run). */
function refereeVerdict(statuses: Map<string, string[]>, ids: string[]): boolean | undefined {
  let ok = true;
  for (const id of ids) {
    const seen = statuses.get(id);
    if (!seen) return undefined;
    if (seen.some((status) => status !== "SUCCESS")) ok = false;
  }
  return ok;
}

test("mcp-gen check agrees with the conformance suite on every check both make (all pass on this server)", async () => {
  const ours = await mcpGenCheck(url);
  const disagreements: string[] = [];
  for (const [id, theirs] of Object.entries(SHARED_CHECKS)) {
    const verdict = refereeVerdict(referee, theirs);
    if (verdict === undefined) disagreements.push(`${id}: the suite did not run ${theirs.join(", ")}`);
    else if (ours.get(id) !== verdict)
      disagreements.push(`${id}: mcp-gen check ${String(ours.get(id))}, suite ${verdict}`);
    else if (!verdict) disagreements.push(`${id}: both fail on the conformance server`);
  }
  assert.equal(disagreements, []);
});

/**
 * A broken server for the negative control: the good one behind a proxy that forwards everything
 * without the Host and Origin headers (so a foreign origin is never refused) and answers ping with a
 * JSON-RPC error.
 */
async function brokenProxy(target: URL): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let message: { id?: unknown; method?: unknown } | undefined;
      try {
        message = JSON.parse(body.toString("utf8")) as { id?: unknown; method?: unknown };
      } catch {
        message = undefined;
      }
      if (message?.method === "ping") {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(
            JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } }),
          );
        return;
      }
      const headers = { ...req.headers, host: target.host };
      delete headers.origin;
      const upstream = request(target, { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on("error", () => res.writeHead(502).end());
      res.on("close", () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  const address = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${address.port}${target.pathname}` };
}

test("negative control: behind a proxy that lets a foreign Origin through and breaks ping, both fail exactly http-origin and ping", async () => {
  const proxy = await brokenProxy(new URL(url));
  try {
    const results = join(work, "results-broken");
    mkdirSync(results);
    for (const scenario of ["ping", "dns-rebinding-protection", "server-initialize"]) {
      try {
        await run(node22, [suite, "server", "--url", proxy.url, "--scenario", scenario, "-o", results], {
          timeout: 120_000,
          maxBuffer: 16 * 1024 * 1024,
        });
      } catch {
        // A failing scenario exits non-zero; its checks.json says which checks failed.
      }
    }
    const statuses = checkStatuses(results);
    const ours = await mcpGenCheck(proxy.url);
    const verdicts = ["ping", "http-origin", "lifecycle-initialize"].map((id) => ({
      id,
      ours: ours.get(id),
      suite: refereeVerdict(statuses, SHARED_CHECKS[id]!),
    }));
    assert.equal(verdicts, [
      { id: "ping", ours: false, suite: false },
      { id: "http-origin", ours: false, suite: false },
      { id: "lifecycle-initialize", ours: true, suite: true },
    ]);
    const failed = [...ours].filter(([, ok]) => !ok).map(([id]) => id);
    assert.equal(failed, ["ping", "http-origin"], "check loses points for those two checks only");
  } finally {
    await new Promise((done) => proxy.server.close(done));
  }
});

test.run();
