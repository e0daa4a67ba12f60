/**
 * Feature `server-vars`, included when the spec's server URL has variables
 * (`https://{region}.api.example.com/{version}`): each is set with `--server-var name=value`, its
 * environment variable or the spec's default, and checked against the spec's `enum`.
 */
import type { Feature } from "../../cli/features.js";
import type { ServerInfo } from "../../api/types.js";
import { nonEmpty, type ResolveServerUrl } from "../../upstream/server-url.js";

export const serverVars: Feature = {
  name: "server-vars",
  flags: { "server-var": { type: "string", multiple: true } },
  usage: serverVarUsage,
  plugs: () => ({ serverUrl: fillServerUrl }),
};

/** Help lines for the server URL's variables (none when the URL has none). */
function serverVarUsage(info: ServerInfo): string {
  const variables = info.serverUrl?.variables ?? [];
  if (variables.length === 0) return "";
  const lines = variables.map((v) => {
    const facts = [
      `env ${v.env}`,
      ...(v.default !== undefined ? [`default ${v.default}`] : []),
      ...(v.enum ? [`one of ${v.enum.join(", ")}`] : []),
    ];
    return `                     ${v.name}: ${facts.join("; ")}\n`;
  });
  return `  --server-var N=V   set a variable of the server URL ${info.serverUrl!.template}\n${lines.join("")}`;
}

/** The base URL: `explicit` (`--base-url`, `API_BASE_URL`) as given, else the template filled; never throws. */
export const fillServerUrl: ResolveServerUrl = (template, sources, explicit) => {
  const flagValues = new Map<string, string>();
  for (const pair of sources.serverVars ?? []) {
    const eq = pair.indexOf("=");
    const name = eq > 0 ? pair.slice(0, eq) : "";
    if (!name) return { ok: false, message: `--server-var expects name=value, got '${pair}'` };
    if (!template.variables.some((v) => v.name === name)) {
      const known = template.variables.map((v) => v.name).join(", ");
      return {
        ok: false,
        message: `--server-var ${name}: the server URL has ${known ? `the variables ${known}` : "no variables"}`,
      };
    }
    flagValues.set(name, pair.slice(eq + 1));
  }
  if (explicit !== undefined) return { ok: true, baseUrl: explicit };

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
};
