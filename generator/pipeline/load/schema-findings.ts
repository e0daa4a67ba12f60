/**
 * ajv's violations of the OpenAPI schema turned into one finding per problem, in OpenAPI's terms.
 *
 * ajv reports every way a value fails: for a `oneOf` (Reference Object or Schema Object, Response
 * Object …) each alternative's failures, then the `oneOf` itself; one `schema: null` is five errors.
 * The rules here read only ajv's error structure (keyword, instancePath, params) and the document:
 * 1. Group: an error belongs to the outermost failed combinator (`oneOf`, `anyOf`, `if`) whose
 *    location holds it; an error under none is a group of its own.
 * 2. In a group, drop the combinators (their alternatives say more) and the "it is not a Reference
 *    Object" alternative (`required: $ref` and the unexpected properties reported after it there);
 *    keep the errors at the deepest location: the most specific.
 * 3. The errors kept at one location make one finding, worded by what the document holds there.
 * 4. Findings with the same words at several locations make one finding with a count and pointers.
 */
import { Codes, type Diagnostic } from "../../shared/diagnostics.js";
import type { SchemaViolation, Version } from "./openapi-schema.js";

/** The hint of a schema violation with no better one. */
export const HELP = "The spec does not follow the OpenAPI schema here; generation goes on, but check the result.";
/** At most this many pointers are listed for a problem found in many places. */
const POINTERS_LISTED = 5;
const COMBINATORS = new Set(["oneOf", "anyOf", "if"]);

/** One problem before it is worded: where, and the violations found there. */
interface Problem {
  path: string;
  violations: SchemaViolation[];
}

/** The findings for `violations` of `document` (an OpenAPI `version` document): one per problem. */
export function schemaFindings(
  violations: SchemaViolation[],
  document: unknown,
  version: Version | undefined,
): Diagnostic[] {
  const problems = groupsOf(violations).flatMap(problemsOf);
  const worded = problems.map((problem) => ({ path: problem.path, ...wordingOf(problem, document, version) }));
  return collapseRepeats(worded);
}

/** Step 1: each violation with the outermost failed combinator that holds its location. */
function groupsOf(violations: SchemaViolation[]): SchemaViolation[][] {
  const roots = violations
    .filter((v) => COMBINATORS.has(v.keyword))
    .map((v) => v.instancePath)
    .sort((a, b) => a.length - b.length);
  const groups = new Map<string, SchemaViolation[]>();
  violations.forEach((violation, index) => {
    const root = roots.find((path) => holds(path, violation.instancePath));
    const key = root ?? `#${index}`;
    groups.set(key, [...(groups.get(key) ?? []), violation]);
  });
  return [...groups.values()];
}

/** True when `inner` is `outer` or a location inside it. */
function holds(outer: string, inner: string): boolean {
  return inner === outer || inner.startsWith(`${outer}/`);
}

/** Step 2: the violations of one group that say most, by location. */
function problemsOf(group: SchemaViolation[]): Problem[] {
  const referenceOnes = referenceAlternative(group);
  const leaves = group.filter((v) => !COMBINATORS.has(v.keyword) && !referenceOnes.has(v));
  if (leaves.length === 0) return [{ path: group[0]!.instancePath, violations: group }];
  const depth = Math.max(...leaves.map((v) => segments(v.instancePath).length));
  const byPath = new Map<string, SchemaViolation[]>();
  for (const v of withoutSwitches(leaves.filter((leaf) => segments(leaf.instancePath).length === depth)))
    byPath.set(v.instancePath, [...(byPath.get(v.instancePath) ?? []), v]);
  return [...byPath].map(([path, found]) => ({ path, violations: found }));
}

/**
 * Without the one-value `enum`s (a field that picks the alternative, like a parameter's `in`) when
 * anything else failed: the value then matched an alternative that failed on something else.
 */
function withoutSwitches(leaves: SchemaViolation[]): SchemaViolation[] {
  const isSwitch = (v: SchemaViolation) =>
    v.keyword === "enum" && (v.params as { allowedValues?: unknown[] }).allowedValues?.length === 1;
  const others = leaves.filter((v) => !isSwitch(v));
  return others.length > 0 ? others : leaves;
}

/**
 * The violations that only say "this is not a Reference Object": a missing `$ref`, and the
 * unexpected properties reported right after it at the same location (Swagger 2.0's Reference
 * allows no other property). Kept when nothing else failed (a broken `$ref` object).
 */
function referenceAlternative(group: SchemaViolation[]): Set<SchemaViolation> {
  const found = new Set<SchemaViolation>();
  group.forEach((v, index) => {
    if (v.keyword !== "required" || missingProperty(v) !== "$ref") return;
    found.add(v);
    for (const next of group.slice(index + 1)) {
      if (next.instancePath !== v.instancePath || next.keyword !== "additionalProperties") break;
      found.add(next);
    }
  });
  return found;
}

/** Step 3: a problem's message and help, from what the document holds at its location. */
function wordingOf(
  problem: Problem,
  document: unknown,
  version: Version | undefined,
): { message: string; help: string } {
  const tokens = segments(problem.path);
  const key = tokens.at(-1);
  const value = valueAt(document, tokens);
  const versionHint = key === undefined ? undefined : versionDifference(key, value, version);
  if (versionHint) return versionHint;
  const name = nameOf(tokens, Array.isArray(valueAt(document, tokens.slice(0, -1))));
  if (value === null && key !== undefined)
    return { message: `${name} is null`, help: `Give ${name} a value, or remove it.` };
  const parts = [...new Set(mergeEnums(problem.violations).map((v) => violationWords(v, name, value)))];
  return { message: parts.join("; "), help: HELP };
}

/**
 * What OpenAPI 3.1 allows and 3.0 (or Swagger 2.0) does not, written the older version's way: the
 * usual cause of a violation in a spec converted from, or written for, another version.
 */
function versionDifference(
  key: string,
  value: unknown,
  version: Version | undefined,
): { message: string; help: string } | undefined {
  if (key === "in" && (value === "body" || value === "formData") && version !== "2.0")
    return {
      message: `\`in: ${value}\` is Swagger 2.0`,
      help: "In OpenAPI 3 the body is the operation's `requestBody` (form fields included), not a parameter.",
    };
  if (version !== "3.0" && version !== "2.0") return undefined;
  const nullable = version === "3.0" ? "`nullable: true`" : "`x-nullable: true` (an extension; 2.0 has no null)";
  if (key === "type" && value === "null")
    return { message: `\`type: 'null'\` is OpenAPI 3.1`, help: `In ${version} write ${nullable} on the schema.` };
  if (key === "type" && Array.isArray(value))
    return {
      message: `A list of types (\`type: [${value.join(", ")}]\`) is OpenAPI 3.1`,
      help: `In ${version} write one type, and ${nullable} for null.`,
    };
  if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "number") {
    const bound = key === "exclusiveMinimum" ? "minimum" : "maximum";
    return {
      message: `\`${key}: ${value}\` (a number) is OpenAPI 3.1`,
      help: `In ${version} write \`${bound}: ${value}\` and \`${key}: true\`.`,
    };
  }
  return undefined;
}

/** The `enum` violations of one location as one, with every allowed value (one per alternative). */
function mergeEnums(violations: SchemaViolation[]): SchemaViolation[] {
  const enums = violations.filter((v) => v.keyword === "enum");
  if (enums.length < 2) return violations;
  const allowedValues = [...new Set(enums.flatMap((v) => (v.params as { allowedValues: unknown[] }).allowedValues))];
  return [{ ...enums[0]!, params: { allowedValues } }, ...violations.filter((v) => v.keyword !== "enum")];
}

/** How a location is named in a message: its key, with the list's name for an item (`parameters[0]`). */
function nameOf(tokens: string[], inList: boolean): string {
  const key = tokens.at(-1);
  if (key === undefined) return "The document";
  return inList && tokens.length > 1 ? `\`${tokens.at(-2)}[${key}]\`` : `\`${key}\``;
}

/** One violation in words, for the value `value` at the location named `name`. */
function violationWords(v: SchemaViolation, name: string, value: unknown): string {
  const params = (v.params ?? {}) as Record<string, unknown>;
  switch (v.keyword) {
    case "required":
      return `${name} lacks the required field \`${String(params.missingProperty)}\``;
    case "additionalProperties":
      return `${name} has \`${String(params.additionalProperty)}\`, which is not a field here (extensions start with \`x-\`)`;
    case "enum":
      return `${name} is ${JSON.stringify(value)}; allowed: ${(params.allowedValues as unknown[]).map(String).join(", ")}`;
    case "type":
      return `${name} must be ${[params.type].flat().join(" or ")}, not ${Array.isArray(value) ? "array" : typeof value}`;
    default:
      return `${name} ${v.message ?? "does not follow the schema"}`;
  }
}

/** Step 4: findings worded alike at several locations become one, with a count and the pointers. */
function collapseRepeats(worded: Array<{ path: string; message: string; help: string }>): Diagnostic[] {
  const byWords = new Map<string, Array<{ path: string; message: string; help: string }>>();
  for (const finding of worded) {
    const words = `${finding.message}\n${finding.help}`;
    byWords.set(words, [...(byWords.get(words) ?? []), finding]);
  }
  return [...byWords.values()].map((alike) => {
    const [first] = alike as [{ path: string; message: string; help: string }];
    const finding: Diagnostic = {
      code: Codes.specInvalid,
      severity: "warning",
      message: first.message,
      pointer: `#${first.path}`,
      help: first.help,
    };
    if (alike.length > 1) finding.message += ` (${alike.length} places: ${pointerList(alike.map((f) => f.path))})`;
    finding.message += ".";
    return finding;
  });
}

function pointerList(paths: string[]): string {
  const listed = paths.slice(0, POINTERS_LISTED).map((path) => `#${path}`);
  const rest = paths.length - listed.length;
  return rest > 0 ? `${listed.join(", ")} and ${rest} more` : listed.join(", ");
}

/** The reference tokens of an ajv instance path (`/a/b~1c` → `a`, `b/c`). */
function missingProperty(v: SchemaViolation): unknown {
  return (v.params as Record<string, unknown> | undefined)?.missingProperty;
}

function segments(path: string): string[] {
  return path === ""
    ? []
    : path
        .slice(1)
        .split("/")
        .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function valueAt(document: unknown, tokens: string[]): unknown {
  let node = document;
  for (const token of tokens) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
