import { documentedOutput } from "../output-schema.js";
import type { ToolPlan } from "../plan-types.js";
import type { ToolContract } from "./contracts.js";

/** The contracts of planned tools. */
export function contractsOf(tools: ToolPlan[]): ToolContract[] {
  return tools.map((t) => ({
    name: t.name,
    operation: t.operationKey,
    ...(t.operationId ? { operationId: t.operationId } : {}),
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: t.inputSchema,
    ...(t.outputSchema ? { outputSchema: documentedOutput(t.outputSchema) } : {}),
    ...(t.outputSchema && t.outputDetail !== undefined ? { outputDetail: t.outputDetail } : {}),
  }));
}
