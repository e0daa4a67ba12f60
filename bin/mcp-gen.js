#!/usr/bin/env node
// Entry of the `mcp-gen` command; the CLI itself is compiled from cli/ into dist/.
import { run } from "../dist/cli/index.js";

process.exitCode = await run(process.argv.slice(2));
