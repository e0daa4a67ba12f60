/**
 * The upstream authorization server as an OAuth client sees it: its endpoints (from the spec's
 * authorization code flow, or OpenID Connect discovery) and the token requests of a sign-in: the
 * code exchange (with the PKCE verifier and the exact redirect URI), refreshes, and revocation
 * (RFC 7009) where the provider's metadata offers it. The client
 * secret goes to the token endpoint only; errors name the endpoint's origin and the OAuth error
 * code, never a token or secret.
 */
import { loadGot } from "../../upstream/lazy-modules.js";

/** Where a scheme signs users in. */
export interface AuthorizationEndpoints {
  authorizationUrl: string;
  tokenUrl: string;
  /** RFC 7009 token revocation, when the provider's metadata names it (`revocation_endpoint`). */
  revocationUrl?: string;
}

/** The app registered upstream (`<KEY>_CLIENT_ID`, `<KEY>_CLIENT_SECRET`). */
export interface OAuthClient {
  id: string;
  secret?: string | undefined;
}

/** An answer of the token endpoint. */
export interface TokenAnswer {
  accessToken: string;
  refreshToken?: string;
  /** Lifetime in seconds, when given. */
  expiresIn?: number;
  /** Granted scopes, when given. */
  scopes?: string[];
  /** The OpenID Connect ID token, when given. */
  idToken?: string;
}

/** The token endpoint refused (`reason` is the OAuth error, e.g. `invalid_grant`) or could not be reached. */
export class TokenError extends Error {
  override readonly name = "TokenError";
  /** Stable across versions: custom code may branch on it. */
  readonly code = "ERR_TOKEN";
  constructor(
    /** The OAuth error (`invalid_grant` …) or what failed (`unreachable`, `nonce` …): safe to log. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** The endpoints of an OpenID provider from its discovery document. */
export async function discoverEndpoints(discoveryUrl: string, timeoutMs: number): Promise<AuthorizationEndpoints> {
  const { default: got } = await loadGot();
  let document: Record<string, unknown> = {};
  try {
    document = await got(discoveryUrl, { timeout: { request: timeoutMs }, retry: { limit: 0 } }).json();
  } catch {
    // reported below
  }
  const { authorization_endpoint: authorizationUrl, token_endpoint: tokenUrl, revocation_endpoint } = document;
  if (typeof authorizationUrl !== "string" || typeof tokenUrl !== "string")
    throw new TokenError(
      "discovery",
      `OpenID Connect discovery at ${discoveryUrl} gave no authorization and token endpoints`,
    );
  return {
    authorizationUrl,
    tokenUrl,
    ...(typeof revocation_endpoint === "string" && { revocationUrl: revocation_endpoint }),
  };
}

/** The form and headers of a request to the provider, authenticated as `client`. */
function asClient(
  form: Record<string, string>,
  client: OAuthClient,
): {
  form: Record<string, string>;
  headers: Record<string, string>;
} {
  const headers: Record<string, string> = { accept: "application/json" };
  // client_secret_basic for a confidential client (RFC 6749 §2.3.1), client_id in the form for a public one.
  if (!client.secret) return { form: { ...form, client_id: client.id }, headers };
  headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString("base64")}`;
  return { form, headers };
}

/** A request to the provider: sent once, within `timeoutMs`, never redirected, any status read. */
function once(timeoutMs: number) {
  return {
    timeout: { request: timeoutMs },
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
  } as const;
}

/**
 * Revokes `token` at the provider's revocation endpoint (RFC 7009; `hint` is its type). Throws a
 * TokenError naming the endpoint's origin and status when it refuses or cannot be reached.
 */
export async function revokeToken(
  revocationUrl: string,
  token: string,
  hint: "refresh_token" | "access_token",
  client: OAuthClient,
  timeoutMs: number,
): Promise<void> {
  const { default: got } = await loadGot();
  const where = new URL(revocationUrl).origin;
  let status: number;
  try {
    const response = await got.post(revocationUrl, {
      ...asClient({ token, token_type_hint: hint }, client),
      ...once(timeoutMs),
    });
    status = response.statusCode;
  } catch {
    throw new TokenError("unreachable", `the revocation endpoint at ${where} could not be reached`);
  }
  // RFC 7009 §2.2: 200 whether or not the token was valid.
  if (status !== 200)
    throw new TokenError("revocation_refused", `the revocation endpoint at ${where} answered HTTP ${status}`);
}

/** Sends one token request (`form` without client credentials) and reads the answer. */
export async function requestTokens(
  tokenUrl: string,
  form: Record<string, string>,
  client: OAuthClient,
  timeoutMs: number,
): Promise<TokenAnswer> {
  const { default: got } = await loadGot();
  const where = new URL(tokenUrl).origin;
  let status: number;
  let body: Record<string, unknown> = {};
  try {
    const response = await got.post(tokenUrl, {
      ...asClient(form, client),
      ...once(timeoutMs),
    });
    status = response.statusCode;
    try {
      body = JSON.parse(response.body) as Record<string, unknown>;
    } catch {
      // not JSON: handled below
    }
  } catch {
    throw new TokenError("unreachable", `the token endpoint at ${where} could not be reached`);
  }
  // Some servers (GitHub) answer errors with 200 and an `error` field.
  if (typeof body.error === "string")
    throw new TokenError(body.error, `the token endpoint at ${where} refused: ${oauthErrorCode(body.error)}`);
  if (status >= 400 || typeof body.access_token !== "string" || body.access_token === "")
    throw new TokenError("invalid_response", `the token endpoint at ${where} answered HTTP ${status} without a token`);
  const answer: TokenAnswer = { accessToken: body.access_token };
  if (typeof body.refresh_token === "string" && body.refresh_token !== "") answer.refreshToken = body.refresh_token;
  if (typeof body.expires_in === "number" && body.expires_in > 0) answer.expiresIn = body.expires_in;
  else if (typeof body.expires_in === "string" && Number(body.expires_in) > 0)
    answer.expiresIn = Number(body.expires_in);
  if (typeof body.id_token === "string" && body.id_token !== "") answer.idToken = body.id_token;
  if (typeof body.scope === "string") answer.scopes = body.scope.split(/[\s,]+/).filter(Boolean);
  return answer;
}

/** An OAuth error code as safe to show: its token characters only, clipped. */
export function oauthErrorCode(code: string): string {
  return code.replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 64) || "error";
}
