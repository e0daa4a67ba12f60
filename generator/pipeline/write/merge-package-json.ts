import { isRecord } from "../../shared/contract.js";

/** Maps where the user's entries are kept next to the generator's. */
const MERGED_MAPS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies", "scripts"];

type Json = Record<string, unknown>;

/**
 * Merges the generated package.json with the one on disk, so that the user's additions survive a
 * regeneration: the generator's fields win, but dependencies and scripts the user added, and top-level
 * fields the generator does not write (publishConfig, author…), are kept. Returns undefined when the
 * file on disk is not a JSON object (then it is treated like any other hand-edited file).
 */
export function mergePackageJson(generated: string, onDisk: string): string | undefined {
  let user: unknown;
  try {
    user = JSON.parse(onDisk);
  } catch {
    return undefined;
  }
  if (!isRecord(user)) return undefined;
  const merged: Json = JSON.parse(generated) as Json;
  for (const key of MERGED_MAPS) {
    const mine = user[key];
    if (!isRecord(mine)) continue;
    const ours = isRecord(merged[key]) ? (merged[key] as Json) : {};
    const extra = Object.fromEntries(Object.entries(mine).filter(([name]) => !(name in ours)));
    if (Object.keys(extra).length > 0) merged[key] = { ...ours, ...extra };
  }
  for (const [key, value] of Object.entries(user)) if (!(key in merged)) merged[key] = value;
  return JSON.stringify(merged, null, 2) + "\n";
}
