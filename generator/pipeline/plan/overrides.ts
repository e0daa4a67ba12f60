/**
 * What the `x-mcp-*` extensions (ir/mcp-extensions.ts) change in a planned tool: its annotations,
 * title, description, toolset and confirmation. Names and hiding are decided with every operation
 * in view (plan-project.ts `toolNames`, `filterOperations`).
 */
import type { ToolAnnotations } from "../../shared/contract.js";
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
