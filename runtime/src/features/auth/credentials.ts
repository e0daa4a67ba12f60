/**
 * Upstream credentials: which of an operation's security alternatives can be satisfied from the
 * environment, and how each scheme is put on the request. Values never leave this module except
 * on the request itself; errors name variables, never their contents.
 */
import { readFileSync } from "node:fs";
import type { UpstreamClient } from "../../upstream/client-slot.js";
import { TokenCache, CredentialError } from "./oauth-client.js";
import type { SecurityRequirement, SecuritySchemeDefinition } from "../../api/types.js";
import type { Authorize, Credentials } from "../../upstream/auth-slot.js";
import { authorize, type AppliedCredentials } from "./authorize.js";
import { checkPassthroughRules, passthroughCredentials, type PassthroughRule } from "./passthrough.js";

/** The outcome of choosing credentials for one call. */
type CredentialChoice = { ok: true; credentials: AppliedCredentials } | { ok: false; message: string };

/** Variables a scheme needs before it can be used, in the order to mention them. */
function neededVariables(scheme: SecuritySchemeDefinition, env: NodeJS.ProcessEnv): string[] | undefined {
  const has = (name: string | undefined) => name !== undefined && (env[name] ?? "") !== "";
  const { token, username, password, clientId, clientSecret, cert, key } = scheme.env;
  switch (scheme.type) {
    case "apiKey":
      return has(token) ? undefined : [token!];
    case "http":
      if (scheme.scheme === "basic")
        return has(username) && has(password) ? undefined : [username!, password!].filter((v) => !has(v));
      return has(token) ? undefined : [token!];
    case "oauth2":
    case "openIdConnect":
      if (has(token) || (has(clientId) && has(clientSecret))) return undefined;
      return [token!, `${clientId} + ${clientSecret}`];
    case "mutualTLS":
      return has(cert) && has(key) ? undefined : [cert!, key!].filter((v) => !has(v));
  }
}

/** Chooses and applies credentials for calls, from a fixed environment and the request's passthrough headers. */
export class CredentialStore implements Credentials {
  private readonly schemes = new Map<string, SecuritySchemeDefinition>();
  private readonly tokens: TokenCache;

  /** Throws when a passthrough rule is not acceptable for these schemes. */
  constructor(
    private readonly schemeList: readonly SecuritySchemeDefinition[],
    private readonly env: NodeJS.ProcessEnv = process.env,
    upstream: { timeoutMs?: number | undefined; client?: UpstreamClient | undefined } = {},
    private readonly passthrough: readonly PassthroughRule[] = [],
  ) {
    checkPassthroughRules(passthrough, schemeList);
    for (const scheme of schemeList) this.schemes.set(scheme.key, scheme);
    this.tokens = new TokenCache(upstream.timeoutMs, upstream.client);
  }

  fromRequest(headers: Record<string, string | string[] | undefined> | undefined): Record<string, string> {
    return passthroughCredentials(this.passthrough, headers, this.schemeList);
  }

  /**
   * Picks the first alternative whose schemes all have credentials (an empty alternative means
   * anonymous access is allowed, and is taken only when no other is satisfied) and applies it.
   * When none can be satisfied, the message names the variables to set for each alternative;
   * nothing half-authenticated is ever sent.
   * `fromRequest` holds credentials that passthrough rules took from the incoming request, by
   * scheme key; they take precedence over the environment's.
   */
  private async choose(
    requirements: SecurityRequirement[] | undefined,
    refreshOAuth = false,
    fromRequest: Record<string, string> = {},
  ): Promise<CredentialChoice> {
    if (!requirements || requirements.length === 0) return { ok: true, credentials: emptyCredentials() };
    const missing: string[] = [];
    // Anonymous access (`{}`) is the last resort: credentials that are set are sent, wherever the
    // spec lists the empty alternative.
    const empty = (alternative: SecurityRequirement) => Object.keys(alternative).length === 0;
    for (const alternative of [...requirements.filter((r) => !empty(r)), ...requirements.filter(empty)]) {
      const keys = Object.keys(alternative);
      const gaps = keys.flatMap((key) => {
        const scheme = this.schemes.get(key);
        if (!scheme) return [`(unknown scheme ${key})`];
        return fromRequest[key] !== undefined ? [] : (neededVariables(scheme, this.env) ?? []);
      });
      if (gaps.length === 0) {
        try {
          return {
            ok: true,
            credentials: await this.apply(
              keys.map((key) => [this.schemes.get(key)!, alternative[key] ?? []] as const),
              refreshOAuth,
              fromRequest,
            ),
          };
        } catch (error) {
          if (error instanceof CredentialError) return { ok: false, message: error.message };
          throw error;
        }
      }
      missing.push(gaps.join(" and "));
    }
    const options = missing.map((m) => `set ${m}`).join(", or ");
    return { ok: false, message: `missing upstream credentials: ${options}.` };
  }

  async send<R extends { statusCode: number }>(
    security: SecurityRequirement[] | undefined,
    fromRequest: Record<string, string> | undefined,
    renew: (() => Promise<Record<string, string> | undefined>) | undefined,
    send: (authorize: Authorize) => Promise<R>,
  ): Promise<{ ok: true; response: R; query: readonly string[] } | { ok: false; message: string }> {
    let choice = await this.choose(security, false, fromRequest);
    if (!choice.ok) return choice;
    const authorizer = (applied: AppliedCredentials) => (url: string, headers: Record<string, string>) =>
      authorize(url, headers, applied);
    let response = await send(authorizer(choice.credentials));
    // A credential the upstream refuses is renewed once: OAuth tokens refreshed, else a user's renewed.
    if (response.statusCode === 401) {
      const { oauthKeys } = choice.credentials;
      for (const key of oauthKeys) this.tokens.invalidate(key);
      const renewed = oauthKeys.length > 0 ? fromRequest : await renew?.();
      if (oauthKeys.length > 0 || renewed) {
        choice = await this.choose(security, oauthKeys.length > 0, renewed);
        if (!choice.ok) return choice;
        response = await send(authorizer(choice.credentials));
      }
    }
    return { ok: true, response, query: choice.credentials.query };
  }

  private async apply(
    schemes: ReadonlyArray<readonly [SecuritySchemeDefinition, string[]]>,
    refreshOAuth: boolean,
    fromRequest: Record<string, string>,
  ): Promise<AppliedCredentials> {
    const applied = emptyCredentials();
    for (const [scheme, scopes] of schemes) {
      const value = (role: keyof SecuritySchemeDefinition["env"]) => this.env[scheme.env[role] ?? ""] ?? "";
      const passed = fromRequest[scheme.key];
      if (passed !== undefined) {
        placeCredential(applied, scheme, passed);
        continue;
      }
      switch (scheme.type) {
        case "apiKey":
          placeCredential(applied, scheme, value("token"));
          break;
        case "http":
          placeCredential(
            applied,
            scheme,
            scheme.scheme === "basic" ? `${value("username")}:${value("password")}` : value("token"),
          );
          break;
        case "oauth2":
        case "openIdConnect": {
          let token = value("token");
          if (token === "") {
            const configured = value("scopes")
              .split(/[\s,]+/)
              .filter(Boolean);
            token = await this.tokens.token(
              scheme.key,
              {
                tokenUrl: scheme.tokenUrl,
                discoveryUrl: scheme.openIdConnectUrl,
                clientId: value("clientId"),
                clientSecret: value("clientSecret"),
                scopes: configured.length > 0 ? configured : scopes,
              },
              refreshOAuth,
            );
            applied.oauthKeys.push(scheme.key);
          }
          placeCredential(applied, scheme, token);
          break;
        }
        case "mutualTLS":
          try {
            applied.tls = { certificate: readFileSync(value("cert"), "utf8"), key: readFileSync(value("key"), "utf8") };
          } catch {
            throw new CredentialError(
              `cannot read the client certificate or key named by ${scheme.env.cert} and ${scheme.env.key}`,
            );
          }
          break;
      }
    }
    return applied;
  }
}

/**
 * Puts one credential where its scheme says: an API key in its header, query or cookie; a basic
 * `user:password` or a token in `Authorization` (OAuth and bearer as `Bearer`, other http schemes
 * under their own name). Used for environment and passed-through credentials alike.
 */
function placeCredential(applied: AppliedCredentials, scheme: SecuritySchemeDefinition, value: string): void {
  if (scheme.type === "apiKey") {
    if (scheme.in === "query")
      applied.query.push(`${encodeURIComponent(scheme.name ?? "")}=${encodeURIComponent(value)}`);
    else if (scheme.in === "cookie") applied.cookies.push(`${scheme.name}=${encodeURIComponent(value)}`);
    else applied.headers[(scheme.name ?? "").toLowerCase()] = value;
  } else if (scheme.type === "http" && scheme.scheme === "basic") {
    applied.headers.authorization = `Basic ${Buffer.from(value).toString("base64")}`;
  } else {
    const prefix = scheme.type === "http" && scheme.scheme && scheme.scheme !== "bearer" ? scheme.scheme : "Bearer";
    applied.headers.authorization = `${prefix} ${value}`;
  }
}

function emptyCredentials(): AppliedCredentials {
  return { headers: {}, query: [], cookies: [], oauthKeys: [] };
}
