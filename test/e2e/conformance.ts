/**
 * The official MCP conformance suite (pinned in tools/conformance, run on the Node 22 installed
 * there) against a server generated from specs/conformance/openapi.yaml plus the reference
 * fixtures in specs/conformance/custom/index.ts, over Streamable HTTP, for both requirement sets.
 * Any failed check that is not listed (and justified) in test/conformance/expected-failures-<revision>.yaml
 * fails the test, and so does a listed one that passes (the baseline must stay honest).
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compileProject, startHttpServer, type HttpServerHandle } from "./support.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-conformance-"));
const out = join(work, "server");
let server: HttpServerHandle | undefined;
let url = "";
let node22 = "";
let suite = "";

test.before(async () => {
  const setup = await run(process.execPath, [join(root, "scripts/setup-conformance.js")], { timeout: 300_000 });
  node22 = /node: (.+)/.exec(setup.stdout)![1]!.trim();
  suite = /conformance: (.+)/.exec(setup.stdout)![1]!.trim();
  await run(process.execPath, [join(root, "bin/mcp-gen.js"), join(root, "specs/conformance/openapi.yaml"), "-o", out], { timeout: 60_000 });
  copyFileSync(join(root, "specs/conformance/custom/index.ts"), join(out, "src/custom/index.ts"));
  await compileProject(out);
  server = await startHttpServer(out, ["--sessions", "--base-url", "http://127.0.0.1:9"]);
  url = server.url.toString();
});

test.after(async () => {
  await server?.stop();
});

for (const requirements of ["2025-11-25", "2026-07-28"]) {
  test(`conformance --requirements ${requirements}: no unexpected failed check`, async () => {
    const args = [suite, "server", "--url", url, "--requirements", requirements, "--expected-failures", join(root, `test/conformance/expected-failures-${requirements}.yaml`)];
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
    assert.is(code, 0, stdout.split("\n").filter((line) => /✗|unexpected|stale|Error/i.test(line)).join("\n"));
  });
}

test.run();
