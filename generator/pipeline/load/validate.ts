/**
 * Validation of the document: the OpenAPI schema of its version (ajv, openapi-schema.ts) and, for
 * Swagger 2.0, swagger-parser's rules the schema cannot express. It only ever produces warnings,
 * so `generate` runs it in the emit worker's thread (emit-worker.ts) while the main thread builds
 * the IR and the plan: the thread gets the document as the JSON text the pipeline writes anyway,
 * at a time when it has little else to do. (A thread of its own, as before, cost more than it
 * saved on 2 cores: a third isolate competing with the other two; see docs/benchmarks/history.md.)
 */
import type SwaggerParserType from "@apidevtools/swagger-parser";
import type { OpenAPI } from "openapi-types";
import { Codes, type Diagnostic } from "../../shared/diagnostics.js";
import { openApiSchemaViolations, schemaVersion, type SchemaViolation } from "./openapi-schema.js";
import { HELP, schemaFindings } from "./schema-findings.js";

/** At most this many problems are reported one by one. */
const LIMIT = 20;

/**
 * Validation failures of `document` as warnings with pointers. The document is left as it is (ajv
 * only reads it; swagger-parser works on its own copy), so the loaded one is validated in place. Two
 * passes, as swagger-parser's own `validate` does, but the first (the document
 * against the OpenAPI schema, with ajv) reads the document as written, `$ref`s and all, instead of
 * dereferenced: a schema referenced from a thousand places is checked once, not a thousand times
 * (MS Graph beta: 2 s instead of 38 s), and a violation points to where it is written. The second
 * (rules the schema cannot express: path parameters, duplicate operationIds …; swagger-parser has
 * them for Swagger 2.0 only) needs the dereferenced document and runs only when the first found
 * nothing, like swagger-parser's.
 */
export async function validationFindings(document: Record<string, unknown>): Promise<Diagnostic[]> {
  const warn = (message: string, pointer?: string, help: string | undefined = HELP): Diagnostic => ({
    code: Codes.specInvalid,
    severity: "warning",
    message,
    pointer,
    help,
  });
  let violations: SchemaViolation[];
  try {
    violations = openApiSchemaViolations(document);
  } catch (error) {
    // Validation only ever warns: a validator that fails is a warning, not a failed generation.
    return [warn(`The spec could not be validated: ${(error as Error).message?.split("\n")[0] ?? String(error)}`)];
  }
  if (violations.length > 0) return limited(schemaFindings(violations, document, schemaVersion(document)), warn);
  try {
    // swagger-parser has spec rules for Swagger 2.0 only (its validateSpec returns at once for 3.x),
    // so only 2.0 documents pay for the dereferencing they need.
    if (document.swagger !== undefined) {
      const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
      await SwaggerParser.validate(
        document as unknown as OpenAPI.Document,
        {
          resolve: { external: false },
          validate: { schema: false, spec: true },
          // Dereference a copy: the caller's document (generate's loaded one) must stay as it is.
          mutateInputSchema: false,
        } as SwaggerParserType.Options,
      );
    }
    return [];
  } catch (error) {
    return [warn((error as Error).message.split("\n")[0] ?? String(error))];
  }
}

/** The first {@link LIMIT} findings one by one, then a count of the rest. */
function limited(findings: Diagnostic[], warn: (message: string, pointer?: string, help?: string) => Diagnostic) {
  if (findings.length <= LIMIT) return findings;
  const more = findings.length - LIMIT;
  return [
    ...findings.slice(0, LIMIT),
    warn(`…and ${more} more problems with the OpenAPI schema.`, undefined, undefined),
  ];
}
