/**
 * What the `x-mcp-*` extensions (ir/mcp-extensions.ts) change in a planned tool: its annotations,
 * title, description, toolset, confirmation and the defaults of its results. Names and hiding are decided with every operation
 * in view (plan-project.ts `toolNames`, `filterOperations`).
 */
import { checkFields, type ResponseBinding, type ToolAnnotations } from "../../shared/contract.js";
import { Codes, type DiagnosticBag } from "../../shared/diagnostics.js";
import type { McpAnnotationOverrides } from "../ir/mcp-extensions.js";
import type { OperationIR } from "../ir/ir-types.js";
import { annotationsFor } from "./annotations.js";
import { describeOperation, type DescriptionPlan } from "./describe.js";

/**
 * The method's annotations (annotations.ts) with the hints `x-mcp-annotations` gives: a given hint
 * is written even when it is the protocol's default (the spec's author said so); a read-only tool
 * carries no destructive or idempotent hint (MCP: meaningful only when it writes).
 */
export function annotationsOf(op: Pick<OperationIR, "method" | "mcp">): ToolAnnotations {
  const base = annotationsFor(op.method);
  const given: McpAnnotationOverrides | undefined = op.mcp?.annotations;
  if (!given) return base;
  const hints: ToolAnnotations = { ...base };
  if (given.readOnly !== undefined) hints.readOnlyHint = given.readOnly;
  if (given.destructive !== undefined) hints.destructiveHint = given.destructive;
  if (given.idempotent !== undefined) hints.idempotentHint = given.idempotent;
  if (given.openWorld !== undefined) hints.openWorldHint = given.openWorld;
  if (hints.readOnlyHint === true) {
    delete hints.destructiveHint;
    delete hints.idempotentHint;
  }
  return hints;
}

/** The tool's title: `x-mcp-title`, else the summary. */
export function titleOf(op: Pick<OperationIR, "summary" | "mcp">): string | undefined {
  return op.mcp?.title ?? op.summary;
}

/** The tool's description: `x-mcp-description` in place of summary and description (deprecation still marked). */
export function descriptionOf(op: OperationIR, toolName: string): DescriptionPlan {
  const text = op.mcp?.description;
  return describeOperation(text === undefined ? op : { ...op, summary: undefined, description: text }, toolName);
}

/** The tags a tool is listed under (toolsets, search): its `x-mcp-toolset` alone when given, else its OpenAPI tags. */
export function toolsetTags(op: Pick<OperationIR, "tags" | "mcp">): string[] {
  return op.mcp?.toolset !== undefined ? [op.mcp.toolset] : [...op.tags];
}

/**
 * The defaults of a tool's results the extensions give, into its response binding for the runtime:
 * `x-mcp-result-budget` as it is; `x-mcp-fields` once its paths are known in the response schema
 * (an operation that answers no JSON, or an unknown path, is MG122 and the default is left out).
 */
export function applyResultOverrides(
  op: Pick<OperationIR, "pointer" | "mcp">,
  response: ResponseBinding,
  bag: DiagnosticBag,
): void {
  if (op.mcp?.resultBudget !== undefined) response.budgetTokens = op.mcp.resultBudget;
  const fields = op.mcp?.fields;
  if (fields === undefined) return;
  const problem = fieldsProblem(fields, response);
  if (problem === undefined) response.defaultFields = [...fields];
  else
    bag.warn(
      Codes.extensionInvalid,
      `x-mcp-fields is ignored: ${problem}.`,
      `${op.pointer}/x-mcp-fields`,
      "x-mcp-fields names paths of the operation's JSON response, as _fields does (docs/guide/results.md).",
    );
}

/** Why `fields` cannot be the default selection of a tool with `response`, if they cannot. */
function fieldsProblem(fields: readonly string[], response: ResponseBinding): string | undefined {
  if (response.fieldsArgument === undefined) return "the operation answers no JSON body to select from";
  const checked = checkFields(fields, response.fields ?? []);
  if (checked.ok) return undefined;
  return `unknown path(s) ${checked.unknown.map((p) => JSON.stringify(p)).join(", ")} (known near them: ${checked.nearest.join(", ")})`;
}
