/**
 * OAuth 2 client-credentials tokens for upstream calls: fetched from the token endpoint (or one
 * found by OpenID Connect discovery), cached until shortly before expiry, refreshed on demand.
 * Secrets are sent only to the token endpoint and never logged. Requests go through the server's
 * upstream client (client-slot.ts): got on Node, the platform's `fetch` where got cannot run.
 */
import type { CallLimits, UpstreamClient, UpstreamRequest } from "../../upstream/client-slot.js";
import { gotClient } from "../../upstream/got-client.js";

/** Seconds before expiry at which a cached token is no longer used. */
const EXPIRY_MARGIN_MS = 30_000;
/** Largest token or discovery response read (a token response is a few KB). */
const MAX_RESPONSE_BYTES = 1_048_576;

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

  constructor(
    private readonly timeoutMs = 15_000,
    private readonly client: UpstreamClient = gotClient,
  ) {}

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
    const headers = {
      authorization: `Basic ${basic}`,
      accept: "application/json",
      "content-type": "application/x-www-form-urlencoded",
    };
    const answer = await this.json("POST", tokenUrl, headers, new URLSearchParams(form).toString());
    const body = (answer.ok ? answer.body : {}) as { access_token?: unknown; expires_in?: unknown };
    if (!answer.ok)
      throw new CredentialError(
        `token request for scheme ${key} to ${new URL(tokenUrl).origin} failed${answer.status ? ` with HTTP ${answer.status}` : ""}`,
      );
    if (typeof body.access_token !== "string" || body.access_token === "") {
      throw new CredentialError(`token endpoint for scheme ${key} answered without an access_token`);
    }
    const lifetime = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in * 1000 : 3_600_000;
    this.tokens.set(key, { value: body.access_token, expiresAt: Date.now() + lifetime });
    return body.access_token;
  }

  private async discover(discoveryUrl: string | undefined): Promise<string> {
    if (!discoveryUrl) throw new CredentialError("no token endpoint is known");
    const answer = await this.json("GET", discoveryUrl, { accept: "application/json" });
    const endpoint = answer.ok ? (answer.body as { token_endpoint?: unknown }).token_endpoint : undefined;
    if (typeof endpoint === "string") return endpoint;
    throw new CredentialError(`OpenID Connect discovery at ${discoveryUrl} gave no token_endpoint`);
  }

  /**
   * One request (no retry) within the timeout, and its JSON body when the status is 2xx; otherwise
   * the status, if one came (a network failure, the timeout and a body that is not JSON have none).
   */
  private async json(
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ ok: true; body: unknown } | { ok: false; status?: number }> {
    const limits: CallLimits = {
      deadline: performance.now() + this.timeoutMs,
      timedOut: false,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      attempts: 1,
    };
    const timer = setTimeout(() => {
      limits.timedOut = true;
      limits.cancel?.();
    }, this.timeoutMs);
    const request: UpstreamRequest = { method, url, headers, body, retries: 0 };
    try {
      const response = await this.client.send(request, limits);
      if (response.statusCode < 200 || response.statusCode > 299) return { ok: false, status: response.statusCode };
      return { ok: true, body: JSON.parse(response.body.toString("utf8")) as unknown };
    } catch {
      return { ok: false };
    } finally {
      clearTimeout(timer);
    }
  }
}
