#!/usr/bin/env node
// Makes sure redis-server and nginx (Debian packages) are installed for the scale tests
// (test/e2e/state-redis.ts, npm run test:scale). Installs them with apt-get when missing and the
// process runs as root (as here and in CI); otherwise says what to install. Never starts a
// service: the tests start their own instances on loopback ports. Prints the binaries' paths.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CANDIDATES = {
  redis: ["/usr/bin/redis-server", "/usr/local/bin/redis-server"],
  nginx: ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"],
};

/** The first existing path of each binary, or undefined. */
function find() {
  return {
    redis: CANDIDATES.redis.find((path) => existsSync(path)),
    nginx: CANDIDATES.nginx.find((path) => existsSync(path)),
  };
}

/**
 * Paths of redis-server and nginx, installing the Debian packages first when one is missing.
 * Throws with an explanation when they cannot be installed (not root, no apt-get).
 * @returns {{ redis: string, nginx: string }}
 */
export function setupScale() {
  let found = find();
  if (found.redis && found.nginx) return /** @type {{ redis: string, nginx: string }} */ (found);
  const missing = [...(found.redis ? [] : ["redis-server"]), ...(found.nginx ? [] : ["nginx"])];
  if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) {
    throw new Error(
      `setup-scale: ${missing.join(" and ")} missing; install the Debian package(s): apt-get install -y ${missing.join(" ")}`,
    );
  }
  // Another process may hold the dpkg lock for a while (parallel installs): wait for it.
  const apt = (args) =>
    execFileSync("apt-get", ["-o", "DPkg::Lock::Timeout=300", ...args], {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  apt(["update", "-qq"]);
  apt(["install", "-y", "-qq", "--no-install-recommends", ...missing]);
  found = find();
  if (!found.redis || !found.nginx)
    throw new Error(`setup-scale: ${missing.join(" and ")} still missing after apt-get install`);
  return /** @type {{ redis: string, nginx: string }} */ (found);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const paths = setupScale();
  console.log(`redis-server: ${paths.redis}\nnginx: ${paths.nginx}`);
}
