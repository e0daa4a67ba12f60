/**
 * Feature `auth`, included when the API declares security schemes: upstream credentials from the
 * environment (API keys, HTTP auth, OAuth 2 client credentials, mutual TLS) and, on a shared HTTP
 * server, per-user credentials from headers the operator maps (`--passthrough`).
 */
import type { Feature } from "../../cli/features.js";
import { nonEmpty } from "../../cli/settings.js";
import type { MakeCredentials } from "../../upstream/auth-slot.js";
import { CredentialStore } from "./credentials.js";
import { loadPassthroughConfig, parsePassthroughRule, type PassthroughRule } from "./passthrough.js";

export const auth: Feature = {
  name: "auth",
  flags: { passthrough: { type: "string", multiple: true }, "passthrough-config": { type: "string" } },
  usage: `  --passthrough H=S  HTTP only: take scheme S's upstream credential from request header H
                     (repeatable; a header present in the request wins over the environment)
  --passthrough-config FILE
                     HTTP only: the same rules as JSON {"rules":[{"header":…,"scheme":…}]}
`,
  plugs({ flags, http }) {
    const config = nonEmpty(flags["passthrough-config"] as string | undefined);
    const rules = [
      ...((flags.passthrough as string[] | undefined) ?? []).map(parsePassthroughRule),
      ...(config ? loadPassthroughConfig(config) : []),
    ];
    if (rules.length > 0 && !http)
      throw new Error("--passthrough rules apply to --http only (stdio has no per-request headers)");
    // In OAuth mode the MCP token authorizes the MCP request only; it never goes upstream.
    if (flags["oauth-issuer"] && rules.some((rule) => rule.header.toLowerCase() === "authorization"))
      throw new Error(
        "--passthrough of Authorization is not allowed with --oauth-issuer: the MCP token is never sent upstream",
      );
    return { credentials: upstreamCredentials(rules) };
  },
};

/** The credentials of a server: from its environment, and from request headers by `passthrough` rules. */
export function upstreamCredentials(passthrough: readonly PassthroughRule[] = []): MakeCredentials {
  return (schemes, env, upstream) => new CredentialStore(schemes, env, upstream, passthrough);
}
