/**
 * `mcp-gen diff <old> <new>`: both documents planned in memory (nothing is written) and their tools
 * compared. With `keepNames` the new document is planned with the old one's tool names (and output
 * budgets) locked, exactly as a regeneration would, so only what clients would really see is
 * reported; without it, a changed operationId shows up as a rename. Overlays (`--overlay`) apply to
 * both, `--new-overlay` to the new one only (so `diff spec spec --new-overlay o.yaml` shows what an
 * overlay changes, a rename by `x-mcp-name` as a rename).
 */
import { generate } from "../../pipeline/generate.js";
import { contractsOf } from "../../pipeline/plan/changes/contracts-of.js";
import { diffTools, type ApiDiff } from "../../pipeline/plan/changes/diff-tools.js";
import { buildToolLock, parseToolLock } from "../../pipeline/plan/tool-lock.js";

/** The two documents and how to read them. */
export interface DiffSpecsOptions {
  old: string;
  new: string;
  allowRemote: boolean;
  /** The folder file $refs may read from. */
  refRoot?: string;
  /** Plan the new document with the old one's tool names, as a regeneration would. */
  keepNames: boolean;
  /** Overlays applied to both documents (`--overlay`): the spec's changes under the same customisation. */
  overlays?: readonly string[];
  /** Overlays applied to the new document only (`--new-overlay`): what an overlay changes. */
  newOverlays?: readonly string[];
}

/** The tool changes from the old document to the new one (throws the generator's errors). */
export async function diffSpecs(options: DiffSpecsOptions): Promise<ApiDiff> {
  const read = { allowRemote: options.allowRemote, refRoot: options.refRoot, planOnly: true } as const;
  const both = options.overlays ?? [];
  const before = await generate({ spec: options.old, ...read, overlays: both });
  const toolLock = options.keepNames ? parseToolLock(buildToolLock(before.plan.tools)) : undefined;
  const overlays = [...both, ...(options.newOverlays ?? [])];
  const after = await generate({ spec: options.new, ...read, overlays, ...(toolLock ? { toolLock } : {}) });
  return diffTools(contractsOf(before.plan.tools), contractsOf(after.plan.tools));
}
