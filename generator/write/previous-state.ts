import { parseSnapshot, type ContractSnapshot } from "../diff/contracts.js";
import { parseToolLock, type ToolLock } from "../plan/tool-lock.js";
import { CONTRACT_PATH, readManifest, readStateFile, TOOL_LOCK_PATH, type Manifest } from "./manifest.js";

/** What a previous generation left in the output folder for the next one. */
export interface PreviousState {
  manifest?: Manifest;
  toolLock?: ToolLock;
  contracts?: ContractSnapshot;
}

/** Reads the previous generation's state from `.mcp-gen/` (each part undefined when absent or invalid). */
export async function readPreviousState(dir: string): Promise<PreviousState> {
  const [manifest, lock, contracts] = await Promise.all([readManifest(dir), readStateFile<unknown>(dir, TOOL_LOCK_PATH), readStateFile<unknown>(dir, CONTRACT_PATH)]);
  const toolLock = parseToolLock(lock);
  const snapshot = parseSnapshot(contracts);
  return { ...(manifest ? { manifest } : {}), ...(toolLock ? { toolLock } : {}), ...(snapshot ? { contracts: snapshot } : {}) };
}
