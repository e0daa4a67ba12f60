import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseSnapshot, type ContractSnapshot } from "../diff/contracts.js";
import { parseToolLock, type ToolLock } from "../plan/tool-lock.js";
import { CONTRACT_PATH, readManifest, readStateFile, TOOL_LOCK_PATH, type Manifest } from "./manifest.js";

/** What a previous generation left in the output folder for the next one. */
export interface PreviousState {
  manifest?: Manifest;
  toolLock?: ToolLock;
  contracts?: ContractSnapshot;
  /** The project's package.json as it is on disk now (the user may have added dependencies). */
  packageJson?: string;
}

/** Reads the previous generation's state from `.mcp-gen/` (each part undefined when absent or invalid). */
export async function readPreviousState(dir: string): Promise<PreviousState> {
  const [manifest, lock, contracts] = await Promise.all([readManifest(dir), readStateFile<unknown>(dir, TOOL_LOCK_PATH), readStateFile<unknown>(dir, CONTRACT_PATH)]);
  const packageJson = manifest ? await readFile(join(dir, "package.json"), "utf8").catch(() => undefined) : undefined;
  const toolLock = parseToolLock(lock);
  const snapshot = parseSnapshot(contracts);
  return { ...(manifest ? { manifest } : {}), ...(toolLock ? { toolLock } : {}), ...(snapshot ? { contracts: snapshot } : {}), ...(packageJson !== undefined ? { packageJson } : {}) };
}
