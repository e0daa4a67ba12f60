/**
 * Fields a caller chooses (`_fields`): paths into an operation's output, checked against the paths
 * the generator listed from the response schema, and the projection of a body onto them.
 *
 * A path is property names joined by dots (`user.login`); `[]` after a name marks an array
 * (`labels[].name`) and may be left out: arrays are crossed wherever they are, so `number` selects
 * the `number` of every item of a list body. A listed path ending in `.*` stands for everything
 * below it (a map, a free-form object, or a level the list does not spell out).
 */
import { getOwn, isRecord, setOwn } from "../protocol/own.js";

/** The segments of a path, `[]` markers dropped: `labels[].name` → `["labels", "name"]`. */
export function pathSegments(path: string): string[] {
  return path
    .split(".")
    .map((segment) => segment.replace(/\[\]$/, ""))
    .filter((segment) => segment !== "");
}

/** A chosen path's check: the paths to project by, or the unknown ones with the nearest known ones. */
export type FieldCheck = { ok: true; paths: string[][] } | { ok: false; unknown: string[]; nearest: string[] };

/**
 * Checks `requested` against `known` (the generator's list; empty: any path goes). A path is known
 * when it is listed or lies below a listed `.*` path.
 */
export function checkFields(requested: readonly string[], known: readonly string[]): FieldCheck {
  const paths = requested.map(pathSegments);
  if (known.length === 0) return { ok: true, paths };
  const exact = new Set<string>();
  const open: string[] = [];
  for (const entry of known) {
    const joined = pathSegments(entry.endsWith(".*") ? entry.slice(0, -2) : entry).join(".");
    exact.add(joined);
    if (entry.endsWith(".*")) open.push(joined + ".");
  }
  const unknown = requested.filter((_, i) => {
    const joined = paths[i]!.join(".");
    return joined === "" || (!exact.has(joined) && !open.some((prefix) => joined.startsWith(prefix)));
  });
  if (unknown.length === 0) return { ok: true, paths };
  return { ok: false, unknown, nearest: nearestPaths(unknown, known) };
}

/** Up to `limit` known paths closest to the unknown ones (edit distance, then a shared last name). */
export function nearestPaths(unknown: readonly string[], known: readonly string[], limit = 8): string[] {
  const scored = new Map<string, number>();
  for (const wrong of unknown) {
    const wrongPath = pathSegments(wrong).join(".");
    const wrongLast = wrongPath.split(".").at(-1) ?? "";
    for (const entry of known) {
      const path = pathSegments(entry.replace(/\.\*$/, "")).join(".");
      const sharesLast = path.split(".").at(-1) === wrongLast ? 0 : 1;
      const score = editDistance(wrongPath, path) + sharesLast;
      scored.set(entry, Math.min(scored.get(entry) ?? Infinity, score));
    }
  }
  return [...scored.entries()]
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([entry]) => entry);
}

/**
 * The known paths one name deep (`number`, `labels[]`, `extra.*`): what a refusal lists beside the
 * nearest ones, as the tool's input schema shows the paths only when they are few (the generator's
 * output-fields.ts), so that one refused call tells a model the result's fields.
 */
export function topLevelPaths(known: readonly string[]): string[] {
  return known.filter((entry) => pathSegments(entry.replace(/\.\*$/, "")).length === 1);
}

/**
 * Levenshtein distance, written here: a dozen lines for short paths do not justify a dependency
 * in every generated server.
 */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The selection tree of some paths: `true` keeps a value whole, a subtree keeps part of it. */
type Selection = Map<string, Selection | true>;

function selectionOf(paths: readonly string[][]): Selection {
  const root: Selection = new Map();
  for (const path of paths) {
    let node = root;
    path.forEach((segment, i) => {
      const existing = node.get(segment);
      if (existing === true) return;
      if (i === path.length - 1) {
        node.set(segment, true);
        return;
      }
      const child: Selection = existing ?? new Map();
      node.set(segment, child);
      node = child;
    });
  }
  return root;
}

/**
 * `value` with only the chosen paths: objects keep the selected properties (in their own order),
 * arrays are crossed (each item projected), a scalar where a deeper path was asked stays as it is.
 */
export function projectFields(value: unknown, paths: readonly string[][]): unknown {
  return project(value, selectionOf(paths));
}

function project(value: unknown, selection: Selection): unknown {
  if (Array.isArray(value)) return value.map((item) => project(item, selection));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const chosen = selection.get(key);
    if (chosen === undefined) continue;
    const child = getOwn(value, key);
    setOwn(out, key, chosen === true ? child : project(child, chosen));
  }
  return out;
}
