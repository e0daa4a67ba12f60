import type { JsonSchema } from "../../shared/contract.js";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import { childPointer } from "../../shared/pointer.js";
import type { SchemaIR } from "../ir/ir-types.js";
import { singleType } from "./schema-tools.js";

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Property types SEP-2243 allows to mirror into a header (never `number`). */
const HEADER_TYPES = new Set(["string", "integer", "boolean"]);
/** Headers that carry secrets or transport facts, never mirrored. */
const SENSITIVE = /^(authorization|cookie|set-cookie|proxy-authorization)$|token|secret|password|api[-_]?key/i;

/**
 * Checks an `x-mcp-header` value against SEP-2243 so we never emit an annotation that makes
 * clients drop the tool. `taken` holds the lower-cased names already used by this tool.
 * Returns the value to emit, or undefined (with a warning) when it is invalid.
 */
export function checkMcpHeader(
  value: unknown,
  schema: JsonSchema,
  defs: Map<string, SchemaIR>,
  taken: Set<string>,
  at: string,
  bag: DiagnosticBag,
): string | undefined {
  const where = childPointer(at, "x-mcp-header");
  const reject = (why: string): undefined => {
    bag.warn(
      Codes.mcpHeaderInvalid,
      `x-mcp-header ${JSON.stringify(value)} is dropped: ${why}.`,
      where,
      "SEP-2243: a non-empty HTTP token, unique per tool, on a string, integer or boolean parameter that holds no secret.",
    );
    return undefined;
  };
  if (typeof value !== "string" || value === "") return reject("it must be a non-empty string");
  if (!TOKEN.test(value)) return reject("it is not an HTTP token (letters, digits and !#$%&'*+-.^_`|~ only)");
  if (taken.has(value.toLowerCase()))
    return reject("another argument of this tool already uses that name (case-insensitively)");
  if (SENSITIVE.test(value)) return reject("it looks like a credential, and secrets must not be mirrored into headers");
  const type = singleType(schema, defs);
  if (!type || !HEADER_TYPES.has(type))
    return reject(`the parameter's type is ${type ?? "not a single type"}, not string, integer or boolean`);
  taken.add(value.toLowerCase());
  return value;
}
