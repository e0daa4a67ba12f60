#!/usr/bin/env node
// `prepare` (npm install in a checkout, and the first `npx mcp-gen`, which installs the checkout as a
// package) builds dist/ for about 45 s. npm hides a lifecycle script's output, so the first npx run
// looked hung: this line goes straight to the terminal (/dev/tty) when there is one, and nowhere
// otherwise (CI logs, pipes). The build itself follows in the same prepare script.
import { closeSync, openSync, writeSync } from "node:fs";

try {
  const tty = openSync("/dev/tty", "w");
  writeSync(tty, "mcp-gen: building (tsc, about 45 s; only on install and on the first npx run)…\n");
  closeSync(tty);
} catch {
  // No terminal (CI, Windows, a detached process): nothing to tell.
}
