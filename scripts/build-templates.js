#!/usr/bin/env node
// Part of `npm run build` (after tsc): writes every templates/*.hbs precompiled by Handlebars, with
// its source, next to dist/generator/pipeline/emit/publishing/templates.js, so a generation loads the
// templates' code instead of compiling them (about 0.1 s of CPU on every run). A template whose text
// differs from the source recorded here is compiled at run time. Build output: dist/ is not committed.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  PRECOMPILED_TEMPLATES,
  precompiledTemplatesModule,
} from "../dist/generator/pipeline/emit/publishing/templates.js";

const target = join(fileURLToPath(new URL("..", import.meta.url)), "dist", PRECOMPILED_TEMPLATES);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, precompiledTemplatesModule());
