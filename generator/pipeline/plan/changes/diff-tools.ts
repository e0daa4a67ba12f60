import type { ToolContract } from "./contracts.js";
import { compareSchemas, type SchemaChange, type Verdict } from "./schema-changes.js";
import { maxBump, type Bump } from "./semver.js";

/** How one tool that exists on both sides changed. */
export interface ToolChange {
  name: string;
  /** Set when the tool is recognised (same route or operationId) under another name. */
  previousName?: string;
  input: SchemaChange[];
  output: SchemaChange[];
  /** Title or description changed (never breaking). */
  described: boolean;
}

/** Everything that differs between two versions of a server's tools. */
export interface ApiDiff {
  added: string[];
  removed: string[];
  /** Tools whose input, output, name or prose changed. */
  changed: ToolChange[];
  /** True when an existing caller or consumer can break. */
  breaking: boolean;
  /** Suggested semver bump: major when breaking, minor when tools or capabilities were added, patch for prose. */
  bump: Bump;
}

/**
 * Pairs old and new tools — by name first, then by route, then by operationId (a pair found that
 * way is a rename) — and classifies every difference. Tool order does not matter.
 */
export function diffTools(before: ToolContract[], after: ToolContract[]): ApiDiff {
  const unmatchedOld = new Map(before.map((t) => [t.name, t]));
  const pairs: Array<[ToolContract, ToolContract]> = [];
  const unmatchedNew: ToolContract[] = [];
  for (const tool of after) {
    const old = unmatchedOld.get(tool.name);
    if (old) {
      pairs.push([old, tool]);
      unmatchedOld.delete(tool.name);
    } else unmatchedNew.push(tool);
  }
  const added: string[] = [];
  for (const tool of unmatchedNew) {
    const candidates = [...unmatchedOld.values()];
    const old =
      candidates.find((o) => o.operation === tool.operation) ??
      candidates.find((o) => o.operationId !== undefined && o.operationId === tool.operationId);
    if (old) {
      pairs.push([old, tool]);
      unmatchedOld.delete(old.name);
    } else added.push(tool.name);
  }
  const changed: ToolChange[] = [];
  for (const [old, tool] of pairs) {
    const change: ToolChange = {
      name: tool.name,
      ...(old.name !== tool.name ? { previousName: old.name } : {}),
      input: compareSchemas(old.inputSchema, tool.inputSchema, "input"),
      output:
        old.outputSchema && !tool.outputSchema
          ? [{ at: "", verdict: "breaking", message: "structured output removed" }]
          : !old.outputSchema && tool.outputSchema
            ? [{ at: "", verdict: "compatible", message: "structured output added" }]
            : compareSchemas(old.outputSchema, tool.outputSchema, "output", "", undefined, sharedDetail(old, tool)),
      described: old.description !== tool.description || old.title !== tool.title,
    };
    if (change.previousName || change.input.length > 0 || change.output.length > 0 || change.described)
      changed.push(change);
  }
  const removed = [...unmatchedOld.keys()];
  const verdicts: Verdict[] = changed.flatMap((c) => [...c.input, ...c.output].map((s) => s.verdict));
  const breaking = removed.length > 0 || changed.some((c) => c.previousName) || verdicts.includes("breaking");
  let bump: Bump = "none";
  if (changed.some((c) => c.described)) bump = maxBump(bump, "patch");
  if (added.length > 0 || verdicts.includes("compatible")) bump = maxBump(bump, "minor");
  if (breaking) bump = "major";
  return {
    added: added.sort(),
    removed: removed.sort(),
    changed: changed.sort((a, b) => (a.name < b.name ? -1 : 1)),
    breaking,
    bump,
  };
}

/**
 * The detail both versions of a tool's output schema keep (the lesser), or undefined when a side
 * does not record it (a snapshot of an older version): then the schemas are compared whole.
 */
function sharedDetail(old: ToolContract, tool: ToolContract): number | undefined {
  if (old.outputDetail === undefined || tool.outputDetail === undefined) return undefined;
  return Math.min(old.outputDetail, tool.outputDetail);
}
