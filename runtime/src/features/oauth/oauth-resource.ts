/**
 * The MCP server as an OAuth 2.1 resource server (optional, HTTP only): Protected Resource Metadata
 * (RFC 9728), bearer tokens checked as JWTs against the issuer's JWKS (jose) or by introspection
 * (RFC 7662), audience bound to this server, and per-tool scopes. The MCP token only authorizes
 * the MCP request: it is never sent upstream.
 */
import type { JWTVerifyGetKey } from "jose";
import { loadGot } from "../../upstream/lazy-modules.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpGuard, Principal, Refusal } from "../../transport/http-plugs.js";
import type { McpServer } from "../../server/server.js";

/** The RFC 9728 metadata path. */
const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** Configuration of resource-server mode. */
export interface OAuthResourceOptions {
  /** Issuer of the authorization server (exact `iss`). */
  issuer: string;
  /** This server's resource identifier: tokens must carry it in `aud`. */
  audience: string;
  /** JWKS URL; discovered from the issuer's metadata when absent (and no introspection). */
  jwksUrl?: string | undefined;
  /** Introspection endpoint (RFC 7662), used instead of local JWT checks. */
  introspectionUrl?: string | undefined;
  /** Client credentials for the introspection endpoint. */
  introspectionClient?: { id: string; secret: string } | undefined;
  /** Scopes advertised in the metadata and in `WWW-Authenticate`. */
  scopes?: string[] | undefined;
}

let joseModule: Promise<typeof import("jose")> | undefined;

/** jose, imported on the first token check (a server that never checks one never loads it). */
function loadJose(): Promise<typeof import("jose")> {
  return (joseModule ??= import("jose"));
}

/** Checks bearer tokens for one protected resource. */
export class ResourceServer implements HttpGuard {
  private keys: JWTVerifyGetKey | undefined;

  /** Absolute URL of this server's metadata document, for `WWW-Authenticate`. */
  metadataUrl: string;
  /** The MCP endpoint's URL, once the transport listens. */
  private endpointUrl: string | undefined;

  get issuer(): string {
    return this.options.issuer;
  }

  /** `metadataUrl` may be left empty; the HTTP transport then fills it in once it listens. */
  constructor(
    readonly options: OAuthResourceOptions,
    metadataUrl = "",
  ) {
    this.metadataUrl = metadataUrl;
  }

  /** RFC 9728: the metadata at the root well-known path and at the one suffixed with the endpoint's path. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
    const { pathname: endpoint } = new URL(this.endpointUrl ?? "http://localhost/mcp");
    if (req.method !== "GET" || (pathname !== WELL_KNOWN && pathname !== `${WELL_KNOWN}${endpoint}`)) return false;
    res
      .writeHead(200, { "content-type": "application/json", "cache-control": "max-age=3600" })
      .end(JSON.stringify(this.metadata()));
    return true;
  }

  /** Fills in the metadata URL (when it was left empty) once the transport listens. */
  listening(endpointUrl: string): void {
    this.endpointUrl = endpointUrl;
    if (this.metadataUrl === "") {
      const url = new URL(endpointUrl);
      this.metadataUrl = `${url.origin}${WELL_KNOWN}${url.pathname}`;
    }
  }

  /** 403 when `payload` calls a tool whose scopes the caller's token lacks; else undefined. */
  check(server: McpServer, payload: unknown, scopes: ReadonlySet<string>): Refusal | undefined {
    const call = payload as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
    if (!call || typeof call !== "object" || call.method !== "tools/call" || typeof call.params?.name !== "string")
      return undefined;
    const missing = server.callScopes(call.params).filter((scope) => !scopes.has(scope));
    return missing.length > 0 ? this.insufficientScope(missing) : undefined;
  }

  /** The RFC 9728 metadata document. */
  metadata(): Record<string, unknown> {
    return {
      resource: this.options.audience,
      authorization_servers: [this.options.issuer],
      bearer_methods_supported: ["header"],
      ...(this.options.scopes?.length ? { scopes_supported: this.options.scopes } : {}),
    };
  }

  /** `WWW-Authenticate` for a 401, with the metadata URL and, for a bad token, the error. */
  challenge(error?: "invalid_token"): string {
    const parts = [`resource_metadata="${this.metadataUrl}"`];
    if (this.options.scopes?.length) parts.push(`scope="${this.options.scopes.join(" ")}"`);
    if (error) parts.push(`error="${error}"`);
    return `Bearer ${parts.join(", ")}`;
  }

  /** 403 for a token that lacks scopes a tool needs. */
  insufficientScope(needed: string[]): Refusal {
    return {
      status: 403,
      wwwAuthenticate: `Bearer error="insufficient_scope", scope="${needed.join(" ")}", resource_metadata="${this.metadataUrl}"`,
      message: `insufficient_scope: this tool needs ${needed.join(", ")}`,
    };
  }

  /** Validates the request's `Authorization` header. */
  async authenticate(authorization: string | undefined): Promise<Principal | Refusal> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) return { status: 401, wwwAuthenticate: this.challenge(), message: "a bearer token is required" };
    try {
      return this.options.introspectionUrl ? await this.introspect(match[1]!) : await this.verifyJwt(match[1]!);
    } catch (error) {
      return {
        status: 401,
        wwwAuthenticate: this.challenge("invalid_token"),
        message: `invalid token: ${(error as Error).message}`,
      };
    }
  }

  private async verifyJwt(token: string): Promise<Principal> {
    const { createRemoteJWKSet, jwtVerify } = await loadJose();
    this.keys ??= createRemoteJWKSet(new URL(this.options.jwksUrl ?? (await this.discoverJwks())));
    const { payload } = await jwtVerify(token, this.keys, {
      issuer: this.options.issuer,
      audience: this.options.audience,
    });
    return { subject: payload.sub, scopes: scopeSet(payload.scope ?? payload.scp) };
  }

  private async introspect(token: string): Promise<Principal> {
    const client = this.options.introspectionClient;
    const { default: got } = await loadGot();
    const body = await got
      .post(this.options.introspectionUrl!, {
        form: { token, token_type_hint: "access_token" },
        headers: client
          ? {
              authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString("base64")}`,
            }
          : {},
        timeout: { request: 10_000 },
        retry: { limit: 0 },
      })
      .json<Record<string, unknown>>();
    if (body.active !== true) throw new Error("token is not active");
    if (body.iss !== undefined && body.iss !== this.options.issuer) throw new Error("unexpected issuer");
    const audiences = Array.isArray(body.aud) ? body.aud : body.aud === undefined ? [] : [body.aud];
    if (!audiences.includes(this.options.audience)) throw new Error("token is not for this resource");
    if (typeof body.exp === "number" && body.exp * 1000 < Date.now()) throw new Error("token expired");
    return { subject: typeof body.sub === "string" ? body.sub : undefined, scopes: scopeSet(body.scope) };
  }

  /** JWKS URL from the issuer's RFC 8414 (or OpenID) metadata. */
  private async discoverJwks(): Promise<string> {
    const issuer = this.options.issuer.replace(/\/+$/, "");
    const origin = new URL(issuer).origin;
    const path = new URL(issuer).pathname.replace(/\/+$/, "");
    for (const url of [
      `${origin}/.well-known/oauth-authorization-server${path}`,
      `${issuer}/.well-known/openid-configuration`,
    ]) {
      try {
        const { default: got } = await loadGot();
        const document = await got(url, { timeout: { request: 10_000 }, retry: { limit: 0 } }).json<{
          jwks_uri?: unknown;
        }>();
        if (typeof document.jwks_uri === "string") return document.jwks_uri;
      } catch {
        // try the next location
      }
    }
    throw new Error("the issuer's metadata gives no jwks_uri");
  }
}

function scopeSet(value: unknown): Set<string> {
  if (Array.isArray(value)) return new Set(value.filter((v): v is string => typeof v === "string"));
  return new Set(typeof value === "string" ? value.split(/\s+/).filter(Boolean) : []);
}
