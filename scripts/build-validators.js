#!/usr/bin/env node
// Part of `npm run build` (after tsc): writes each OpenAPI version's schema validator as ajv
// standalone code next to dist/generator/pipeline/load/openapi-schema.js, so a generation loads it in
// milliseconds instead of compiling the schema (about 0.3 s of CPU for 3.0) on every run.
// It writes the MCP Registry's server.json validator the same way (checked on every generation).
// The code is build output (dist/ is not committed); without it the validators compile at run time.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileOpenApiValidator, PRECOMPILED } from "../dist/generator/pipeline/load/openapi-schema.js";
import {
  compileServerJsonValidator,
  PRECOMPILED_SERVER_VALIDATOR,
} from "../dist/generator/pipeline/emit/publishing/server-json-check.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const standaloneCode = createRequire(import.meta.url)("ajv/dist/standalone").default;
const folder = join(root, "dist");
/** Writes one validator's standalone code under dist/. */
function writeValidator(file, what, { ajv, validate }) {
  const target = join(folder, file);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(
    target,
    `// ${what} validator: ajv standalone code written by scripts/build-validators.js.\n${standaloneCode(ajv, validate)}\n`,
  );
}
for (const [version, file] of Object.entries(PRECOMPILED))
  writeValidator(file, `OpenAPI ${version} schema`, compileOpenApiValidator(version, true));
writeValidator(PRECOMPILED_SERVER_VALIDATOR, "MCP Registry server.json", compileServerJsonValidator(true));
