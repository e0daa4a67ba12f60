import type { SecurityRequirement, SecuritySchemeDefinition } from "../../shared/contract.js";
import { Codes, DiagnosticBag } from "../../shared/diagnostics.js";
import type { ApiIR, OperationIR, SecuritySchemeIR } from "../ir/ir-types.js";
import type { EnvVarPlan } from "./plan-types.js";

/**
 * `--auth` for specs that declare no security (GitHub's): how every operation without
 * requirements may authenticate. The credential is optional, so public endpoints still work.
 */
export type AuthOverride = "bearer" | "basic" | `header:${string}` | `query:${string}`;

/** Checks a `--auth` value; undefined when it is not one of the accepted forms. */
export function parseAuthOverride(value: string): AuthOverride | undefined {
  if (value === "bearer" || value === "basic") return value;
  if (/^(header|query):[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(value)) return value as AuthOverride;
  return undefined;
}

/** `petstore_auth` → `PETSTORE_AUTH`, `bearerAuth` → `BEARER_AUTH`, with an optional prefix. */
export function envName(key: string, prefix = ""): string {
  const snake = key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  const name = `${prefix}${snake || "AUTH"}`;
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/** The scheme the `--auth` override adds. */
function overrideScheme(auth: AuthOverride): SecuritySchemeIR {
  if (auth === "bearer")
    return { pointer: "#", key: "api_token", type: "http", scheme: "bearer", description: "Added by --auth bearer" };
  if (auth === "basic")
    return { pointer: "#", key: "api", type: "http", scheme: "basic", description: "Added by --auth basic" };
  const [location, name] = auth.split(":") as ["header" | "query", string];
  return { pointer: "#", key: "api_key", type: "apiKey", in: location, name, description: `Added by --auth ${auth}` };
}

/** The environment variables of a scheme, by role. */
function envFor(scheme: SecuritySchemeIR, prefix: string): SecuritySchemeDefinition["env"] {
  const base = envName(scheme.key, prefix);
  switch (scheme.type) {
    case "apiKey":
      return { token: base };
    case "http":
      return scheme.scheme === "basic"
        ? { username: `${base}_USERNAME`, password: `${base}_PASSWORD` }
        : { token: base };
    case "oauth2":
    case "openIdConnect":
      return {
        token: base,
        clientId: `${base}_CLIENT_ID`,
        clientSecret: `${base}_CLIENT_SECRET`,
        scopes: `${base}_SCOPES`,
      };
    case "mutualTLS":
      return { cert: `${base}_CERT`, key: `${base}_KEY` };
  }
}

/** What each variable is, for the README and .env.example. */
function describeVariable(scheme: SecuritySchemeIR, role: string): string {
  const what =
    scheme.type === "apiKey"
      ? `API key sent in ${scheme.in} \`${scheme.name}\``
      : scheme.type === "http"
        ? scheme.scheme === "basic"
          ? `HTTP basic ${role}`
          : `${scheme.scheme === "bearer" ? "Bearer" : scheme.scheme} token for the Authorization header`
        : scheme.type === "mutualTLS"
          ? `Path of the client ${role === "cert" ? "certificate" : "private key"} (PEM) for mutual TLS`
          : ({
              token: "Ready OAuth access token (instead of client credentials)",
              clientId:
                scheme.authorizationCode || scheme.type === "openIdConnect"
                  ? "OAuth client id of the app registered upstream (each user signs in; client credentials otherwise)"
                  : "OAuth client id (client-credentials flow)",
              clientSecret: "OAuth client secret",
              scopes: "OAuth scopes to request, space-separated (default: the operation's)",
            }[role] ?? role);
  return `${what} (scheme \`${scheme.key}\`).`;
}

/** The security part of the plan. */
export interface SecurityPlan {
  schemes: SecuritySchemeDefinition[];
  /** Effective requirements per operation pointer (absent = none). */
  requirements: Map<string, SecurityRequirement[]>;
  env: EnvVarPlan[];
}

/**
 * Maps every scheme an operation uses to credentials read from the environment, and works out
 * each operation's effective requirements (operation `security`, else the document's; `[]` = none).
 */
export function planSecurity(
  ir: ApiIR,
  options: { auth?: AuthOverride; envPrefix?: string },
  toolName: (op: OperationIR) => string,
  bag: DiagnosticBag,
): SecurityPlan {
  const prefix = options.envPrefix ?? "";
  const known = new Map(ir.securitySchemes.map((s) => [s.key, s]));
  const override = options.auth ? overrideScheme(options.auth) : undefined;
  if (override) known.set(override.key, override);
  const requirements = new Map<string, SecurityRequirement[]>();
  const users = new Map<string, string[]>();
  for (const op of ir.operations) {
    // An undefined scheme cannot be sent; the others of its alternative still are (dropping the
    // whole alternative would send none of them, which the API refuses). An alternative of
    // undefined schemes only is ignored (it is not anonymous access).
    let effective = (op.security ?? ir.security ?? []).flatMap((requirement) => {
      const unknown = Object.keys(requirement).filter((key) => !known.has(key));
      if (unknown.length === 0) return [requirement];
      const kept = Object.fromEntries(Object.entries(requirement).filter(([key]) => known.has(key)));
      const some = Object.keys(kept).length > 0;
      bag.warn(
        Codes.securityUnknownScheme,
        `Security requirement names undefined scheme(s) ${unknown.join(", ")}; ${some ? `the alternative is applied without ${unknown.length > 1 ? "them" : "it"}` : "that alternative is ignored"}.`,
        `${op.pointer}/security`,
        "Define the scheme under components.securitySchemes (securityDefinitions in 2.0).",
      );
      return some ? [kept] : [];
    });
    if (effective.length === 0 && override) effective = [{ [override.key]: [] }, {}];
    if (effective.length === 0 || effective.every((r) => Object.keys(r).length === 0)) continue;
    requirements.set(op.pointer, effective);
    for (const key of new Set(effective.flatMap((r) => Object.keys(r))))
      users.set(key, [...(users.get(key) ?? []), toolName(op)]);
  }
  const schemes: SecuritySchemeDefinition[] = [];
  const env: EnvVarPlan[] = [];
  for (const scheme of known.values()) {
    const tools = users.get(scheme.key);
    if (!tools) continue;
    const variables = envFor(scheme, prefix);
    schemes.push({
      key: scheme.key,
      type: scheme.type,
      ...(scheme.in ? { in: scheme.in } : {}),
      ...(scheme.name ? { name: scheme.name } : {}),
      ...(scheme.scheme ? { scheme: scheme.scheme } : {}),
      ...(scheme.tokenUrl ? { tokenUrl: scheme.tokenUrl } : {}),
      ...(scheme.openIdConnectUrl ? { openIdConnectUrl: scheme.openIdConnectUrl } : {}),
      ...(scheme.authorizationCode ? { authorizationCode: scheme.authorizationCode } : {}),
      env: variables,
    });
    const usedBy = tools.length > 8 ? `${tools.slice(0, 8).join(", ")} and ${tools.length - 8} more` : tools.join(", ");
    for (const [role, name] of Object.entries(variables)) {
      env.push({
        name,
        description: `${describeVariable(scheme, role)} Used by: ${usedBy}.`,
        required: false,
        secret: role !== "scopes" && role !== "cert" && role !== "key",
      });
    }
  }
  return { schemes, requirements, env };
}

/** The key a parameter has in {@link credentialParameters}: its place and name (header names in lower case). */
export function parameterKey(location: string, name: string): string {
  return `${location}:${location === "header" ? name.toLowerCase() : name}`;
}

/**
 * The parameters an operation's credentials fill: an apiKey scheme sends its key in a query item,
 * header or cookie of its own name, and when every alternative of the operation's requirements
 * has such a scheme, a parameter of the same name and place would only send the value a second
 * time (a query `key=a&key=b` that the API reads as an array). Key: {@link parameterKey}; value:
 * the scheme's key.
 */
export function credentialParameters(
  requirements: SecurityRequirement[] | undefined,
  schemes: SecuritySchemeDefinition[],
): Map<string, string> {
  const filled = new Map<string, string>();
  if (!requirements || requirements.length === 0) return filled;
  const byKey = new Map(schemes.map((scheme) => [scheme.key, scheme]));
  const places = requirements.map(
    (requirement) =>
      new Map(
        Object.keys(requirement)
          .map((key) => byKey.get(key))
          .filter((scheme) => scheme?.type === "apiKey" && scheme.in && scheme.name)
          .map((scheme) => [parameterKey(scheme!.in!, scheme!.name!), scheme!.key] as const),
      ),
  );
  for (const [place, key] of places[0]!)
    if (places.every((alternative) => alternative.has(place))) filled.set(place, key);
  return filled;
}
