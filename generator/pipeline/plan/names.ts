import { createHash } from "node:crypto";

/**
 * MCP tool names we emit: `[A-Za-z0-9_-]{1,64}`. MCP itself also allows `.`, but clients hand tool
 * names on to model APIs that refuse it (Claude's and OpenAI's tools take `[A-Za-z0-9_-]` only), so a
 * dot would make the tool unusable there.
 */
export const TOOL_NAME_MAX = 64;

/** A short stable hash, used to keep truncated names unique. */
export function shortHash(value: string, length = 6): string {
  return createHash("sha256").update(value).digest("hex").slice(0, length);
}

/**
 * Common long words of API operation names and the short forms developers already read fluently.
 * Applied only to names over the limit, so short names stay exactly as the spec wrote them.
 */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ["administrator", "admin"],
  ["administrators", "admins"],
  ["application", "app"],
  ["applications", "apps"],
  ["attachment", "attach"],
  ["attachments", "attachs"],
  ["authenticated", "auth"],
  ["authentication", "authn"],
  ["authorization", "authz"],
  ["certificate", "cert"],
  ["certificates", "certs"],
  ["configuration", "config"],
  ["configurations", "configs"],
  ["definition", "def"],
  ["definitions", "defs"],
  ["dependencies", "deps"],
  ["dependency", "dep"],
  ["deployment", "deploy"],
  ["deployments", "deploys"],
  ["description", "desc"],
  ["development", "dev"],
  ["directory", "dir"],
  ["directories", "dirs"],
  ["environment", "env"],
  ["environments", "envs"],
  ["identifier", "id"],
  ["identifiers", "ids"],
  ["information", "info"],
  ["installation", "install"],
  ["installations", "installs"],
  ["management", "mgmt"],
  ["message", "msg"],
  ["messages", "msgs"],
  ["namespaced", "ns"],
  ["namespace", "ns"],
  ["notification", "notif"],
  ["notifications", "notifs"],
  ["organization", "org"],
  ["organizations", "orgs"],
  ["parameter", "param"],
  ["parameters", "params"],
  ["permission", "perm"],
  ["permissions", "perms"],
  ["properties", "props"],
  ["property", "prop"],
  ["reference", "ref"],
  ["references", "refs"],
  ["repositories", "repos"],
  ["repository", "repo"],
  ["specification", "spec"],
  ["statistics", "stats"],
  ["subscription", "sub"],
  ["subscriptions", "subs"],
  ["temporary", "temp"],
  ["vulnerabilities", "vulns"],
  ["vulnerability", "vuln"],
]);

/** `name` with the long words of {@link ABBREVIATIONS} shortened, keeping each word's leading case. */
export function abbreviateName(name: string): string {
  return name.replace(/[A-Z]?[a-z]+/g, (word) => {
    const short = ABBREVIATIONS.get(word.toLowerCase());
    if (!short) return word;
    return word[0] === word[0]!.toUpperCase() ? short[0]!.toUpperCase() + short.slice(1) : short;
  });
}

/**
 * Fits a name in `max` characters without losing its meaning where possible: long words are
 * abbreviated first; only a name still too long is cut and ends in a hash of the full name.
 */
export function truncateName(name: string, max: number): string {
  if (name.length <= max) return name;
  const abbreviated = abbreviateName(name);
  if (abbreviated.length <= max) return abbreviated;
  const hash = shortHash(name);
  return `${abbreviated.slice(0, max - hash.length - 1).replace(/[_.-]+$/, "")}_${hash}`;
}

/** `operationId` → tool name: invalid characters (dots too) become `_`, runs collapse, ends trimmed. */
export function sanitizeToolName(raw: string): string {
  return raw
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/_{2,}/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "");
}

/**
 * Whether a name from a tool-name lock may be kept. Projects generated before dots were replaced
 * may hold dotted names; they stay (renaming a tool breaks its callers) until the lock is deleted.
 */
export function isLockableToolName(name: string): boolean {
  return (
    name.length > 0 && name.length <= TOOL_NAME_MAX && /^[A-Za-z0-9_.-]+$/.test(name) && !/^[_.-]|[_.-]$/.test(name)
  );
}

/** A tool name from method and path when there is no operationId: `get_pets_petId`. */
export function nameFromRoute(method: string, path: string): string {
  const segments = path
    .split("/")
    .filter(Boolean)
    .map((segment) => segment.replace(/[{}]/g, ""));
  return sanitizeToolName([method, ...segments].join("_")) || method;
}

/** Whether a name ends in the hash {@link truncateName} gives a name it had to cut (before a `_2` suffix). */
export function isCutName(name: string, max = TOOL_NAME_MAX): boolean {
  return name.length > max - 12 && /_[0-9a-f]{6}$/.test(name.replace(/_\d+$/, ""));
}

/**
 * A readable PascalCase name from an operation's method and path words, at most `max` characters
 * (`PUT /books/{isbn}` → `PutBooksIsbn`): long words abbreviated, then the leading path words
 * dropped (the method and the most specific words stay) until it fits; never a hash.
 */
export function routeTypeName(method: string, path: string, max: number): string {
  const parts = [method, ...path.split("/").map((segment) => segment.replace(/[{}]/g, ""))]
    .map((part) => abbreviateName(pascalCase(part)))
    .filter((part) => part !== "" && part !== "T");
  while (parts.length > 2 && parts.join("").length > max) parts.splice(1, 1);
  return parts.join("").slice(0, max);
}

/**
 * Hands out unique names deterministically: the first claimant keeps its name, later ones get
 * `_2`, `_3`… (within the length budget). Uniqueness is case-insensitive so that names also work
 * as file names on case-insensitive file systems.
 */
export class NameAllocator {
  private readonly taken = new Set<string>();

  constructor(
    private readonly max = Number.POSITIVE_INFINITY,
    reserved: Iterable<string> = [],
  ) {
    for (const name of reserved) this.taken.add(name.toLowerCase());
  }

  /** Whether `name` is taken (case-insensitively). */
  has(name: string): boolean {
    return this.taken.has(name.toLowerCase());
  }

  /** Returns `wanted` or the first free variant of it, and marks it taken. */
  claim(wanted: string): string {
    let name = truncateName(wanted, this.max);
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) {
      const suffix = `_${n}`;
      name = truncateName(wanted, this.max - suffix.length) + suffix;
    }
    this.taken.add(name.toLowerCase());
    return name;
  }
}

const RESERVED_WORDS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await any boolean number string symbol " +
    "object unknown never undefined type"
  ).split(" "),
);

/** Words of a name, for case conversion. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/** `list_pets.v2` → `ListPetsV2`; never starts with a digit. */
export function pascalCase(name: string): string {
  const result = words(name)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
  return /^[A-Za-z_$]/.test(result) ? result : `T${result}`;
}

/** `list_pets.v2` → `listPetsV2`; never a reserved word. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  const result = pascal.charAt(0).toLowerCase() + pascal.slice(1);
  return RESERVED_WORDS.has(result) ? `${result}_` : result;
}

/** Whether a string can be written as a bare TypeScript property name. */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
}
