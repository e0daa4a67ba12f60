/**
 * Issue 10: seeded, bounded fuzzing of a generated server (generated/petstore) over stdio and
 * Streamable HTTP with random and grammar-based JSON-RPC of both eras. 10,000 messages per run,
 * half over each transport (`FUZZ_MESSAGES` sets the total; `npm run fuzz` sends 100,000);
 * `FUZZ_SEED` picks another run. Never a crash, never a non-JSON line on stdout, never a 5xx, and
 * a ping answered at the end. Then the code surface (issue 30): `search_operations`,
 * `describe_operation` and `execute_code` calls with hostile inputs (queries of up to 20,000 words,
 * throws and results of megabytes, hundreds of api calls, calls left running, spinning scripts,
 * oversized code), 200 per run (`FUZZ_CODE`; `npm run fuzz` sends 1,000): the same rules, and every
 * answer within the size bounds of code mode and in time.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Upstream } from "../support/runtime-fixture.js";
import { fuzzCount, fuzzSeed } from "../fuzz/prng.js";
import { codeSurfaceLine } from "../fuzz/jsonrpc-messages.js";
import {
  fuzzHttp,
  fuzzStdio,
  fuzzUpstream,
  prepareServer,
  type FuzzReport,
  type PreparedServer,
} from "../fuzz/server-harness.js";

/** Messages per transport. */
const MESSAGES = Math.ceil(fuzzCount("FUZZ_MESSAGES", 10_000) / 2);
/** Code-surface messages per transport. */
const CODE_MESSAGES = Math.ceil(fuzzCount("FUZZ_CODE", 200) / 2);
/**
 * The code surface's flags, and the largest answer its limits allow: a result and its logs of
 * 100,000 bytes each, written as text and as structured content, JSON-escaped (2 MB is far above
 * that; an unbounded thrown value was 50 MB).
 */
const CODE_SURFACE = {
  args: ["--surface", "code", "--confirm-destructive", "--code-timeout", "1000"],
  line: codeSurfaceLine,
  maxAnswerChars: 2_000_000,
  answerMs: 30_000,
  allAnswersMs: 300_000,
};
const SEED = fuzzSeed(20261124);
let server: PreparedServer;
let upstream: Upstream;

test.before(async () => {
  server = await prepareServer("petstore", ["code", "confirm"]);
  upstream = await fuzzUpstream();
});
test.after(async () => {
  await upstream.close();
  server.remove();
});

function verdict(name: string, report: FuzzReport, upstreamBefore: number): void {
  const calls = upstream.received.length - upstreamBefore;
  console.log(
    `  fuzz ${name}: ${report.sent} messages (seed ${SEED}), ${report.answers} answers, ${calls} upstream calls, ${report.ms} ms, ping ${report.pingAnswered ? "answered" : "NOT answered"}`,
  );
  assert.equal(report.failures, [], report.failures.join("\n"));
  assert.ok(calls > 0, "some grammar-based tool calls are valid enough to reach the upstream");
  assert.ok(report.pingAnswered, "the server answers ping after the fuzz run");
  assert.ok(report.answers > 0);
}

test(`stdio: ${MESSAGES} fuzz messages, no crash, only JSON on stdout, ping answered`, async () => {
  const before = upstream.received.length;
  verdict("stdio", await fuzzStdio(server, upstream.baseUrl, MESSAGES, SEED), before);
});

test(`HTTP: ${MESSAGES} fuzz requests, no crash or 5xx, JSON answers, ping answered`, async () => {
  const before = upstream.received.length;
  verdict("http", await fuzzHttp(server, upstream.baseUrl, MESSAGES, SEED + 1), before);
});

test(`code surface over stdio: ${CODE_MESSAGES} hostile search and code-mode calls, no crash, bounded answers, ping answered`, async () => {
  const before = upstream.received.length;
  verdict("code stdio", await fuzzStdio(server, upstream.baseUrl, CODE_MESSAGES, SEED + 2, CODE_SURFACE), before);
});

test(`code surface over HTTP: ${CODE_MESSAGES} hostile search and code-mode calls, no crash or 5xx, bounded answers in time`, async () => {
  const before = upstream.received.length;
  verdict("code http", await fuzzHttp(server, upstream.baseUrl, CODE_MESSAGES, SEED + 3, CODE_SURFACE), before);
});

test("the harness catches a broken server: a non-JSON stdout line, an exit, no ping answer", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-fuzz-broken-"));
  mkdirSync(join(dir, "dist"));
  // Answers JSON, but prints one plain line and exits after 50 lines.
  writeFileSync(
    join(dir, "dist/index.js"),
    `let n = 0; process.stdin.on("data", (chunk) => { for (const _ of String(chunk).split("\\n").slice(1)) { n++; process.stdout.write(n === 20 ? "oops\\n" : "{}\\n"); if (n === 50) process.exit(7); } });`,
  );
  try {
    const report = await fuzzStdio({ dir, target: server.target, remove() {} }, upstream.baseUrl, 200, SEED);
    assert.ok(
      report.failures.some((f) => f.includes('non-JSON line on stdout: "oops"')),
      report.failures.join("\n"),
    );
    assert.ok(
      report.failures.some((f) => f.includes("the server exited (code 7")),
      report.failures.join("\n"),
    );
    assert.not.ok(report.pingAnswered);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
