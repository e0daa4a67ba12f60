#!/usr/bin/env node
// Part of `npm run build` (after tsc): joins the CLI, the generator and the packages they import
// into one CommonJS file, dist/cli/mcp-gen.cjs, which bin/mcp-gen.js loads with a V8 code cache
// (generator/shared/code-cache.ts). Node loads ~430 files for the unbundled CLI (0.45 s before any work,
// on this 2-core machine) and one for the bundle (~0.2 s; ~0.07 s of CPU less again with the code
// cache, which Node 20 offers for CommonJS scripts only, hence this format).
// Left outside: prettier (it loads its plugins by path), ts-morph and swagger-parser (required on
// first use only). Worker threads and precompiled validators are found under dist/ by path
// (generator/shared/package-root.ts `distUrl`), so they load as before.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: ["dist/cli/index.js"],
  outfile: "dist/cli/mcp-gen.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["prettier", "ts-morph", "@apidevtools/swagger-parser"],
  // `import()` of the packages left outside becomes `require` (prettier's CommonJS entry gives the
  // same API): a script compiled with a code cache has no `import()` of its own without an
  // experimental Node option.
  supported: { "dynamic-import": false },
  // The modules find the package's files from their own URL, which in the bundle is the bundle's.
  define: { "import.meta.url": "__mcpGenBundleUrl" },
  banner: { js: 'const __mcpGenBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  sourcemap: "linked",
  logLevel: "warning",
});
