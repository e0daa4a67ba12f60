/**
 * Confirming, in the browser, who opens a start URL (resource-server mode with an app registered at
 * the MCP authorization server): before the upstream's consent screen, the browser goes through the
 * issuer's authorization endpoint (OpenID Connect code flow with PKCE and a nonce; the issuer's own
 * session usually makes this step invisible), and the ID token's issuer and subject must be the
 * flow's user. The ID token comes straight from the token endpoint and is still verified (signature
 * against the issuer's JWKS, `iss`, `aud`, expiry, `nonce`).
 */
import type { JWTVerifyGetKey } from "jose";
import { loadGot } from "../../upstream/lazy-modules.js";
import { requestTokens, TokenError, type OAuthClient } from "./token-endpoint.js";

/** The issuer's endpoints this check uses (from its discovery document). */
interface IssuerEndpoints {
  authorizationUrl: string;
  tokenUrl: string;
  jwksUrl: string;
}

/** Who the issuer says is signed in in this browser. */
export interface BrowserUser {
  issuer: string;
  subject: string;
}

/** The browser check of one issuer, as the client `client` registered there. */
export class BrowserUserCheck {
  private endpoints: Promise<IssuerEndpoints> | undefined;
  private keys: JWTVerifyGetKey | undefined;

  constructor(
    readonly issuer: string,
    private readonly client: OAuthClient,
    private readonly timeoutMs: number,
  ) {}

  /** The issuer's authorization URL for this step (`scope=openid`, PKCE S256, `nonce`). */
  async authorizationUrl(redirectUri: string, state: string, challenge: string, nonce: string): Promise<string> {
    const target = new URL((await this.discover()).authorizationUrl);
    const parameters = {
      response_type: "code",
      client_id: this.client.id,
      redirect_uri: redirectUri,
      scope: "openid",
      state,
      nonce,
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    for (const [name, value] of Object.entries(parameters)) target.searchParams.set(name, value);
    return target.href;
  }

  /** Exchanges the issuer's code and returns the verified ID token's user. Throws when any check fails. */
  async userOf(code: string, redirectUri: string, verifier: string, nonce: string): Promise<BrowserUser> {
    const { tokenUrl, jwksUrl } = await this.discover();
    const answer = await requestTokens(
      tokenUrl,
      { grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier },
      this.client,
      this.timeoutMs,
    );
    if (!answer.idToken) throw new TokenError("no_id_token", "the issuer's token endpoint gave no ID token");
    const { createRemoteJWKSet, jwtVerify } = await import("jose");
    this.keys ??= createRemoteJWKSet(new URL(jwksUrl));
    const { payload } = await jwtVerify(answer.idToken, this.keys, { issuer: this.issuer, audience: this.client.id });
    if (payload.nonce !== nonce) throw new TokenError("nonce", "the ID token's nonce is not this sign-in's");
    if (typeof payload.sub !== "string" || payload.sub === "")
      throw new TokenError("no_subject", "the ID token has no subject");
    return { issuer: this.issuer, subject: payload.sub };
  }

  private discover(): Promise<IssuerEndpoints> {
    this.endpoints ??= (async () => {
      const { default: got } = await loadGot();
      const url = `${this.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
      const document = await got(url, { timeout: { request: this.timeoutMs }, retry: { limit: 0 } }).json<
        Record<string, unknown>
      >();
      const { authorization_endpoint: a, token_endpoint: t, jwks_uri: j } = document;
      if (typeof a !== "string" || typeof t !== "string" || typeof j !== "string")
        throw new TokenError("discovery", `the issuer's discovery document at ${url} lacks its endpoints`);
      return { authorizationUrl: a, tokenUrl: t, jwksUrl: j };
    })();
    // A failed discovery is tried again next time.
    this.endpoints.catch(() => (this.endpoints = undefined));
    return this.endpoints;
  }
}
