import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseSnapshot, type ContractSnapshot } from "./changes/contracts.js";
import { parseToolLock, type ToolLock } from "./tool-lock.js";
import {
  CONTRACT_PATH,
  MANIFEST_PATH,
  RUNTIME_DIR,
  TOOL_LOCK_PATH,
  treeSha256,
  type Manifest,
} from "../../shared/state-files.js";

/** What a previous generation left in the output folder for the next one. */
export interface PreviousState {
  manifest?: Manifest;
  toolLock?: ToolLock;
  contracts?: ContractSnapshot;
  /** The project's package.json as it is on disk now (the user may have added dependencies). */
  packageJson?: string;
  /** The project has custom code: a TypeScript or JavaScript file in src/custom/ (feature custom). */
  hasCustomCode?: boolean;
  /** The user's code (src/custom/) calls `clientRequest` (legacy server→client requests: feature client-requests). */
  customCallsClient?: boolean;
}

/** Reads the previous generation's state from `.mcp-gen/` (each part undefined when absent or invalid). */
export async function readPreviousState(dir: string): Promise<PreviousState> {
  const [manifest, lock, contracts] = await Promise.all([
    readManifest(dir),
    readStateFile<unknown>(dir, TOOL_LOCK_PATH),
    readStateFile<unknown>(dir, CONTRACT_PATH),
  ]);
  const packageJson = manifest ? await readFile(join(dir, "package.json"), "utf8").catch(() => undefined) : undefined;
  const custom = await customCode(join(dir, "src", "custom"));
  const customCallsClient = custom.some((text) => /\bclientRequest\s*\(/.test(text));
  const toolLock = parseToolLock(lock);
  const snapshot = parseSnapshot(contracts);
  return {
    ...(manifest ? { manifest } : {}),
    ...(toolLock ? { toolLock } : {}),
    ...(snapshot ? { contracts: snapshot } : {}),
    ...(packageJson !== undefined ? { packageJson } : {}),
    ...(custom.length > 0 ? { hasCustomCode: true } : {}),
    ...(customCallsClient ? { customCallsClient } : {}),
  };
}

/** The texts of the TypeScript and JavaScript files under `dir` (none when `dir` is absent). */
export async function customCode(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  const code = names.filter((file) => /\.[cm]?[tj]sx?$/.test(file)).sort();
  return Promise.all(code.map((name) => readFile(join(dir, name), "utf8").catch(() => "")));
}

/** Reads a JSON file of a previous generation in `dir`; undefined when absent or unreadable. */
export async function readStateFile<T>(dir: string, path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, ...path.split("/")), "utf8")) as T;
  } catch {
    return undefined;
  }
}

/**
 * The manifest of a previous generation in `dir`, when there is a valid one; one written before the
 * runtime was hashed as one unit is read as if it had been (its runtime files' hashes become one).
 */
export async function readManifest(dir: string): Promise<Manifest | undefined> {
  const manifest = await readStateFile<Manifest>(dir, MANIFEST_PATH);
  if (!manifest || manifest.manifestVersion !== 1 || typeof manifest.files !== "object" || manifest.files === null)
    return undefined;
  if (typeof manifest.packageName !== "string" || typeof manifest.packageVersion !== "string") return undefined;
  return { ...withRuntimeTree(manifest), once: Array.isArray(manifest.once) ? manifest.once : [] };
}

/** An older manifest's per-file entries of the vendored runtime as the one hash newer ones record. */
function withRuntimeTree(manifest: Manifest): Manifest {
  const runtime = Object.entries(manifest.files).filter(([path]) => path.startsWith(RUNTIME_DIR));
  if (manifest.runtimeSha256 !== undefined || runtime.length === 0) return manifest;
  const files = Object.fromEntries(Object.entries(manifest.files).filter(([path]) => !path.startsWith(RUNTIME_DIR)));
  return { ...manifest, runtimeSha256: treeSha256(runtime), files };
}
