#!/usr/bin/env node
// `npm run fleet`: the example fleet from scratch, as a user would run it, with a real `npm install`
// (the e2e test links the repository's node_modules instead). Copies examples/fleet's workspace file
// and specs into a fresh folder (default .tmp/fleet; FLEET_DIR=<folder> to choose), runs
// `mcp-gen workspace build --test --report` there and prints how long it took. The built mcp-gen
// (dist/) is used: `npm run fleet` builds it first.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dir = resolve(process.env.FLEET_DIR ?? join(root, ".tmp", "fleet"));
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
cpSync(join(root, "examples", "fleet", "mcp-gen.workspace.yaml"), join(dir, "mcp-gen.workspace.yaml"));
cpSync(join(root, "examples", "fleet", "specs"), join(dir, "specs"), { recursive: true });

// The outer `npm run` exports its own package's variables; the fleet's npm commands must not see them.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^npm_(package_|lifecycle_|command$|config_local_prefix$)/i.test(key) && key !== "INIT_CWD",
  ),
);
const started = Date.now();
const child = spawn(process.execPath, [join(root, "bin", "mcp-gen.js"), "workspace", "build", "--test", "--report"], {
  cwd: dir,
  env,
  stdio: "inherit",
});
const code = await new Promise((done) => child.on("close", (status) => done(status ?? 1)));
console.log(
  `fleet: ${dir}: workspace build --test --report exited ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s (report: ${join(dir, "report.html")})`,
);
process.exitCode = code;
