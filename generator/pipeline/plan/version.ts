/**
 * The package version, decided in the plan like every other choice: a first generation takes the
 * API's `info.version` when it is semver (else 0.1.0); a regeneration starts from the previous
 * version — the generated one or, when the user raised it in package.json since, theirs — and
 * applies the bump the tool diff suggests.
 */
import semver from "semver";
import { bumpVersion, compareVersions } from "./changes/semver.js";
import type { ApiDiff } from "./changes/diff-tools.js";

/** What the previous generation tells the version decision. */
export interface PreviousVersion {
  /** The version the previous generation recorded in its manifest. */
  recorded: string;
  /** The version in package.json on disk now (the user may have run `npm version`). */
  onDisk?: string;
}

/** Semver for package.json on a first generation: the API version when it is one, else 0.1.0. */
export function initialVersion(apiVersion: string): string {
  return semver.valid(apiVersion) === apiVersion ? apiVersion : "0.1.0";
}

/** The version of this run; `bump: false` keeps the previous one (`--no-bump`). */
export function decideVersion(
  apiVersion: string,
  previous: PreviousVersion | undefined,
  diff: ApiDiff | undefined,
  bump: boolean,
): string {
  if (!previous) return initialVersion(apiVersion);
  const { recorded, onDisk } = previous;
  const before = onDisk && semver.valid(onDisk) && compareVersions(onDisk, recorded) > 0 ? onDisk : recorded;
  return bump && diff ? bumpVersion(before, diff.bump) : before;
}
