/**
 * Regeneration and npm install: a run that changes the generated package.json's dependencies (a
 * feature added with `--with`) names the changes and the command to run; `--install` runs npm
 * install itself (here a stand-in npm through npm_execpath, which records how it was called).
 *
 * Tier: end-to-end (npm test only, not npm run test:unit). Needs nothing beyond the built CLI (five generations, ~15 s).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { repoRoot as root } from "../support/e2e.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-deps-"));

/** Runs the CLI with a stand-in npm (npm_execpath) that records its arguments and folder. */
function mcpGen(...args: string[]) {
  const fakeNpm = join(work, "fake-npm.js");
  writeFileSync(
    fakeNpm,
    `require("node:fs").writeFileSync(${JSON.stringify(join(work, "npm-ran"))}, JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd() }));`,
  );
  return spawnSync(process.execPath, [join(root, "bin/mcp-gen.js"), ...args], {
    encoding: "utf8",
    env: { ...process.env, npm_execpath: fakeNpm },
  });
}

test("regenerating with --with code says to run npm install and what changed; --install runs it", () => {
  const out = join(work, "server");
  const spec = join(root, "specs/petstore.yaml");
  assert.is(mcpGen(spec, "-o", out, "-q").status, 0);
  const told = mcpGen(spec, "-o", out, "--with", "code");
  assert.is(told.status, 0, told.stderr);
  assert.match(
    told.stdout,
    /Dependencies changed \(added @jitl\/quickjs-wasmfile-release-sync@[\d.]+, added quickjs-emscripten-core@[\d.]+\): run "cd .*server && npm install"/,
  );
  assert.not.ok(existsSync(join(work, "npm-ran")), "not run unless asked (nor after a first generation with -q)");
  const unchanged = mcpGen(spec, "-o", out, "--install");
  assert.not.match(unchanged.stdout, /Dependencies changed/);
  assert.not.ok(existsSync(join(work, "npm-ran")), "nothing to install: the dependencies did not change");
  const fresh = join(work, "fresh");
  assert.is(mcpGen(spec, "-o", fresh, "-q").status, 0);
  const installed = mcpGen(spec, "-o", fresh, "--with", "code", "--install");
  assert.is(installed.status, 0, installed.stderr);
  assert.not.match(installed.stdout, /Dependencies changed/);
  const ran = JSON.parse(readFileSync(join(work, "npm-ran"), "utf8")) as { args: string[]; cwd: string };
  assert.is(ran.args[0], "install");
  assert.is(ran.cwd, fresh);
});

test.after(() => rmSync(work, { recursive: true, force: true }));
test.run();
