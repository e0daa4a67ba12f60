import type { ApiDiff } from "../../pipeline/plan/changes/diff-tools.js";
import type { SchemaChange } from "../../pipeline/plan/changes/schema-changes.js";

function line(kind: string, change: SchemaChange): string {
  const tag = change.verdict === "breaking" ? "BREAKING" : "compatible";
  return `    ${tag.padEnd(10)} ${kind} ${change.at ? `${change.at}: ` : ""}${change.message}`;
}

/** The diff as the CLI prints it: one line per tool, indented lines per change, the bump last. */
export function formatDiff(diff: ApiDiff): string {
  const lines: string[] = [];
  for (const name of diff.added) lines.push(`  + ${name}  (new tool, compatible)`);
  for (const name of diff.removed) lines.push(`  - ${name}  (removed, BREAKING)`);
  for (const change of diff.changed) {
    lines.push(
      change.previousName ? `  ~ ${change.previousName} → ${change.name}  (renamed, BREAKING)` : `  ~ ${change.name}`,
    );
    for (const c of change.input) lines.push(line("input ", c));
    for (const c of change.output) lines.push(line("output", c));
    if (change.described) lines.push("    compatible title/description changed");
  }
  if (lines.length === 0) return "No tool changes.";
  const verdict = diff.breaking ? "breaking" : "compatible";
  return `Tool changes (${verdict}; suggested bump: ${diff.bump}):\n${lines.join("\n")}`;
}
