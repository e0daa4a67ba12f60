#!/usr/bin/env node
// Installs the Verdaccio registry pinned in tools/verdaccio/package.json (with its lock file) into
// tools/verdaccio/node_modules, for the workspace publish test. Idempotent; only talks to the npm
// registry. Prints the path of Verdaccio's command.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "tools", "verdaccio");
export const verdaccio = join(dir, "node_modules", "verdaccio", "bin", "verdaccio");

if (!existsSync(verdaccio)) {
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  execFileSync(command, [...args, "ci", "--no-audit", "--no-fund", "--prefix", dir], {
    stdio: ["ignore", "inherit", "inherit"],
    cwd: dir,
  });
}
if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`verdaccio: ${verdaccio}`);
