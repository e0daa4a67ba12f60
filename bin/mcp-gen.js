#!/usr/bin/env node
// Entry of the `mcp-gen` command. The CLI is compiled from cli/ into dist/ and bundled into
// dist/cli/mcp-gen.cjs by `npm run build` (it starts in half the time), which loads with a V8 code
// cache (dist/generator/shared/code-cache.js). Under coverage (NODE_V8_COVERAGE, set by c8) and in a
// checkout built with tsc alone, the modules run unbundled.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";

// A generation is a few seconds of code that mostly runs once: V8's optimizing compiler would spend
// much of it compiling functions too late to pay back, so it waits for 8× V8's default amount of
// execution before optimizing one (measured in docs/benchmarks/history.md, "Earlier (2026-11-26)").
// The flag's name changed with V8 12 (Node 22); other V8 versions keep their defaults (V8 reports an
// unknown flag on stdout).
const v8Major = Number(process.versions.v8.split(".")[0]);
if (v8Major === 11) setFlagsFromString("--interrupt-budget=540672");
else if (v8Major === 12) setFlagsFromString("--invocation-count-for-turbofan=24000");
// After each full collection V8 lets a heap grow to up to 4x what survived before the next; a
// generation makes its garbage in a few large steps, on this thread and the emit worker's at once,
// so both heaps stood at about twice their live data at the peak. 1.5x keeps the process's peak
// near what it holds (MS Graph beta: 2,225-2,447 MiB at the default, 1,647 MiB with this), for a
// few more collections. Read by every isolate, the worker thread's too.
setFlagsFromString("--heap-growing-percent=50");

const bundle = fileURLToPath(new URL("../dist/cli/mcp-gen.cjs", import.meta.url));
let run;
if (existsSync(bundle) && !process.env.NODE_V8_COVERAGE) {
  const { codeCacheDir, loadWithCodeCache } = await import("../dist/generator/shared/code-cache.js");
  // Where ts-morph's cache is when mcp-gen is installed; in a checkout, under its own node_modules.
  const own = fileURLToPath(new URL("../node_modules/.cache/mcp-gen/code-cache", import.meta.url));
  loadWithCodeCache([bundle], codeCacheDir(bundle) ?? own);
  ({ run } = createRequire(import.meta.url)(bundle));
} else {
  ({ run } = await import(new URL("../dist/cli/index.js", import.meta.url).href));
}
process.exitCode = await run(process.argv.slice(2));
