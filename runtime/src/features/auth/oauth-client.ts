/**
 * OAuth 2 client-credentials tokens for upstream calls: fetched from the token endpoint (or one
 * found by OpenID Connect discovery), cached until shortly before expiry, refreshed on demand.
 * Secrets are sent only to the token endpoint and never logged.
 */
import { loadGot } from "../../upstream/lazy-modules.js";

/** Seconds before expiry at which a cached token is no longer used. */
const EXPIRY_MARGIN_MS = 30_000;

/** Where and how to get a token. */
export interface ClientCredentials {
  /** Token endpoint, or undefined when `discoveryUrl` must be read first. */
  tokenUrl?: string | undefined;
  /** OpenID Connect discovery document URL. */
  discoveryUrl?: string | undefined;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

interface CachedToken {
  value: string;
  expiresAt: number;
}

/** Raised when credentials cannot be obtained (token endpoint, files); the message is safe to show. */
export class CredentialError extends Error {
  override readonly name = "CredentialError";
  /** Stable across versions: custom code may branch on it. */
  readonly code = "ERR_CREDENTIAL";
}

/** Caches one token per scheme key. */
export class TokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<string>>();

  constructor(private readonly timeoutMs = 15_000) {}

  /** A valid access token for `key`, fetched when absent, expired or `refresh` is set. */
  async token(key: string, credentials: ClientCredentials, refresh = false): Promise<string> {
    const cached = this.tokens.get(key);
    if (!refresh && cached && cached.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return cached.value;
    // Concurrent calls share one token request.
    let request = this.pending.get(key);
    if (!request) {
      request = this.fetchToken(key, credentials).finally(() => this.pending.delete(key));
      this.pending.set(key, request);
    }
    return request;
  }

  /** Forgets the token of `key` (after the upstream rejected it). */
  invalidate(key: string): void {
    this.tokens.delete(key);
  }

  private async fetchToken(key: string, credentials: ClientCredentials): Promise<string> {
    const tokenUrl = credentials.tokenUrl ?? (await this.discover(credentials.discoveryUrl));
    const form: Record<string, string> = { grant_type: "client_credentials" };
    if (credentials.scopes.length > 0) form.scope = credentials.scopes.join(" ");
    const basic = Buffer.from(
      `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`,
    ).toString("base64");
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      const { default: got } = await loadGot();
      body = await got
        .post(tokenUrl, {
          form,
          headers: { authorization: `Basic ${basic}`, accept: "application/json" },
          timeout: { request: this.timeoutMs },
          retry: { limit: 0 },
        })
        .json();
    } catch (error) {
      const status = (error as { response?: { statusCode?: number } }).response?.statusCode;
      throw new CredentialError(
        `token request for scheme ${key} to ${new URL(tokenUrl).origin} failed${status ? ` with HTTP ${status}` : ""}`,
      );
    }
    if (typeof body.access_token !== "string" || body.access_token === "") {
      throw new CredentialError(`token endpoint for scheme ${key} answered without an access_token`);
    }
    const lifetime = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in * 1000 : 3_600_000;
    this.tokens.set(key, { value: body.access_token, expiresAt: Date.now() + lifetime });
    return body.access_token;
  }

  private async discover(discoveryUrl: string | undefined): Promise<string> {
    if (!discoveryUrl) throw new CredentialError("no token endpoint is known");
    try {
      const { default: got } = await loadGot();
      const document = await got(discoveryUrl, { timeout: { request: this.timeoutMs }, retry: { limit: 0 } }).json<{
        token_endpoint?: unknown;
      }>();
      if (typeof document.token_endpoint === "string") return document.token_endpoint;
    } catch {
      // reported below
    }
    throw new CredentialError(`OpenID Connect discovery at ${discoveryUrl} gave no token_endpoint`);
  }
}
