/**
 * Feature `oauth`: the server as an OAuth 2.1 resource server (HTTP only): bearer tokens checked as
 * JWTs (jose) or by introspection, Protected Resource Metadata, per-tool scopes.
 */
import type { Feature } from "../../cli/features.js";
import { nonEmpty } from "../../cli/settings.js";
import { ResourceServer } from "./oauth-resource.js";
import type { SecuritySchemeDefinition } from "../../api/types.js";
import type { ToolScopes } from "../../server/tool-catalog.js";

export const oauth: Feature = {
  name: "oauth",
  flags: {
    "oauth-issuer": { type: "string" },
    "oauth-audience": { type: "string" },
    "oauth-jwks": { type: "string" },
    "oauth-introspection": { type: "string" },
    "oauth-scopes": { type: "string" },
  },
  usage: `  --oauth-issuer URL OAuth 2.1 resource-server mode (HTTP): accept only bearer tokens from this issuer
  --oauth-audience URL  this server's resource identifier, required in the token's aud
                     (default: the endpoint URL, or --public-url + /mcp)
  --oauth-jwks URL   the issuer's JWKS (default: from the issuer's metadata)
  --oauth-introspection URL
                     check tokens by introspection (RFC 7662) instead; client from
                     MCP_OAUTH_CLIENT_ID / MCP_OAUTH_CLIENT_SECRET
  --oauth-scopes S   space-separated scopes to advertise
`,
  plugs({ flags, env, http, origin, info }) {
    const issuer = nonEmpty(flags["oauth-issuer"] as string | undefined);
    if (issuer === undefined) return {};
    if (!http) throw new Error("--oauth-issuer applies to --http only");
    const audience = nonEmpty(flags["oauth-audience"] as string | undefined) ?? (origin ? `${origin}/mcp` : undefined);
    if (!audience) throw new Error("--oauth-audience is required with --port 0");
    const id = env.MCP_OAUTH_CLIENT_ID;
    const secret = env.MCP_OAUTH_CLIENT_SECRET;
    const guard = new ResourceServer(
      {
        issuer,
        audience,
        jwksUrl: nonEmpty(flags["oauth-jwks"] as string | undefined),
        introspectionUrl: nonEmpty(flags["oauth-introspection"] as string | undefined),
        introspectionClient: id && secret ? { id, secret } : undefined,
        scopes: nonEmpty(flags["oauth-scopes"] as string | undefined)?.split(/\s+/),
      },
      origin ? `${origin}/.well-known/oauth-protected-resource/mcp` : "",
    );
    return { httpGuard: guard, toolScopes: oauthToolScopes(info.securitySchemes ?? []) };
  },
};

/** The scopes a token needs for an operation: those of its first OAuth 2 / OpenID Connect security alternative. */
export function oauthToolScopes(schemes: readonly SecuritySchemeDefinition[]): ToolScopes {
  const oauthSchemes = new Set(
    schemes.filter((s) => s.type === "oauth2" || s.type === "openIdConnect").map((s) => s.key),
  );
  return (tool) => {
    for (const alternative of tool.http.security ?? []) {
      const scopes = Object.entries(alternative)
        .filter(([key]) => oauthSchemes.has(key))
        .flatMap(([, list]) => list);
      if (scopes.length > 0) return [...new Set(scopes)];
    }
    return [];
  };
}
