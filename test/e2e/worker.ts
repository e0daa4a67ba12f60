/**
 * End to end on the real Workers runtime: specs/petstore.yaml generated with `--target worker`, built
 * with the project's own `npm run build` (the Worker bundle), served by `npm run dev:worker`
 * (wrangler dev → workerd, from npm, offline) on 127.0.0.1, reading API_BASE_URL from `.dev.vars`;
 * the official SDK clients (1.x legacy initialize, 2.x on 2026-07-28) list and call tools against a
 * local upstream, the conformance suite's server scenarios fail on it exactly what they fail on the
 * same project served by Node, and `mcp-gen check` scores it 100/100.
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs wrangler (scripts/setup-wrangler.js), the
 * pinned conformance suite and Node 22 (scripts/setup-conformance.js; wrangler needs Node 22.12+).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startHttpServer, type HttpServerHandle } from "../support/e2e.js";
import { startUpstream, type Upstream } from "../support/runtime-fixture.js";
import { startWorkerDev, workerTools, type WorkerDev } from "../support/worker-dev.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-worker-"));
const out = join(work, "server");
let upstream: Upstream;
let worker: WorkerDev | undefined;
let nodeServer: HttpServerHandle | undefined;
let url = "";
let node22 = "";
let suite = "";

test.before(async () => {
  try {
    await startWorker();
  } catch (error) {
    // uvu does not print a hook's error: the reason the Worker did not start goes to the log.
    console.error(error);
    throw error;
  }
});

/** Installs the referees, generates and starts the petstore Worker against a local upstream. */
async function startWorker(): Promise<void> {
  const tools = await workerTools();
  ({ node22, suite } = tools);
  upstream = await startUpstream((r) =>
    r.url.split("?")[0]!.endsWith("/pets")
      ? { status: 200, headers: { "content-type": "application/json" }, body: "[]" }
      : { status: 200, headers: { "content-type": "application/json" }, body: '{"id":7,"name":"Rex"}' },
  );
  await run(
    process.execPath,
    [join(root, "bin/mcp-gen.js"), join(root, "specs/petstore.yaml"), "-o", out, "--target", "worker"],
    {
      timeout: 120_000,
    },
  );
  worker = await startWorkerDev(out, { API_BASE_URL: upstream.baseUrl }, tools);
  url = worker.url;
  // The same project on Node, the reference of the conformance comparison.
  nodeServer = await startHttpServer(out, ["--base-url", upstream.baseUrl]);
  const size = worker.process.lines().find((line) => line.startsWith("bundle-worker:"));
  console.log(`worker: ${size ?? "no size line"}; serving ${url}`);
}

test.after(async () => {
  await worker?.stop();
  await nodeServer?.stop();
  await upstream?.close();
  rmSync(work, { recursive: true, force: true });
});

type AnyClient = {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
};

/** Lists the tools and calls getPet, which reaches the local upstream through the Worker's fetch. */
async function exercise(client: AnyClient): Promise<void> {
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  assert.ok(names.includes("getPet") && names.includes("listPets"), names.join());
  const before = upstream.received.length;
  const result = (await client.callTool({ name: "getPet", arguments: { petId: 7 } })) as {
    structuredContent?: unknown;
    isError?: boolean;
  };
  const sent = upstream.received.slice(before).map((request) => `${request.method} ${request.url}`);
  assert.not.ok(result.isError, JSON.stringify(result));
  assert.equal(result.structuredContent, { id: 7, name: "Rex" });
  assert.equal(sent, ["GET /api/v1/pets/7"]);
  await client.close();
}

test("SDK 1.x over Streamable HTTP (legacy initialize, no sessions) against the Worker", async () => {
  const client = new ClientV1({ name: "worker-v1", version: "1.0.0" });
  await client.connect(new HttpV1(new URL(url)));
  assert.is(client.getServerVersion()?.name, "pet-store-mcp");
  await exercise(client as unknown as AnyClient);
});

test("client 2.x negotiates 2026-07-28 with the Worker", async () => {
  const client = new ClientV2({ name: "worker-v2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new HttpV2(new URL(url)));
  assert.is(client.getNegotiatedProtocolVersion(), "2026-07-28");
  await exercise(client as unknown as AnyClient);
});

/** Runs the suite's server scenarios against `target`; the scenarios with a failed check, and the totals line. */
async function conformance(target: string, requirements: string): Promise<{ failed: string[]; totals: string }> {
  const args = [
    suite,
    "server",
    "--url",
    target,
    "--requirements",
    requirements,
    "-o",
    join(work, `results-${requirements}-${Date.now()}`),
  ];
  let stdout = "";
  try {
    ({ stdout } = await run(node22, args, { timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    // The suite exits 1 when a check fails: its report is what matters here.
    const e = error as { stdout?: string; stderr?: string };
    stdout = `${e.stdout ?? ""}\n${e.stderr ?? ""}`;
  }
  const failed = [...new Set([...stdout.matchAll(/^✗ ([\w-]+):/gm)].map((match) => match[1]!))].sort();
  const totals = /Total: (\d+) passed, (\d+) failed/.exec(stdout)?.[0] ?? "no totals";
  return { failed, totals };
}

/**
 * The suite's server scenarios: the Worker fails exactly the ones the same project fails on Node.
 * Those are the scenarios that need the suite's fixture tools, resources and prompts (tools-call-image,
 * prompts-get-simple …), which petstore does not have; test/e2e/conformance.ts runs them against the
 * fixture server on Node.
 */
for (const requirements of ["2025-11-25", "2026-07-28"]) {
  test(`conformance --requirements ${requirements}: the Worker fails only what the Node server fails`, async () => {
    const onWorker = await conformance(url, requirements);
    const onNode = await conformance(nodeServer!.url.toString(), requirements);
    console.log(`conformance ${requirements}: worker ${onWorker.totals}; node ${onNode.totals}`);
    const onlyWorker = onWorker.failed.filter((name) => !onNode.failed.includes(name));
    const onlyNode = onNode.failed.filter((name) => !onWorker.failed.includes(name));
    assert.ok(onWorker.totals !== "no totals", "the suite ran");
    assert.equal({ onlyWorker, onlyNode }, { onlyWorker: [], onlyNode: [] });
  });
}

test("mcp-gen check scores the Worker 100/100", async () => {
  let stdout = "";
  try {
    ({ stdout } = await run(process.execPath, [join(root, "bin/mcp-gen.js"), "check", "--json", url], {
      timeout: 180_000,
    }));
  } catch (error) {
    stdout = (error as { stdout?: string }).stdout ?? "";
  }
  const report = JSON.parse(stdout) as {
    score?: number;
    checks: Array<{ id: string; ok: boolean; skipped?: boolean }>;
  };
  const failed = report.checks.filter((check) => !check.ok && !check.skipped).map((check) => check.id);
  console.log(`mcp-gen check (worker): ${report.score}/100`);
  assert.equal(failed, []);
  assert.is(report.score, 100);
});

test.run();
