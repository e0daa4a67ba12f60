/**
 * Tool names a client takes: within its profile's name pattern and, together with the server's name
 * in the client's configuration, within its qualified-name limit. A name that already fits is served
 * as it is; another is rewritten (characters outside `[A-Za-z0-9_-]` become `_`, a leading non-letter
 * gets `t_`, a long name is cut and ends in a hash of the original) so the result depends only on the
 * original name: stable across runs and servers. The map is kept both ways, so a call with the served
 * name reaches its operation.
 */
import { createHash } from "node:crypto";

/** The key a server gets in the clients' configurations: the package name without scope, in `[A-Za-z0-9_-]`. */
export function configServerName(packageName: string): string {
  const base = packageName
    .replace(/^@[^/]+\//, "")
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/^[^A-Za-z]+/, "");
  return base || "server";
}

/** Served name ↔ original name, for the tools of one profile. */
export interface NameMap {
  served(original: string): string;
  /** The original name of a served one (a name served unchanged maps to itself); undefined when unknown. */
  original(served: string): string | undefined;
  /** How many names were rewritten. */
  readonly renamed: number;
}

/** The rules one profile sets for names. */
export interface NameRules {
  /** A regular expression names must match. */
  pattern?: string;
  /** Longest tool name (the qualified-name limit less the server name and its separator). */
  maxLength?: number;
}

/** Characters of the hash that ends a shortened name. */
const HASH_CHARS = 6;

function hashOf(name: string): string {
  return BigInt(`0x${createHash("sha256").update(name).digest("hex").slice(0, 15)}`)
    .toString(36)
    .padStart(HASH_CHARS, "0")
    .slice(0, HASH_CHARS);
}

/** Whether `name` fits the rules. */
export function fitsNameRules(
  name: string,
  rules: NameRules,
  pattern = rules.pattern ? new RegExp(rules.pattern) : undefined,
): boolean {
  return (
    (rules.maxLength === undefined || name.length <= rules.maxLength) && (pattern === undefined || pattern.test(name))
  );
}

/** A name that fits the rules for `original` (`salt` > 0 varies the hash when names collide). */
function rewrite(original: string, rules: NameRules, salt: number): string {
  let name = original.replace(/[^A-Za-z0-9_-]/g, "_");
  if (!/^[A-Za-z_]/.test(name)) name = `t_${name}`;
  const max = Math.max(HASH_CHARS + 2, rules.maxLength ?? 64);
  const hash = hashOf(salt === 0 ? original : `${original}\u0000${salt}`);
  if (salt > 0 || name.length > max) name = `${name.slice(0, max - HASH_CHARS - 1).replace(/[_-]+$/, "")}_${hash}`;
  return name;
}

/**
 * The name map of `names` (in tool order) under `rules`. Names that fit keep their name; a rewritten
 * name never takes one another tool is served under (a collision changes the later one's hash).
 */
export function nameMap(names: readonly string[], rules: NameRules): NameMap {
  const pattern = rules.pattern ? new RegExp(rules.pattern) : undefined;
  const toServed = new Map<string, string>();
  const toOriginal = new Map<string, string>();
  const misfits: string[] = [];
  for (const name of names) {
    if (fitsNameRules(name, rules, pattern)) {
      toServed.set(name, name);
      toOriginal.set(name, name);
    } else misfits.push(name);
  }
  for (const name of misfits) {
    let salt = 0;
    let served = rewrite(name, rules, salt);
    while (toOriginal.has(served) && salt < 100) served = rewrite(name, rules, ++salt);
    // A name no rewrite fits (a pattern stricter than the rewrite knows) is served unchanged.
    if (!fitsNameRules(served, rules, pattern) || toOriginal.has(served)) served = name;
    toServed.set(name, served);
    toOriginal.set(served, name);
  }
  const renamed = misfits.filter((name) => toServed.get(name) !== name).length;
  return {
    served: (original) => toServed.get(original) ?? original,
    original: (served) => toOriginal.get(served),
    renamed,
  };
}
