/**
 * What the last workspace runs found, per server, kept next to the workspace file in
 * `.mcp-gen/workspace.json`: the last build (version before and after, the tool diff, warnings),
 * the last test run and compliance check. `workspace report` reads it; nothing else depends on it,
 * so deleting it only empties the report until the next build and test.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ApiDiff } from "../../pipeline/plan/changes/diff-tools.js";

/** Where the state lives, relative to the workspace folder. */
export const STATE_PATH = ".mcp-gen/workspace.json";

/** A generation warning as the report shows it. */
export interface WarningEntry {
  code: string;
  message: string;
  pointer?: string;
}

/** The last build of one server. */
export interface BuildState {
  /** What the generation did: a new folder, an update, or nothing to change. */
  generated: "created" | "updated" | "unchanged";
  version: string;
  /** The version before this build, when it was an update. */
  previousVersion?: string;
  /** Tool changes since the build before (absent on a first generation). */
  diff?: ApiDiff;
  tools: number;
  warnings: WarningEntry[];
  /** `npm run build` of the server: ran (ok or not), or was up to date. */
  compiled: "built" | "up to date" | "failed" | "skipped";
}

/** The last test run of one server: its own tests, and the compliance check. */
export interface TestState {
  passed: number;
  failed: number;
  skipped: number;
  /** Names of the failing tests (the first few). */
  failures: string[];
  /** True when the test command exited 0. */
  ok: boolean;
  compliance?: {
    score: number;
    transport: "stdio" | "http";
    failed: Array<{ id: string; message: string }>;
    skipped: string[];
  }[];
}

/** Everything kept for one server, by npm name. */
export interface ServerState {
  build?: BuildState;
  test?: TestState;
}

/** The state file. */
export interface WorkspaceState {
  servers: Record<string, ServerState>;
}

/** Reads the state (empty when there is none yet, or it cannot be read). */
export async function readState(dir: string): Promise<WorkspaceState> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, STATE_PATH), "utf8")) as WorkspaceState;
    return parsed && typeof parsed.servers === "object" ? parsed : { servers: {} };
  } catch {
    return { servers: {} };
  }
}

/** Writes the state (through a temporary file and a rename, so a killed run never leaves half a file). */
export async function writeState(dir: string, state: WorkspaceState): Promise<void> {
  const file = join(dir, STATE_PATH);
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const sorted: WorkspaceState = {
    servers: Object.fromEntries(Object.entries(state.servers).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  await writeFile(temporary, JSON.stringify(sorted, null, 2) + "\n");
  await rename(temporary, file);
}
