#!/usr/bin/env node
// Installs the wrangler pinned in tools/wrangler/package.json (with workerd, the Workers runtime,
// whose binary ships inside its npm package: no install script needed) into
// tools/wrangler/node_modules, for the Worker target's e2e test. wrangler needs Node 22.12 or later:
// the test runs it on the Node 22 that scripts/setup-conformance.js installs. Idempotent; only talks
// to the npm registry. Prints the path of wrangler's bin folder.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "tools", "wrangler");
export const wranglerBin = join(dir, "node_modules", ".bin");

if (!existsSync(join(wranglerBin, "wrangler"))) {
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  execFileSync(command, [...args, "ci", "--no-audit", "--no-fund", "--prefix", dir], {
    stdio: ["ignore", "inherit", "inherit"],
    cwd: dir,
  });
}
if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`wrangler: ${wranglerBin}`);
