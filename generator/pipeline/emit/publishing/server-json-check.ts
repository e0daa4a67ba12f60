/**
 * `server.json` checked against the MCP Registry's official schema (2025-12-11, vendored unchanged as
 * `profiles/registry/server.schema.json`; see the README there for its source) with ajv, plus the rules
 * that span two files, which the schema cannot express: `name` equals package.json's `mcpName` (the
 * registry verifies npm ownership through it) and `version` equals package.json's `version`.
 * Generation runs it on every project it emits, so a server.json the registry would refuse is a
 * generator error, never a file on disk.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import type addFormatsModule from "ajv-formats";
import { packageRoot, precompiledOr } from "../../../shared/package-root.js";

const require = createRequire(import.meta.url);

/** Where the vendored schema lives in the mcp-gen package. */
export const SERVER_SCHEMA_FILE = join("profiles", "registry", "server.schema.json");

/**
 * Where `npm run build` writes the schema's validator as ajv standalone code (scripts/build-validators.js),
 * under `dist/`: loading it takes milliseconds, compiling the schema ~0.15 s of CPU on every generation.
 */
export const PRECOMPILED_SERVER_VALIDATOR = "generator/pipeline/emit/publishing/server-json-validator.cjs";

let compiled: ValidateFunction | undefined;

/** The schema's validator, loaded once: the precompiled module when the build wrote it, else compiled here. */
export function serverJsonValidator(): ValidateFunction {
  return (compiled ??= precompiledOr(PRECOMPILED_SERVER_VALIDATOR, () => compileServerJsonValidator().validate));
}

/**
 * Compiles the schema's validator with ajv (draft-07, formats such as `uri` checked); `source` keeps
 * the generated code, for ajv's standalone output (scripts/build-validators.js).
 */
export function compileServerJsonValidator(source = false): { ajv: object; validate: ValidateFunction } {
  // ajv and ajv-formats are CommonJS; `Ajv` is the draft-07 class, the schema's own dialect.
  const { Ajv } = require("ajv") as typeof import("ajv");
  const addFormats = (require("ajv-formats") as typeof addFormatsModule).default;
  // strict: false because the schema carries `example`, an OpenAPI annotation ajv does not know;
  // optimize off: the validator runs once per generation, so compiling is the cost.
  const ajv = new Ajv({ allErrors: true, strict: false, code: { optimize: false, source } });
  addFormats(ajv);
  const schema = JSON.parse(readFileSync(join(packageRoot(), SERVER_SCHEMA_FILE), "utf8")) as object;
  return { ajv, validate: ajv.compile(schema) };
}

function describeError(error: ErrorObject): string {
  return `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}${error.keyword === "additionalProperties" ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})` : ""}`;
}

/** What package.json says that server.json must agree with. */
export interface PackageFacts {
  mcpName?: unknown;
  version?: unknown;
}

/**
 * Every reason the registry would refuse `server` (empty when it would take it): the schema's errors,
 * then the cross-file rules when `pkg` is given.
 */
export function serverJsonViolations(server: unknown, pkg?: PackageFacts): string[] {
  const validate = serverJsonValidator();
  const problems = validate(server) ? [] : [...new Set((validate.errors ?? []).map(describeError))];
  if (pkg && typeof server === "object" && server !== null) {
    const { name, version } = server as { name?: unknown; version?: unknown };
    if (name !== pkg.mcpName)
      problems.push(`name ${JSON.stringify(name)} differs from package.json's mcpName ${JSON.stringify(pkg.mcpName)}`);
    if (version !== pkg.version)
      problems.push(
        `version ${JSON.stringify(version)} differs from package.json's version ${JSON.stringify(pkg.version)}`,
      );
  }
  return problems;
}

/** Throws naming every problem when the emitted server.json would be refused (a generator bug). */
export function assertServerJson(serverText: string, packageText: string): void {
  const problems = serverJsonViolations(JSON.parse(serverText), JSON.parse(packageText) as PackageFacts);
  if (problems.length > 0)
    throw new Error(`mcp-gen wrote a server.json the MCP Registry would refuse: ${problems.join("; ")}`);
}
