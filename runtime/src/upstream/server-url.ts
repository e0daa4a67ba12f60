/**
 * The upstream base URL: `--base-url` or `API_BASE_URL` as given, else the spec's server URL, its
 * variables filled by feature `server-vars` (included when the spec's server URL has variables).
 */
import type { ServerInfo, ServerUrlDefinition } from "../api/types.js";

/** Outcome of {@link resolveBaseUrl}: a URL (or none at all), or a message for the user. */
export type BaseUrlResolution = { ok: true; baseUrl: string | undefined } | { ok: false; message: string };

/** The user's choices: `--base-url`, `--server-var name=value` flags (later wins), the environment. */
export interface BaseUrlSources {
  flag?: string | undefined;
  serverVars?: string[];
  env: NodeJS.ProcessEnv;
}

/** Fills a server URL template's variables (feature `server-vars`); `explicit` wins when given. */
export type ResolveServerUrl = (
  template: ServerUrlDefinition,
  sources: BaseUrlSources,
  explicit: string | undefined,
) => BaseUrlResolution;

/** A flag or environment value trimmed, or undefined when absent or blank. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** Picks the base URL; never throws. */
export function resolveBaseUrl(
  info: ServerInfo,
  sources: BaseUrlSources,
  serverUrl?: ResolveServerUrl,
): BaseUrlResolution {
  const explicit = nonEmpty(sources.flag) ?? nonEmpty(sources.env.API_BASE_URL);
  if (info.serverUrl && serverUrl) return serverUrl(info.serverUrl, sources, explicit);
  return { ok: true, baseUrl: explicit ?? info.defaultBaseUrl };
}
