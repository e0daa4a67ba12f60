/**
 * JSON Schema 2020-12 validation with ajv (tool arguments, `structuredContent`), compiled once per
 * schema object. ajv (CommonJS) is required on first use: a server only listed never loads it. A
 * platform where ajv cannot compile (code generation refused, as on Cloudflare Workers) gives its
 * own {@link CompileSchema} (feature `fetch`).
 */
import { createRequire } from "node:module";
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type addFormatsModule from "ajv-formats";
import type { Logger } from "../protocol/logger.js";

/** A configured ajv instance, loaded on demand. */
function createAjv(): Ajv2020 {
  const require = createRequire(import.meta.url);
  const { Ajv2020: AjvClass } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  // ajv-formats is CommonJS: `module.exports.default` is the plugin.
  const addFormats = (require("ajv-formats") as typeof addFormatsModule).default;
  // validateSchema: false: a stray `$schema` of another draft must not abort compilation; strict:
  // false tolerates OpenAPI leftovers (`example`, `x-*`); ownProperties: a property named
  // `constructor` is absent unless the value has it itself (not Object.prototype's).
  const ajv = new AjvClass({
    allErrors: true,
    strict: false,
    validateSchema: false,
    logger: false,
    ownProperties: true,
  });
  addFormats(ajv);
  return ajv;
}

/** Outcome of a validation: ok, or human-readable problems. */
export type ValidationOutcome = { ok: true } | { ok: false; errors: string[] };

/** Upper bound on reported problems so a huge invalid payload cannot flood the result. */
const MAX_REPORTED_ERRORS = 20;

/** A validator of one schema: true, or the problems (as ajv reports them, see {@link formatErrors}). */
export type CompiledSchema = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null | undefined };
/** Compiles a schema without ajv (throws when it cannot). */
export type CompileSchema = (schema: object) => CompiledSchema;

/** Compiles and caches validators for schema objects. */
export class SchemaValidator {
  private ajvInstance: Ajv2020 | undefined;
  // null marks a schema ajv could not compile: validation is then skipped (logged once).
  private readonly cache = new WeakMap<object, CompiledSchema | null>();

  constructor(
    private readonly logger?: Logger,
    private readonly compileSchema?: CompileSchema,
  ) {}

  private get ajv(): Ajv2020 {
    return (this.ajvInstance ??= createAjv());
  }

  /** Validates `value` against `schema`; `label` names the schema in logs. */
  validate(schema: object, value: unknown, label: string): ValidationOutcome {
    const validator = this.compile(schema, label);
    if (!validator) return { ok: true };
    if (validator(value)) return { ok: true };
    return { ok: false, errors: formatErrors(validator.errors ?? []) };
  }

  private compile(schema: object, label: string): CompiledSchema | null {
    const cached = this.cache.get(schema);
    if (cached !== undefined) return cached;
    let compiled: CompiledSchema | null;
    try {
      compiled = this.compileSchema ? this.compileSchema(schema) : (this.ajv.compile(schema) as ValidateFunction);
    } catch (error) {
      this.logger?.warn(`cannot compile JSON Schema for ${label}; skipping validation`, {
        reason: error instanceof Error ? error.message : String(error),
      });
      compiled = null;
    }
    this.cache.set(schema, compiled);
    return compiled;
  }
}

/** Turns ajv errors into actionable one-line messages, each naming its instance path. */
export function formatErrors(errors: readonly ErrorObject[]): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const message = formatError(error);
    if (!messages.includes(message)) messages.push(message);
  }
  if (messages.length > MAX_REPORTED_ERRORS) {
    const rest = messages.length - MAX_REPORTED_ERRORS;
    return [...messages.slice(0, MAX_REPORTED_ERRORS), `... and ${rest} more`];
  }
  return messages;
}

function formatError(error: ErrorObject): string {
  const at = error.instancePath === "" ? "" : `${error.instancePath}: `;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${at}missing required property '${String(params.missingProperty)}'`;
    case "additionalProperties":
      return `${at}unexpected property '${String(params.additionalProperty)}'`;
    case "unevaluatedProperties":
      return `${at}unexpected property '${String(params.unevaluatedProperty)}'`;
    case "enum":
      return `${error.instancePath || "(root)"} must be one of: ${JSON.stringify(params.allowedValues)}`;
    default:
      return `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}`;
  }
}
