/**
 * Helpers for the deploy-target end-to-end tests (test/e2e/target-*.ts): generate a project with
 * `--target`, build it with its own `npm run build`, serve it with `npm run dev:<target>` on the
 * platform's real runtime (pinned in tools/runtimes, scripts/setup-runtimes.js), drive it with the
 * official SDK clients, the conformance suite and `mcp-gen check`. No tests here.
 *
 * `npm run dev:<target>` starts a runtime under npm (and a shell): it runs in a process group of its
 * own, which {@link DevServer.stop} ends by that group's id, so nothing it started outlives the test.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Test } from "uvu";
import * as assert from "uvu/assert";
import { LOOPBACK, buildGeneratedProject, freePort, npmEnv, repoRoot, run, startHttpServer } from "./e2e.js";
import { startUpstream, type Upstream } from "./runtime-fixture.js";

const exec = promisify(execFile);
const cli = join(repoRoot, "bin", "mcp-gen.js");

/** The pinned runtimes: their paths, and the PATH that finds `deno`, `bun` and `serverless` first. */
export interface Runtimes {
  deno: string;
  bun: string;
  path: string;
}

/** Installs (once) and locates the runtimes of tools/runtimes. */
export async function setupRuntimes(): Promise<Runtimes> {
  const { stdout } = await exec(process.execPath, [join(repoRoot, "scripts/setup-runtimes.js")], {
    timeout: 480_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, "m").exec(stdout)![1]!.trim();
  return { deno: field("deno"), bun: field("bun"), path: `${field("path")}:${process.env.PATH ?? ""}` };
}

/**
 * Generates `spec` into `dir` for `target` (with `extra` flags), optionally drops in a custom
 * extension (then generates again, which adds the features it uses), and builds it with its own
 * `npm run build` over the repository's node_modules.
 */
export async function buildTarget(
  spec: string,
  dir: string,
  target: string,
  options: { extra?: string[]; custom?: string } = {},
): Promise<string> {
  const generate = [cli, spec, "-o", dir, "--target", target, ...(options.extra ?? [])];
  await run(process.execPath, generate, { cwd: repoRoot, timeoutMs: 120_000 });
  if (options.custom) {
    mkdirSync(join(dir, "src/custom"), { recursive: true });
    copyFileSync(options.custom, join(dir, "src/custom/index.ts"));
    await run(process.execPath, [cli, spec, "-o", dir], { cwd: repoRoot, timeoutMs: 120_000 });
  }
  const built = await buildGeneratedProject(dir, { install: false, buildTimeoutMs: 600_000 });
  return built.output;
}

/** A generated server running under `npm run dev:<target>`. */
export interface DevServer {
  url: string;
  /** Everything it printed so far. */
  output(): string;
  /** Ends its process group (SIGTERM, then SIGKILL) and waits for npm to exit. */
  stop(): Promise<void>;
}

const groups = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of groups) signalGroup(child, "SIGKILL");
});

/** Sends `signal` to the process group this test started (its leader's PID, negated). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone
  }
}

/**
 * Runs `npm run dev:<target>` in `dir` with `env` (PORT set to a free port) and resolves once
 * `POST /mcp` answers a ping; throws with its output when it exits or is not ready in time.
 */
export async function startDev(
  dir: string,
  target: string,
  env: Record<string, string>,
  readyMs = 90_000,
): Promise<DevServer> {
  const port = await freePort();
  const child = spawn("npm", ["run", `dev:${target}`], {
    cwd: dir,
    env: { ...npmEnv(), ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  groups.add(child);
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async (): Promise<void> => {
    signalGroup(child, "SIGTERM");
    const timer = setTimeout(() => signalGroup(child, "SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
    signalGroup(child, "SIGKILL");
    groups.delete(child);
  };
  const url = `http://${LOOPBACK}:${port}/mcp`;
  const deadline = Date.now() + readyMs;
  while (!(await answersPing(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm run dev:${target} did not serve ${url} within ${readyMs} ms:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  return { url, output: () => output, stop };
}

/** True when the endpoint answers a JSON-RPC ping with 200. */
async function answersPing(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      signal: AbortSignal.timeout(5_000),
    });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** The surface both SDK generations share. */
interface AnyClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: Array<{ name: string }>; nextCursor?: string }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** What one client saw: the era it spoke, every tool name listed, and one call's structured result. */
export interface ClientRun {
  client: string;
  era: string | undefined;
  tools: string[];
  result: unknown;
}

/** Lists every page of tools and calls `getPet` 7 with one client; closes it. */
async function exercise(label: string, era: string | undefined, client: AnyClient): Promise<ClientRun> {
  try {
    const tools: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const listed = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...listed.tools.map((tool) => tool.name));
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    const called = (await client.callTool({ name: "getPet", arguments: { petId: 7 } })) as {
      structuredContent?: unknown;
      isError?: boolean;
    };
    return { client: label, era, tools, result: called.isError ? called : called.structuredContent };
  } finally {
    await client.close();
  }
}

/** SDK 1.x (legacy `initialize`) and client 2.x (auto, and pinned to 2026-07-28) against `url`. */
export async function clientRuns(url: string): Promise<ClientRun[]> {
  const runs: ClientRun[] = [];
  const v1 = new ClientV1({ name: "target-e2e-v1", version: "1.0.0" });
  await v1.connect(new HttpV1(new URL(url)));
  runs.push(await exercise("sdk 1.x", "initialize", v1));
  for (const [label, versionNegotiation] of [
    ["client 2.x auto", { mode: "auto" as const }],
    ["client 2.x pinned", { mode: { pin: "2026-07-28" } }],
  ] as const) {
    const v2 = new ClientV2({ name: "target-e2e-v2", version: "1.0.0" }, { versionNegotiation });
    await v2.connect(new HttpV2(new URL(url)));
    runs.push(await exercise(label, v2.getNegotiatedProtocolVersion(), v2 as unknown as AnyClient));
  }
  return runs;
}

/** One conformance run: its totals and each check's statuses by id. */
export interface ConformanceRun {
  passed: number;
  failed: number;
  checks: Map<string, string[]>;
}

/** Runs the conformance suite's server scenarios against `url` for `requirements`, results into `out`. */
export async function conformance(
  node22: string,
  suite: string,
  url: string,
  requirements: string,
  out: string,
): Promise<ConformanceRun> {
  let stdout = "";
  try {
    ({ stdout } = await exec(node22, [suite, "server", "--url", url, "--requirements", requirements, "-o", out], {
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (error) {
    // A failed check exits non-zero; the totals and checks.json say which.
    const e = error as { stdout?: string; stderr?: string };
    stdout = `${e.stdout ?? ""}\n${e.stderr ?? ""}`;
  }
  const totals = /Total: (\d+) passed, (\d+) failed/.exec(stdout);
  if (!totals) throw new Error(`the conformance suite printed no totals:\n${stdout.slice(-4000)}`);
  const checks = new Map<string, string[]>();
  for (const scenario of readdirSync(out)) {
    const listed = JSON.parse(readFileSync(join(out, scenario, "checks.json"), "utf8")) as Array<{
      id: string;
      status: string;
    }>;
    for (const check of listed) checks.set(check.id, [...(checks.get(check.id) ?? []), check.status]);
  }
  return { passed: Number(totals[1]), failed: Number(totals[2]), checks };
}

/** The ids of the checks a run failed (any status but SUCCESS, in any scenario), sorted. */
export function failedChecks(run: ConformanceRun): string[] {
  return [...run.checks]
    .filter(([, statuses]) => statuses.some((status) => status !== "SUCCESS" && status !== "INFO"))
    .map(([id]) => id)
    .sort();
}

/** `mcp-gen check --json <url>`: the score and the failed checks' messages. */
export async function checkScore(url: string): Promise<{ score: number; failed: string[] }> {
  let stdout = "";
  try {
    ({ stdout } = await exec(process.execPath, [cli, "check", "--json", url], {
      timeout: 180_000,
      maxBuffer: 16 * 1024 * 1024,
    }));
  } catch (error) {
    stdout = (error as { stdout?: string }).stdout ?? "";
  }
  const report = JSON.parse(stdout) as { score: number; checks: Array<{ id: string; ok: boolean; message: string }> };
  return { score: report.score, failed: report.checks.filter((c) => !c.ok).map((c) => `${c.id}: ${c.message}`) };
}

/** What a target's e2e file declares. */
export interface TargetCase {
  target: string;
  /** Files `npm run build` (and the generator) must leave in the project: the deployable artifact. */
  artifacts: string[];
  /** Conformance checks that fail on this target and pass on Node, each with the reason (kept honest: each must fail). */
  differences: Record<string, string>;
  /**
   * Checks that fail on this target or not depending on which instance serves a request (the
   * platform starts one per concurrent request), each with the reason: allowed, never required.
   */
  mayDiffer?: Record<string, string>;
  /** Runtime features the conformance project is generated with (those of its fixtures the target carries). */
  conformanceWith?: string[];
}

/** The petstore example's tools, in listing order (operations, then its custom tools). */
const PETSTORE_TOOLS = [
  "listPets",
  "createPet",
  "getPet",
  "updatePet",
  "deletePet",
  "getInventory",
  "retag_pet",
  "describe_pets",
];

/** The suite's shared state: the runtimes, the upstream, the two projects and their servers. */
interface SuiteState {
  runtimes?: Runtimes;
  upstream?: Upstream;
  petstore?: string;
  dev?: DevServer;
  node22?: string;
  suite?: string;
}

/**
 * Registers a target's end-to-end tests on `test` (the file runs it): the deployable build, the
 * dev server on the real runtime with SDK 1.x and 2.x clients against a local upstream, the
 * conformance suite's server scenarios compared with Node's on the same project, and `mcp-gen check`.
 */
export function targetTests(test: Test, target: TargetCase): void {
  const work = mkdtempSync(join(tmpdir(), `mcp-gen-target-${target.target}-`));
  const state: SuiteState = {};
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is missing: an earlier step failed`);
    return value;
  };

  test.before(async () => {
    state.runtimes = await setupRuntimes();
    state.upstream = await startUpstream((r) =>
      r.url.includes("/pets/7")
        ? { status: 200, headers: { "content-type": "application/json" }, body: '{"id":7,"name":"Rex"}' }
        : { status: 404, body: "" },
    );
  });

  test.after(async () => {
    await state.dev?.stop();
    await state.upstream?.close();
  });

  test(`--target ${target.target}: npm run build makes the deployable artifact`, async () => {
    const dir = join(work, "petstore");
    await buildTarget(join(repoRoot, "specs/petstore.yaml"), dir, target.target, {
      custom: join(repoRoot, "specs/custom-code/petstore/index.ts"),
    });
    for (const file of target.artifacts) assert.ok(existsSync(join(dir, file)), `${file} after npm run build`);
    state.petstore = dir;
  });

  test(`npm run dev:${target.target} serves /mcp on the real runtime; SDK 1.x and 2.x list and call tools against a local upstream`, async () => {
    const dir = need(state.petstore, "the built petstore");
    const upstream = need(state.upstream, "the upstream");
    const env = { PATH: need(state.runtimes, "the runtimes").path, API_BASE_URL: upstream.baseUrl };
    state.dev = await startDev(dir, target.target, env);
    const runs = await clientRuns(state.dev.url);
    for (const run of runs) {
      assert.equal(run.tools, PETSTORE_TOOLS, run.client);
      assert.equal(run.result, { id: 7, name: "Rex" }, `${run.client}: ${state.dev.output().slice(-2000)}`);
    }
    assert.equal(
      runs.map((run) => run.era),
      ["initialize", "2026-07-28", "2026-07-28"],
    );
    assert.ok(upstream.received.some((r) => r.url === "/api/v1/pets/7"));
  });

  test(`mcp-gen check scores the dev:${target.target} deployment 100/100`, async () => {
    const dev = need(state.dev, "the dev server");
    const report = await checkScore(dev.url);
    assert.equal(report.failed, []);
    assert.is(report.score, 100);
    await dev.stop();
    state.dev = undefined;
  });

  test(`conformance (2025-11-25, 2026-07-28): dev:${target.target} fails no check Node passes on the same project`, async () => {
    const runtimes = need(state.runtimes, "the runtimes");
    const project = await conformanceProject(work, target);
    const setup = await exec(process.execPath, [join(repoRoot, "scripts/setup-conformance.js")], { timeout: 300_000 });
    const node22 = /node: (.+)/.exec(setup.stdout)![1]!.trim();
    const suite = /conformance: (.+)/.exec(setup.stdout)![1]!.trim();
    const runs = new Map<string, ConformanceRun>();
    const node = await startHttpServer(project, ["--base-url", "http://127.0.0.1:9"]);
    try {
      for (const requirements of REQUIREMENTS)
        runs.set(
          `node ${requirements}`,
          await conformance(node22, suite, node.url.toString(), requirements, join(work, `node-${requirements}`)),
        );
    } finally {
      await node.stop();
    }
    const dev = await startDev(project, target.target, { PATH: runtimes.path, API_BASE_URL: "http://127.0.0.1:9" });
    try {
      for (const requirements of REQUIREMENTS)
        runs.set(
          `target ${requirements}`,
          await conformance(node22, suite, dev.url, requirements, join(work, `target-${requirements}`)),
        );
    } finally {
      await dev.stop();
    }
    for (const requirements of REQUIREMENTS)
      compareWithNode(target, requirements, runs.get(`node ${requirements}`)!, runs.get(`target ${requirements}`)!);
  });
}

const REQUIREMENTS = ["2025-11-25", "2026-07-28"];

/**
 * Fails on a check the target fails and Node passes unless it is a listed difference, and on a
 * listed difference that ran and passes (the list stays honest).
 */
function compareWithNode(
  target: TargetCase,
  requirements: string,
  onNode: ConformanceRun,
  onTarget: ConformanceRun,
): void {
  console.log(
    `conformance ${requirements}: node ${onNode.passed} passed, ${onNode.failed} failed; ` +
      `${target.target} ${onTarget.passed} passed, ${onTarget.failed} failed`,
  );
  const onlyTarget = failedChecks(onTarget).filter((id) => !failedChecks(onNode).includes(id));
  const listed = onlyTarget.filter(
    (id) => target.differences[id] !== undefined || target.mayDiffer?.[id] !== undefined,
  );
  assert.equal(
    onlyTarget,
    listed,
    `${requirements}: checks failing on ${target.target} only, not listed as differences`,
  );
  const ran = [...onTarget.checks.keys()];
  for (const id of Object.keys(target.differences).filter((id) => ran.includes(id)))
    assert.ok(
      onlyTarget.includes(id),
      `${id} is listed as a difference but passes on ${target.target} (${requirements})`,
    );
}

/** The conformance spec with its reference fixtures, generated and built for `target`. */
async function conformanceProject(work: string, target: TargetCase): Promise<string> {
  const dir = join(work, "conformance");
  await buildTarget(join(repoRoot, "specs/conformance/openapi.yaml"), dir, target.target, {
    extra: target.conformanceWith ? ["--with", target.conformanceWith.join(",")] : [],
    custom: join(repoRoot, "specs/conformance/custom/index.ts"),
  });
  return dir;
}
