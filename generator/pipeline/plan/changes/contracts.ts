import { loadTools, type JsonSchema, type ObjectJsonSchema, type StoredTool } from "../../../shared/contract.js";

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

/** The contracts of the last generation, in tool order, as read from `.mcp-gen/tools.json`. */
export interface ContractSnapshot {
  snapshotVersion: 1 | 2;
  tools: ToolContract[];
}

/**
 * The file `.mcp-gen/tools.json` as written since version 2: each tool's `inputSchema.$defs` as
 * `defs` (name → index into `definitions`, each distinct body once), as in data/tools.json. MS Graph
 * beta's snapshot was 175 MB with the bodies repeated in every tool, 76 % of it `$defs`.
 */
export interface StoredSnapshot {
  snapshotVersion: 2;
  tools: Array<ToolContract & { defs?: Record<string, number> }>;
  definitions: unknown[];
}

/** Reads a snapshot (version 1, or 2 with shared definitions) from parsed JSON; undefined when it is not one. */
export function parseSnapshot(value: unknown): ContractSnapshot | undefined {
  const snapshot = value as (ContractSnapshot & { definitions?: unknown }) | undefined;
  if (!snapshot || !Array.isArray(snapshot.tools)) return undefined;
  if (snapshot.snapshotVersion === 1) return snapshot;
  if (snapshot.snapshotVersion !== 2 || !Array.isArray(snapshot.definitions)) return undefined;
  try {
    const stored = snapshot.tools as unknown as StoredTool[];
    return { snapshotVersion: 2, tools: loadTools(stored, snapshot.definitions) as unknown as ToolContract[] };
  } catch {
    return undefined; // a tool names a definition the file lacks: damaged, read as no snapshot
  }
}
