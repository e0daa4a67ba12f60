#!/usr/bin/env node
// Makes sure Debian's Chromium is at /usr/bin/chromium for the report's browser test: installs the
// `chromium` package with apt-get when it is missing (as root, as in CI; `apt-get update` first when
// the package lists are stale). Playwright never downloads a browser here: the test drives this one
// through playwright-core. Prints the path; exits 1 when Chromium cannot be had.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const chromium = "/usr/bin/chromium";

function apt(args) {
  execFileSync("apt-get", args, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    timeout: 900_000,
  });
}

if (!existsSync(chromium)) {
  if (process.platform !== "linux" || typeof process.getuid !== "function" || process.getuid() !== 0) {
    console.error(
      `setup-chromium: ${chromium} is missing; install Debian's chromium package (apt-get install chromium) as root`,
    );
    process.exit(1);
  }
  try {
    apt(["install", "-y", "--no-install-recommends", "chromium"]);
  } catch {
    apt(["update"]);
    apt(["install", "-y", "--no-install-recommends", "chromium"]);
  }
  if (!existsSync(chromium)) {
    console.error(`setup-chromium: apt-get installed chromium but ${chromium} is still missing`);
    process.exit(1);
  }
}
if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`chromium: ${chromium}`);
