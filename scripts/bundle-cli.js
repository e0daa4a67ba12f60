#!/usr/bin/env node
// Part of `npm run build` (after tsc): joins the CLI, the generator and the packages they import
// into one module, dist/cli/mcp-gen.mjs, which bin/mcp-gen.js runs. Node loads ~430 files for the
// unbundled CLI (0.45 s before any work, on this 2-core machine) and one for the bundle (~0.2 s).
// Left outside: prettier (it loads its plugins by path), ts-morph and swagger-parser (required on
// first use only) and json-schema-faker (one prebuilt file already). Worker threads and precompiled validators
// are found under dist/ by path (generator/package-root.ts `distUrl`), so they load as before.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: ["dist/cli/index.js"],
  outfile: "dist/cli/mcp-gen.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["prettier", "ts-morph", "@apidevtools/swagger-parser", "json-schema-faker"],
  // CommonJS packages inside an ES module bundle call `require` for Node's built-ins.
  banner: {
    js: 'import { createRequire as __mcpGenRequire } from "node:module";\nconst require = __mcpGenRequire(import.meta.url);',
  },
  sourcemap: "linked",
  logLevel: "warning",
});
