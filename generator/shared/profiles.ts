/**
 * Client profiles: what each MCP client (or the model API behind it) drops, truncates or refuses.
 * The figures are data, one JSON file per client under `profiles/clients/`, each with its sources,
 * so they can be updated without touching code.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeProfile, SchemaRules } from "./contract.js";
import { packageRoot } from "./package-root.js";

/**
 * What the client does with tools past a limit: drops them silently, refuses the request, shortens
 * names, defers them (loads them on demand), or only in an opt-in mode (`note`: not a failure);
 * `adapted` tells what a generated server changes for the client at run time (not a failure).
 */
export type LimitEffect = "drop" | "reject" | "truncate" | "defer" | "note" | "adapted";

/** One limit of a profile: its value, what happens past it, and a sentence saying so. */
export interface Limit<T> {
  value: T;
  effect: LimitEffect;
  text: string;
}

/** The rules of strict mode (OpenAI structured outputs) for an input schema. */
export interface StrictSchemaRules {
  maxDepth: number;
  maxProperties: number;
  maxEnumValues: number;
  unsupported: string[];
}

/** One client profile (see profiles/clients/*.json). */
export interface ClientProfile {
  id: string;
  name: string;
  /** When the figures were last checked (year-month). */
  checked: string;
  sources: string[];
  /** How a generated server recognises the client: regular expressions on its `clientInfo.name`. */
  clientInfo: { names: string[]; text: string };
  /** How a generated server rewrites input schemas for this client (absent: served as they are). */
  schema?: { value: SchemaRules; text: string };
  limits: {
    /** Tools per request (or passed on to the model). */
    maxTools?: Limit<number>;
    /** Characters of the server name plus the tool name. */
    maxQualifiedName?: Limit<number>;
    /** A regular expression tool names must match. */
    namePattern?: Limit<string>;
    /** Estimated tokens of `tools/list`. */
    maxListTokens?: Limit<number>;
    /** Nesting levels of an input schema. */
    maxSchemaDepth?: Limit<number>;
    strictSchema?: Limit<StrictSchemaRules>;
  };
}

let loaded: ClientProfile[] | undefined;

/** Every profile shipped with mcp-gen, sorted by id. */
export function clientProfiles(): ClientProfile[] {
  if (!loaded) {
    const dir = join(packageRoot(), "profiles", "clients");
    loaded = readdirSync(dir)
      .filter((file) => file.endsWith(".json"))
      .sort()
      .map((file) => JSON.parse(readFileSync(join(dir, file), "utf8")) as ClientProfile);
  }
  return loaded;
}

/** The profiles `--client` names: one id, or every profile for `all`; throws naming the choices. */
export function selectProfiles(choice: string): ClientProfile[] {
  const all = clientProfiles();
  if (choice === "all") return all;
  const found = all.filter((profile) => profile.id === choice);
  if (found.length === 0)
    throw new Error(`--client must be all or one of ${all.map((p) => p.id).join(", ")} (got '${choice}')`);
  return found;
}

/**
 * What a generated server needs of each profile to adapt at run time (data/client-profiles.json):
 * how it recognises the client, the limits it serves within, its schema rules. Sources and texts stay here.
 */
export function runtimeProfiles(profiles: ClientProfile[] = clientProfiles()): RuntimeProfile[] {
  return profiles.map((profile) => {
    const { maxTools, maxListTokens, namePattern, maxQualifiedName } = profile.limits;
    return {
      id: profile.id,
      name: profile.name,
      clientNames: profile.clientInfo.names,
      ...(maxTools ? { maxTools: maxTools.value } : {}),
      ...(maxListTokens ? { maxListTokens: maxListTokens.value } : {}),
      ...(namePattern ? { namePattern: namePattern.value } : {}),
      ...(maxQualifiedName ? { maxQualifiedName: maxQualifiedName.value } : {}),
      ...(profile.schema ? { schema: profile.schema.value } : {}),
    };
  });
}
