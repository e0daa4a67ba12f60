import semver from "semver";

/** A semver bump level; `none` when nothing a client sees changed. */
export type Bump = "major" | "minor" | "patch" | "none";

/** The larger of two bumps. */
export function maxBump(a: Bump, b: Bump): Bump {
  const order: Bump[] = ["none", "patch", "minor", "major"];
  return order[Math.max(order.indexOf(a), order.indexOf(b))]!;
}

/**
 * Applies a bump to a version with semver's own rules (a pre-release becomes its release:
 * 2.0.0-beta.1 + patch = 2.0.0). Below 1.0.0 a breaking change bumps the minor number (semver's
 * convention for initial development). A version that is not semver is returned unchanged.
 */
export function bumpVersion(version: string, bump: Bump): string {
  const parsed = semver.valid(version);
  if (!parsed || bump === "none") return version;
  const level = bump === "major" && semver.major(parsed) === 0 ? "minor" : bump;
  return semver.inc(parsed, level) ?? version;
}

/** Orders two versions by semver precedence (pre-releases before their release); non-semver parts count as 0.0.0. */
export function compareVersions(a: string, b: string): number {
  const coerce = (v: string) => semver.valid(v) ?? semver.coerce(v)?.version ?? "0.0.0";
  return semver.compare(coerce(a), coerce(b));
}
