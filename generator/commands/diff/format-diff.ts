import type { ApiDiff } from "../../pipeline/plan/changes/diff-tools.js";
import type { SchemaChange } from "../../pipeline/plan/changes/schema-changes.js";

function line(kind: string, change: SchemaChange): string {
  const tag = change.verdict === "breaking" ? "BREAKING" : "compatible";
  return `    ${tag.padEnd(10)} ${kind} ${change.at ? `${change.at}: ` : ""}${change.message}`;
}

/**
 * The diff as the CLI prints it: one line per tool, indented lines per change, the bump last; with
 * `version` (a regeneration's new package version) what the bump made of it.
 */
export function formatDiff(diff: ApiDiff, version?: string): string {
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
  return `Tool changes (${verdict}; ${bumpWords(diff.bump, version)}):\n${lines.join("\n")}`;
}

/** The bump, and the version written when known: before 1.0 a breaking change raises the minor version. */
function bumpWords(bump: ApiDiff["bump"], version: string | undefined): string {
  if (version === undefined) return `suggested bump: ${bump}`;
  const preRelease = bump === "major" && /^0\./.test(version);
  return preRelease
    ? `a major change, but before 1.0 that raises the minor version: package version ${version}`
    : `bump: ${bump}, package version ${version}`;
}
