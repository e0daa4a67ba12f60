/**
 * What a regeneration changed in package.json's dependencies: a feature added with `--with`
 * (code mode's QuickJS, Redis's client …) or dropped, or a version moved. The project's
 * node_modules does not follow by itself, and the next build fails (TS2307) until `npm install`
 * runs, so the CLI names the changes and the command (or runs it with `--install`).
 */

/** One dependency added (`from` absent), removed (`to` absent) or moved to another version. */
export interface DependencyChange {
  name: string;
  /** `dependencies` or `devDependencies`. */
  kind: "dependencies" | "devDependencies";
  from?: string;
  to?: string;
}

const KINDS = ["dependencies", "devDependencies"] as const;

/** The changes from the package.json text `before` to `after`; none when either is not JSON. */
export function dependencyChanges(before: string, after: string): DependencyChange[] {
  const [old, now] = [parsed(before), parsed(after)];
  if (!old || !now) return [];
  return KINDS.flatMap((kind) => {
    const from = versions(old[kind]);
    const to = versions(now[kind]);
    return [...new Set([...Object.keys(from), ...Object.keys(to)])]
      .sort()
      .filter((name) => from[name] !== to[name])
      .map((name) => ({
        name,
        kind,
        ...(from[name] ? { from: from[name] } : {}),
        ...(to[name] ? { to: to[name] } : {}),
      }));
  });
}

/** The changes in words: `added x@1, removed y, z 1.0.0 → 1.1.0`. */
export function describeDependencyChanges(changes: readonly DependencyChange[]): string {
  return changes
    .map(({ name, from, to }) =>
      from === undefined ? `added ${name}@${to}` : to === undefined ? `removed ${name}` : `${name} ${from} → ${to}`,
    )
    .join(", ");
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function versions(section: unknown): Record<string, string> {
  if (!section || typeof section !== "object") return {};
  return Object.fromEntries(
    Object.entries(section).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}
