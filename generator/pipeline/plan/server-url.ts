/**
 * The upstream URL facts of the generated server: the default base URL and, when the spec's server
 * URL has variables (`https://{region}.example.com/{version}`), the template the server fills at
 * start from `--server-var`, `API_SERVER_<NAME>` or the spec's defaults.
 */
import { Codes, type DiagnosticBag } from "../../shared/diagnostics.js";
import type { ApiIR, ServerIR } from "../ir/ir-types.js";
import type { ServerUrlDefinition } from "../../shared/contract.js";
import type { EnvVarPlan } from "./plan-types.js";

/** What the planner decides about the upstream URL. */
export interface ServerUrlPlan {
  defaultBaseUrl?: string;
  serverUrl?: ServerUrlDefinition;
  /** `API_BASE_URL` first, then one variable per server variable. */
  env: EnvVarPlan[];
}

const ABSOLUTE = /^https?:\/\//i;

/** Environment variable of a server variable: `API_SERVER_` + the name in upper snake case. */
export function serverVariableEnv(name: string): string {
  return `API_SERVER_${
    name
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/[^A-Za-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .toUpperCase() || "VALUE"
  }`;
}

/**
 * Picks the first server whose URL (defaults filled in) is absolute. Its variables become settings
 * only when the template itself is absolute in scheme, so a variable can never turn the URL relative.
 */
export function planServerUrl(ir: ApiIR, bag: DiagnosticBag): ServerUrlPlan {
  const chosen = ir.servers.find(
    (s) => ABSOLUTE.test(s.url) || (s.variables.length > 0 && ABSOLUTE.test(withDefaults(s))),
  );
  if (!chosen && ir.servers.length > 0) {
    bag.info(
      Codes.serverUrlRelative,
      `The spec's server URL "${ir.servers[0]!.url}" is not absolute; the server needs --base-url or API_BASE_URL.`,
      ir.servers[0]!.pointer,
    );
  }
  const complete = chosen && !chosen.url.includes("{") ? chosen.url.replace(/\/+$/, "") : undefined;
  const serverUrl = chosen && chosen.variables.length > 0 ? definition(chosen) : undefined;
  const env: EnvVarPlan[] = [
    {
      name: "API_BASE_URL",
      description: complete
        ? `Base URL of the upstream API (default: ${complete}). Same as --base-url${serverUrl ? "; overrides the server variables" : ""}.`
        : "Base URL of the upstream API. Same as --base-url.",
      required: complete === undefined && serverUrl === undefined,
      example: complete ?? "https://api.example.com",
    },
    ...(serverUrl?.variables ?? []).map((v) => ({
      name: v.env,
      description: `Variable \`${v.name}\` of the server URL ${serverUrl!.template}${v.description ? `: ${v.description}` : ""}${v.enum ? ` (one of ${v.enum.join(", ")})` : ""}${v.default !== undefined ? ` (default: ${v.default})` : ""}. Same as --server-var ${v.name}=….`,
      required: v.default === undefined,
      ...(v.default !== undefined ? { example: v.default } : v.enum ? { example: v.enum[0]! } : {}),
    })),
  ];
  return { ...(complete ? { defaultBaseUrl: complete } : {}), ...(serverUrl ? { serverUrl } : {}), env };
}

/** The server URL with every variable that has a default filled in. */
function withDefaults(server: ServerIR): string {
  return server.template.replace(
    /\{([^}]+)\}/g,
    (whole, name: string) => server.variables.find((v) => v.name === name)?.default ?? "x",
  );
}

function definition(server: ServerIR): ServerUrlDefinition {
  const taken = new Set<string>(["API_BASE_URL"]);
  return {
    template: server.template,
    variables: server.variables.map((v) => {
      let env = serverVariableEnv(v.name);
      for (let i = 2; taken.has(env); i++) env = `${serverVariableEnv(v.name)}_${i}`;
      taken.add(env);
      return {
        name: v.name,
        env,
        ...(v.default !== undefined ? { default: v.default } : {}),
        ...(v.enum ? { enum: v.enum } : {}),
        ...(v.description ? { description: v.description } : {}),
      };
    }),
  };
}
