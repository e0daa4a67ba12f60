// @mcp-gen/runtime 0.1.0, vendored by mcp-gen. Do not edit: changes are lost when the server is regenerated.
/**
 * The upstream base URL: `--base-url` or `API_BASE_URL` as given, else the spec's server URL
 * template with its variables filled from `--server-var name=value`, their environment variables
 * or the spec's defaults, each checked against the spec's `enum`.
 */
import type { ServerInfo } from "../api/types.js";

/** Outcome of {@link resolveBaseUrl}: a URL (or none at all), or a message for the user. */
export type BaseUrlResolution = { ok: true; baseUrl: string | undefined } | { ok: false; message: string };

/** Where the user's choices come from. */
export interface BaseUrlSources {
  /** `--base-url`. */
  flag?: string | undefined;
  /** `--server-var name=value` flags, in order (later wins). */
  serverVars?: string[];
  env: NodeJS.ProcessEnv;
}

/** A flag or environment value trimmed, or undefined when absent or blank. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** Picks the base URL; never throws. */
export function resolveBaseUrl(info: ServerInfo, sources: BaseUrlSources): BaseUrlResolution {
  const explicit = nonEmpty(sources.flag) ?? nonEmpty(sources.env.API_BASE_URL);
  const template = info.serverUrl;
  const flagValues = new Map<string, string>();
  for (const pair of sources.serverVars ?? []) {
    const eq = pair.indexOf("=");
    const name = eq > 0 ? pair.slice(0, eq) : "";
    if (!name) return { ok: false, message: `--server-var expects name=value, got '${pair}'` };
    if (!template?.variables.some((v) => v.name === name)) {
      const known = template?.variables.map((v) => v.name).join(", ");
      return {
        ok: false,
        message: `--server-var ${name}: the server URL has ${known ? `the variables ${known}` : "no variables"}`,
      };
    }
    flagValues.set(name, pair.slice(eq + 1));
  }
  if (explicit !== undefined) return { ok: true, baseUrl: explicit };
  if (!template) return { ok: true, baseUrl: info.defaultBaseUrl };

  const values = new Map<string, string>();
  for (const variable of template.variables) {
    const value = flagValues.get(variable.name) ?? nonEmpty(sources.env[variable.env]) ?? variable.default;
    if (value === undefined)
      return {
        ok: false,
        message: `the server URL ${template.template} needs ${variable.name}: set ${variable.env} or pass --server-var ${variable.name}=…`,
      };
    if (variable.enum && !variable.enum.includes(value)) {
      return { ok: false, message: `${variable.env}: '${value}' is not one of ${variable.enum.join(", ")}` };
    }
    values.set(variable.name, value);
  }
  // Values are inserted as written: a variable may hold a host, a port or path segments.
  const baseUrl = template.template
    .replace(/\{([^}]+)\}/g, (whole, name: string) => values.get(name) ?? whole)
    .replace(/\/+$/, "");
  return { ok: true, baseUrl };
}
