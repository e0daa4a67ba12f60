/** A semver bump level; `none` when nothing a client sees changed. */
export type Bump = "major" | "minor" | "patch" | "none";

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The larger of two bumps. */
export function maxBump(a: Bump, b: Bump): Bump {
  const order: Bump[] = ["none", "patch", "minor", "major"];
  return order[Math.max(order.indexOf(a), order.indexOf(b))]!;
}

/**
 * Applies a bump to a version. Below 1.0.0 a breaking change bumps the minor number (semver's
 * convention for initial development). A pre-release suffix is dropped. A version that is not semver
 * is returned unchanged.
 */
export function bumpVersion(version: string, bump: Bump): string {
  const match = SEMVER.exec(version);
  if (!match || bump === "none") return version;
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (bump === "major") return major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}
