/**
 * Client profiles at run time: what the server needs of `profiles/clients/*.json` to shape what it
 * serves to one client. The generator copies that part of each profile into the project's
 * `data/client-profiles.json` (the runtime never reads the generator's files); `main` reads it and
 * matches each request's client: the `clientInfo` of the legacy `initialize`, or the modern
 * request's `_meta["io.modelcontextprotocol/clientInfo"]`, or the profile `--client` names.
 */
import { isRecord } from "../../protocol/own.js";
import type { ClientInfo } from "../../protocol/client-info.js";
import type { SchemaRules } from "./client-schema.js";

/** What one profile tells the runtime (a subset of the profile file, see the generator's profiles.ts). */
export interface RuntimeProfile {
  id: string;
  name: string;
  /** Regular expressions (case-insensitive) one of which a client's `clientInfo.name` matches. */
  clientNames: string[];
  /** Tools the client passes on; sets the `auto` surface's tool budget. */
  maxTools?: number;
  /** Estimated tokens of `tools/list` the client takes in full; sets the `auto` token budget. */
  maxListTokens?: number;
  /** A regular expression tool names must match. */
  namePattern?: string;
  /** Characters of the server name, one separator and the tool name together. */
  maxQualifiedName?: number;
  /** How input schemas are rewritten for this client; absent: served as they are. */
  schema?: SchemaRules;
}

/** Parses `data/client-profiles.json`; throws naming the file's problem. */
export function parseClientProfiles(text: string): RuntimeProfile[] {
  const data = JSON.parse(text) as unknown;
  if (
    !Array.isArray(data) ||
    !data.every((item) => isRecord(item) && typeof item.id === "string" && Array.isArray(item.clientNames))
  ) {
    throw new Error("client-profiles.json must be an array of profiles with an id and clientNames");
  }
  return data as RuntimeProfile[];
}

/** The first profile whose client names match `client`'s name (profiles in file order). */
export function matchProfile(
  profiles: readonly RuntimeProfile[],
  client: ClientInfo | undefined,
): RuntimeProfile | undefined {
  if (!client) return undefined;
  return profiles.find((profile) =>
    profile.clientNames.some((pattern) => clientNamePattern(pattern).test(client.name)),
  );
}

/** Client-name patterns compiled once (matchProfile runs on every request); the profiles' patterns are few and fixed. */
const compiledPatterns = new Map<string, RegExp>();

function clientNamePattern(pattern: string): RegExp {
  let compiled = compiledPatterns.get(pattern);
  if (!compiled) {
    compiled = new RegExp(pattern, "i"); // no `g` or `y` flag: test() keeps no state between calls
    compiledPatterns.set(pattern, compiled);
  }
  return compiled;
}

/** The profile `--client` (or `MCP_CLIENT`) names; throws naming the choices. */
export function profileById(profiles: readonly RuntimeProfile[], id: string): RuntimeProfile {
  const found = profiles.find((profile) => profile.id === id);
  if (!found)
    throw new Error(
      `--client must be one of ${profiles.map((p) => p.id).join(", ") || "(no profiles in data/client-profiles.json)"} (got '${id}')`,
    );
  return found;
}
