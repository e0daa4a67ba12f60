#!/usr/bin/env node
// Entry of the `mcp-gen` command. The CLI is compiled from cli/ into dist/ and bundled into
// dist/cli/mcp-gen.mjs by `npm run build` (it starts in half the time). Under coverage
// (NODE_V8_COVERAGE, set by c8) and in a checkout built with tsc alone, the modules run unbundled.
import { existsSync } from "node:fs";

const bundle = new URL("../dist/cli/mcp-gen.mjs", import.meta.url);
const entry =
  existsSync(bundle) && !process.env.NODE_V8_COVERAGE
    ? bundle.href
    : new URL("../dist/cli/index.js", import.meta.url).href;
const { run } = await import(entry);
process.exitCode = await run(process.argv.slice(2));
