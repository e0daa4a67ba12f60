/**
 * JSON Schema 2020-12 validation without code generation, for platforms that refuse it (Cloudflare
 * Workers: no `new Function`, which ajv compiles with): @cfworker/json-schema interprets the schema.
 * Its problems are reported as ajv's are (instance path and message), so tool results read the same.
 */
import { Validator, type OutputUnit } from "@cfworker/json-schema";
import type { CompiledSchema, CompileSchema } from "../../api/validation.js";

/** Problems that only say a child failed: the child's own problem is reported too. */
const SUMMARIES = new Set([
  "properties",
  "items",
  "prefixItems",
  "allOf",
  "anyOf",
  "$ref",
  "false",
  "dependentSchemas",
]);

/** Compiles a schema for @cfworker/json-schema (every problem collected, as ajv's `allErrors`). */
export const compilePortable: CompileSchema = (schema) => {
  const validator = new Validator(schema as never, "2020-12", false);
  const compiled: CompiledSchema = (value: unknown) => {
    const result = validator.validate(value);
    compiled.errors = result.valid
      ? null
      : result.errors.filter((unit) => !SUMMARIES.has(unit.keyword)).map(asAjvError);
    return result.valid;
  };
  return compiled;
};

/** A problem as ajv's ErrorObject: a JSON Pointer instance path and the message. */
function asAjvError(unit: OutputUnit): NonNullable<CompiledSchema["errors"]>[number] {
  return {
    instancePath: unit.instanceLocation.replace(/^#/, ""),
    schemaPath: unit.keywordLocation,
    keyword: "portable",
    params: {},
    message: unit.error,
  };
}
