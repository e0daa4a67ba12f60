import type { JsonSchema, ObjectJsonSchema } from "../../../shared/contract.js";

/** What a client relies on about one tool: the unit the diff compares. */
export interface ToolContract {
  name: string;
  /** Route key (`GET /pets/{}`), to recognise a tool under another name. */
  operation: string;
  operationId?: string;
  title?: string;
  description: string;
  inputSchema: ObjectJsonSchema | JsonSchema;
  outputSchema?: ObjectJsonSchema | JsonSchema;
  /**
   * How much of the response's shape `outputSchema` keeps (output-compact.ts `OutputDetail`); absent
   * in snapshots of older versions. The diff compares outputs only as deep as both sides go.
   */
  outputDetail?: number;
}

/** The snapshot file `.mcp-gen/tools.json`: the contracts of the last generation, in tool order. */
export interface ContractSnapshot {
  snapshotVersion: 1;
  tools: ToolContract[];
}

/** Reads a snapshot from parsed JSON; undefined when it is not one. */
export function parseSnapshot(value: unknown): ContractSnapshot | undefined {
  const snapshot = value as ContractSnapshot | undefined;
  return snapshot && snapshot.snapshotVersion === 1 && Array.isArray(snapshot.tools) ? snapshot : undefined;
}
