/**
 * Every tool as `tools/list` shows it, checked the way MCP clients check a listing before they use
 * any of it. The official TypeScript SDK 1.x (`@modelcontextprotocol/sdk`) parses each listed tool
 * with its zod `ToolSchema` and then compiles each `outputSchema` with ajv; one tool that fails
 * either makes the client refuse the whole list, every other tool with it. The rules below restate
 * the SDK's, so that generation needs no SDK (it is a dev dependency here, not a dependency of the
 * generator): test/unit/listing-check.ts holds them against the SDK itself, case by case.
 */
import { Ajv, type Options as AjvOptions } from "ajv";
import addFormatsModule from "ajv-formats";
import type { ListedTool } from "../../shared/contract.js";

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => void;

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj => value !== null && typeof value === "object" && !Array.isArray(value);

/** The SDK's `z.string().optional()`: absent, or a string (not null). */
const optionalString = (value: unknown): boolean => value === undefined || typeof value === "string";
/** The SDK's `z.boolean().optional()`. */
const optionalBoolean = (value: unknown): boolean => value === undefined || typeof value === "boolean";

/**
 * Problems of one tool schema (`inputSchema` or `outputSchema`) under the SDK's rule: an object
 * whose `type` is `"object"`, whose `properties` (when present) map names to objects (a boolean
 * subschema there is refused: `AssertObjectSchema`), and whose `required` (when present) lists
 * strings. Other keywords are not looked at (`catchall(z.unknown())`).
 */
function schemaProblems(schema: unknown, label: string): string[] {
  if (!isObject(schema)) return [`${label} is not an object`];
  const problems: string[] = [];
  if (schema.type !== "object") problems.push(`${label}.type is ${JSON.stringify(schema.type)}, not "object"`);
  const properties = schema.properties;
  if (properties !== undefined) {
    if (!isObject(properties)) problems.push(`${label}.properties is not an object`);
    else
      for (const [name, sub] of Object.entries(properties))
        if (sub === null || (typeof sub !== "object" && typeof sub !== "function"))
          problems.push(`${label}.properties[${JSON.stringify(name)}] is ${JSON.stringify(sub)}, not a schema object`);
  }
  const required = schema.required;
  if (required !== undefined && !(Array.isArray(required) && required.every((name) => typeof name === "string")))
    problems.push(`${label}.required is not a list of names`);
  return problems;
}

/** The SDK's `ToolAnnotationsSchema`: an object of optional hints. */
function annotationProblems(annotations: unknown): string[] {
  if (annotations === undefined) return [];
  if (!isObject(annotations)) return ["annotations is not an object"];
  const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotations;
  return optionalString(title) && [readOnlyHint, destructiveHint, idempotentHint, openWorldHint].every(optionalBoolean)
    ? []
    : ["annotations has a hint of the wrong type"];
}

/** The JSON types ajv knows (a `type` naming another makes it throw). */
const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);
/** Keywords ajv only reads as annotations (with `strict` off, unknown keywords are ignored too, but not all are safe). */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly"]);

const isSchema = (value: unknown, depth: number): boolean =>
  typeof value === "boolean" || (isObject(value) && plainShape(value, depth + 1));
const nonEmptyList = (value: unknown): value is unknown[] => Array.isArray(value) && value.length > 0;

/**
 * Whether ajv compiles `schema` for certain: it uses only shape keywords (those of a compacted
 * output schema, output-compact.ts), each in the form ajv takes, and annotations. Anything else is
 * left to ajv itself. Compiling is the costly part of this check (on GitHub's 1,223 output schemas
 * about a second); this walk is not.
 */
function plainShape(schema: Obj, depth: number): boolean {
  if (depth > 64) return false;
  for (const [key, value] of Object.entries(schema)) {
    switch (key) {
      case "type":
        if (
          typeof value === "string"
            ? !JSON_TYPES.has(value)
            : !(nonEmptyList(value) && value.every((t) => typeof t === "string" && JSON_TYPES.has(t)))
        )
          return false;
        break;
      case "properties":
        if (!isObject(value) || !Object.values(value).every((sub) => isSchema(sub, depth))) return false;
        break;
      case "required":
        if (!Array.isArray(value) || !value.every((name) => typeof name === "string")) return false;
        break;
      case "items":
      case "additionalProperties":
        if (!isSchema(value, depth)) return false;
        break;
      case "prefixItems":
      case "anyOf":
      case "allOf":
      case "oneOf":
        if (!nonEmptyList(value) || !value.every((sub) => isSchema(sub, depth))) return false;
        break;
      case "enum":
        if (!nonEmptyList(value)) return false;
        break;
      case "const":
        break;
      default:
        if (!ANNOTATIONS.has(key)) return false;
    }
  }
  return true;
}

/** ajv as the SDK's client creates it (validation/ajv-provider.js), without its console warnings. */
const SDK_AJV_OPTIONS: AjvOptions = { strict: false, validateFormats: true, validateSchema: false, allErrors: true };

/**
 * Checks listed tools; one instance per generation (it keeps the ajv instance and the verdicts of
 * output schemas already compiled, by their JSON text: big APIs repeat them).
 */
export class ListingCheck {
  private ajv: Ajv | undefined;
  private readonly compiled = new Map<string, string | undefined>();

  /** What would make a client refuse the listing that holds `tool`; empty when nothing would. */
  problems(tool: ListedTool): string[] {
    const problems: string[] = [];
    if (typeof tool.name !== "string") problems.push("name is not a string");
    if (!optionalString(tool.title)) problems.push("title is not a string");
    if (!optionalString(tool.description)) problems.push("description is not a string");
    problems.push(...schemaProblems(tool.inputSchema, "inputSchema"));
    if (tool.outputSchema !== undefined) {
      const output = schemaProblems(tool.outputSchema, "outputSchema");
      problems.push(...output);
      if (output.length === 0) {
        const failed = this.compileProblem(tool.outputSchema);
        if (failed !== undefined) problems.push(`outputSchema does not compile: ${failed}`);
      }
    }
    problems.push(...annotationProblems(tool.annotations));
    return problems;
  }

  /** ajv's error when the SDK client could not compile `schema` (it compiles every output schema while listing). */
  private compileProblem(schema: object): string | undefined {
    // Compacted output schemas hold only keywords whose form is checked here; the rest is compiled.
    if (plainShape(schema as Obj, 0)) return undefined;
    const key = JSON.stringify(schema);
    if (this.compiled.has(key)) return this.compiled.get(key);
    let problem: string | undefined;
    try {
      this.sdkAjv().compile(schema as Obj);
    } catch (error) {
      problem = (error as Error).message.slice(0, 300);
    }
    this.compiled.set(key, problem);
    return problem;
  }

  /** ajv's draft-07 class, the one the SDK imports (`import Ajv from 'ajv'`), made on first need. */
  private sdkAjv(): Ajv {
    if (!this.ajv) {
      this.ajv = new Ajv({ ...SDK_AJV_OPTIONS, logger: false });
      addFormats(this.ajv);
    }
    return this.ajv;
  }
}
