#!/usr/bin/env node
// Installs the platform runtimes pinned in tools/runtimes/package.json (with its lock file) into
// tools/runtimes/node_modules, for the deploy-target e2e tests: Deno and Bun from the packages that
// ship their Linux x64 binaries (no install script needed), and serverless-offline on the Serverless
// Framework v3 for AWS Lambda (v3 runs offline without a login; v4 does not). Idempotent; only talks
// to the npm registry. Prints the paths.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "tools", "runtimes");
const modules = join(dir, "node_modules");
export const deno = join(modules, "@deno", "linux-x64-glibc", "deno");
export const bun = join(modules, "@oven", "bun-linux-x64", "bin", "bun");
export const serverless = join(modules, "serverless", "bin", "serverless.js");
/** Folders to put first on PATH so that a project's `deno`, `bun` and `serverless` commands find these. */
export const binDirs = [dirname(deno), dirname(bun), join(modules, ".bin")];

if (!existsSync(deno) || !existsSync(bun) || !existsSync(serverless)) {
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.error("setup-runtimes: the pinned Deno and Bun binaries only run on linux/x64");
    process.exit(1);
  }
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  execFileSync(command, [...args, "ci", "--no-audit", "--no-fund", "--prefix", dir], {
    stdio: ["ignore", "inherit", "inherit"],
    cwd: dir,
  });
}
if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(`deno: ${deno}\nbun: ${bun}\nserverless: ${serverless}\npath: ${binDirs.join(":")}`);
