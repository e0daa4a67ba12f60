/**
 * Validation of the document: the OpenAPI schema of its version (ajv, openapi-schema.ts) and, for
 * Swagger 2.0, swagger-parser's rules the schema cannot express. It only ever produces
 * warnings, and on a big spec it is the slowest part of loading, so `generate` runs it beside the
 * later stages: in a worker thread over the same JSON text (validate-worker.ts) when the document is
 * big, in this thread when it is small (a worker costs more than it saves there).
 */
import { Worker } from "node:worker_threads";
import type SwaggerParserType from "@apidevtools/swagger-parser";
import type { OpenAPI } from "openapi-types";
import { Codes, type Diagnostic } from "../diagnostics.js";
import { distUrl } from "../package-root.js";
import { openApiSchemaViolations, type SchemaViolation } from "./openapi-schema.js";

/** Documents at least this long (JSON characters) are validated in a worker thread. */
export const WORKER_MIN_CHARS = 1_000_000;

/** At most this many schema violations are reported one by one. */
const LIMIT = 20;
const HELP = "The spec does not follow the OpenAPI schema here; generation goes on, but check the result.";

/**
 * Validation failures of `document` as warnings with pointers (the document is consumed). Two
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
  const violations = openApiSchemaViolations(document);
  if (violations.length > 0) return schemaFindings(violations, warn);
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
        } as SwaggerParserType.Options,
      );
    }
    return [];
  } catch (error) {
    return [warn((error as Error).message.split("\n")[0] ?? String(error))];
  }
}

/** The first {@link LIMIT} violations one by one, then a count of the rest. */
function schemaFindings(
  violations: SchemaViolation[],
  warn: (message: string, pointer?: string, help?: string) => Diagnostic,
): Diagnostic[] {
  const findings = violations
    .slice(0, LIMIT)
    .map((v) =>
      warn(`Invalid: ${v.message ?? "schema violation"}${formatParams(v.params)}`, `#${v.instancePath ?? ""}`),
    );
  if (violations.length > LIMIT)
    findings.push(warn(`…and ${violations.length - LIMIT} more schema violations.`, undefined, undefined));
  return findings;
}

function formatParams(params: unknown): string {
  if (!params || typeof params !== "object") return "";
  const p = params as Record<string, unknown>;
  if (typeof p.additionalProperty === "string") return ` (unexpected "${p.additionalProperty}")`;
  if (typeof p.missingProperty === "string") return ` (missing "${p.missingProperty}")`;
  if (Array.isArray(p.allowedValues)) return ` (allowed: ${p.allowedValues.join(", ")})`;
  return "";
}

/**
 * A validation worker thread, started before the document is loaded (when the spec file is big) so
 * that loading its modules and compiling the OpenAPI schema overlap with the load stage. It waits
 * for the document's JSON text; `stop` ends it when no document comes.
 */
export class ValidationWorker {
  private readonly worker = new Worker(distUrl("generator/load/validate-worker.js"));
  private readonly result: Promise<Diagnostic[]>;
  private used = false;

  constructor() {
    const failed = (message: string): Diagnostic[] => [
      { code: Codes.specInvalid, severity: "warning", message, pointer: undefined, help: HELP },
    ];
    this.result = new Promise<Diagnostic[]>((resolve) => {
      this.worker.once("message", (value: Diagnostic[]) => resolve(value));
      this.worker.once("error", (error) =>
        resolve(failed(`The spec could not be validated: ${error.message.split("\n")[0]}`)),
      );
      this.worker.once("exit", () =>
        resolve(failed("The spec could not be validated (the validation worker stopped).")),
      );
    });
  }

  /** Validates the document given as JSON text; never rejects (a failed run is itself a warning). */
  validate(json: string): Promise<Diagnostic[]> {
    this.used = true;
    this.worker.postMessage(json);
    return this.result;
  }

  /** Ends the thread if it was never given a document. */
  stop(): void {
    if (!this.used) void this.worker.terminate();
  }
}

/**
 * Starts validating the document given as JSON text, in `worker` (or a new worker thread) when it
 * is big, else in this thread; see the module comment. The promise never rejects.
 */
export function validateInBackground(json: string, worker?: ValidationWorker): Promise<Diagnostic[]> {
  if (json.length < WORKER_MIN_CHARS) {
    worker?.stop();
    return validationFindings(JSON.parse(json) as Record<string, unknown>);
  }
  return (worker ?? new ValidationWorker()).validate(json);
}
