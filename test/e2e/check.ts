/**
 * `mcp-gen check` on a real generated server (the petstore golden, compiled): 100/100 over stdio
 * and HTTP, `--json` as documented; and negative controls: the same server behind a stdio wrapper
 * that breaks one rule loses the points of exactly that check (and exit 8).
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs built generated servers started over stdio and HTTP.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compileProject, repoRoot } from "../support/e2e.js";
import { materializeExample } from "../support/example-custom.js";

const exec = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-check-"));
const server = join(work, "petstore");
const wrapper = join(work, "broken-server.mjs");
const cli = join(repoRoot, "bin", "mcp-gen.js");

/**
 * A stdio wrapper that runs the real server and breaks one rule on the way:
 * - `unknown-tool-as-result`: answers an unknown tool with an isError result instead of -32602 (SDK 1.x McpServer does);
 * - `stray-stdout`: prints a banner line on stdout;
 * - `ignore-cancel`: drops notifications/cancelled, so the cancelled call goes on.
 */
const WRAPPER = `
import { spawn } from "node:child_process";
const [mode, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
if (mode === "stray-stdout") process.stdout.write("server starting...\\n");
let input = "";
process.stdin.on("data", (chunk) => {
  input += chunk;
  for (let end = input.indexOf("\\n"); end >= 0; end = input.indexOf("\\n")) {
    const line = input.slice(0, end);
    input = input.slice(end + 1);
    if (mode === "ignore-cancel" && line.includes('"notifications/cancelled"')) continue;
    child.stdin.write(line + "\\n");
  }
});
process.stdin.on("end", () => child.stdin.end());
let output = "";
child.stdout.on("data", (chunk) => {
  output += chunk;
  for (let end = output.indexOf("\\n"); end >= 0; end = output.indexOf("\\n")) {
    let line = output.slice(0, end);
    output = output.slice(end + 1);
    const message = JSON.parse(line);
    if (mode === "unknown-tool-as-result" && message.error && /Unknown tool/.test(message.error.message)) {
      line = JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: message.error.message }], isError: true } });
    }
    process.stdout.write(line + "\\n");
  }
});
child.on("exit", (code) => process.exit(code ?? 0));
`;

/** Runs `mcp-gen check … --json`; its exit code and report. */
async function check(args: string[]): Promise<{
  code: number;
  report: {
    score: number;
    checks: Array<{ id: string; ok: boolean; message: string; skipped?: boolean }>;
    transport: string;
  };
}> {
  let stdout = "";
  let code = 0;
  try {
    ({ stdout } = await exec(process.execPath, [cli, "check", "--json", ...args], {
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    }));
  } catch (error) {
    const e = error as { code?: number; stdout?: string };
    stdout = e.stdout ?? "";
    code = typeof e.code === "number" ? e.code : -1;
  }
  return { code, report: JSON.parse(stdout) };
}

const failedIds = (report: { checks: Array<{ id: string; ok: boolean }> }) =>
  report.checks.filter((c) => !c.ok).map((c) => c.id);

test.before(async () => {
  await materializeExample(repoRoot, "petstore", server);
  await compileProject(server);
  writeFileSync(wrapper, WRAPPER);
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test("a generated server scores 100/100 over stdio; --json lists every check with id, ok and message", async () => {
  const { code, report } = await check([server]);
  assert.is(code, 0, JSON.stringify(report, null, 2));
  assert.is(report.score, 100);
  assert.is(report.transport, "stdio");
  assert.equal(
    report.checks.map((c) => c.id),
    [
      "lifecycle-discover",
      "modern-unsupported-version",
      "modern-requests",
      "lifecycle-initialize",
      "ping",
      "tools-list-pagination",
      "tools-names",
      "tools-descriptions",
      "tools-schemas-compile",
      "tools-schemas-object-root",
      "token-footprint",
      "tools-call-unknown",
      "tools-call-invalid-arguments",
      "logging-level",
      "resources",
      "cancellation",
      "stdio-clean",
    ],
  );
  for (const c of report.checks) {
    assert.is(c.ok, true, `${c.id}: ${c.message}`);
    assert.not.ok(c.skipped, `${c.id} applies to the petstore server: ${c.message}`);
    assert.type(c.message, "string");
  }
  assert.match(
    report.checks.find((c) => c.id === "tools-call-invalid-arguments")!.message,
    /before any upstream request/,
  );
  assert.match(report.checks.find((c) => c.id === "cancellation")!.message, /aborted its upstream request/);
});

test("over Streamable HTTP too, with the HTTP rules (Origin, protocol version header, SEP-2243 headers)", async () => {
  const { code, report } = await check([server, "--http"]);
  assert.is(code, 0, JSON.stringify(report, null, 2));
  assert.is(report.score, 100);
  assert.is(report.transport, "http");
  for (const id of ["http-origin", "http-protocol-version", "http-headers", "cancellation"])
    assert.ok(
      report.checks.some((c) => c.id === id && c.ok && !c.skipped),
      id,
    );
  assert.not.ok(
    report.checks.some((c) => c.id === "stdio-clean"),
    "no stdio check over HTTP",
  );
});

test("negative control: an unknown tool answered as an isError result loses exactly tools-call-unknown", async () => {
  const { code, report } = await check([
    "--",
    process.execPath,
    wrapper,
    "unknown-tool-as-result",
    process.execPath,
    join(server, "dist/index.js"),
  ]);
  assert.is(code, 8);
  assert.equal(failedIds(report), ["tools-call-unknown"]);
  assert.is(report.score, 95);
  assert.match(report.checks.find((c) => c.id === "tools-call-unknown")!.message, /not a JSON-RPC error -32602/);
});

test("negative control: a banner on stdout loses exactly stdio-clean", async () => {
  const { code, report } = await check([
    "--",
    process.execPath,
    wrapper,
    "stray-stdout",
    process.execPath,
    join(server, "dist/index.js"),
  ]);
  assert.is(code, 8);
  assert.equal(failedIds(report), ["stdio-clean"]);
  assert.match(report.checks.find((c) => c.id === "stdio-clean")!.message, /server starting/);
});

test("negative control: a server that ignores notifications/cancelled loses exactly cancellation", async () => {
  const { code, report } = await check([
    "--",
    process.execPath,
    wrapper,
    "ignore-cancel",
    process.execPath,
    join(server, "dist/index.js"),
  ]);
  assert.is(code, 8);
  assert.equal(failedIds(report), ["cancellation"]);
  assert.match(report.checks.find((c) => c.id === "cancellation")!.message, /went on for 5 s|answered anyway/);
});

test("a folder that is not built is not checked (exit 8, says to build it); no target is a usage error (exit 2)", async () => {
  const unbuilt = join(work, "unbuilt");
  await materializeExample(repoRoot, "petstore", unbuilt);
  const { code, report } = await check([unbuilt]);
  assert.is(code, 8);
  assert.match((report as unknown as { error: string }).error, /no dist\/index\.js: build the server first/);
  const usage = await exec(process.execPath, [cli, "check"]).then(
    () => 0,
    (error: { code?: number }) => error.code,
  );
  assert.is(usage, 2);
});

test.run();
